/**
 * A multi-signature transaction passed between approvers in a file, through the CLI in-process
 * against the mock (its node weighs the signatures as java-tron does): `tx sign FILE` names the
 * permission and adds a signature offline, the txID unchanged as signatures are added;
 * `tx approvals FILE` shows who approved and the weight missing; `tx broadcast FILE` refuses
 * short of the threshold (nothing sent) and sends once it is met, and again only reports it.
 * `tx TXID` still answers beside the subcommands.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trxToSun } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { signTransactionWith, withPermissionId } from '../../src/protocol/signers/index.js';
import { operationsHex } from '../../src/protocol/tron-permissions.js';
import { buildTrxTransfer, privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { tronAddressToHex } from '../../src/utils/address.js';
import { errorLine, json, runCliInProcess, tempDir } from './run.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 41 });
});
afterAll(async () => {
  await mock?.close();
});

const TO = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
const keyOf = (n: number) => n.toString(16).padStart(2, '0').repeat(32);
const walletOf = (n: number) => ({ privateKey: keyOf(n), address: privateKeyToTronAddress(keyOf(n)) });
const [OWNER, B, C, D] = [walletOf(0xe1), walletOf(0xe2), walletOf(0xe3), walletOf(0xe4)] as const;
const node = async (method: string, body: unknown) =>
  (await (await fetch(`${mock.url}/wallet/${method}`, { method: 'POST', body: JSON.stringify(body) })).json()) as Record<string, unknown>;

describe('trx-rent tx sign | approvals | broadcast', () => {
  it('two of three approvers sign a file in turn; short of the threshold nothing is sent; then it lands once', async () => {
    const chain = mock.state.chain;
    chain.fundTrx(OWNER.address, 300_000_000n);
    const update = await node('accountpermissionupdate', {
      owner_address: tronAddressToHex(OWNER.address),
      owner: { type: 0, permission_name: 'owner', threshold: 1, keys: [{ address: tronAddressToHex(OWNER.address), weight: 1 }] },
      actives: [
        {
          type: 2,
          permission_name: 'treasury',
          threshold: 2,
          operations: operationsHex([1, 31]),
          keys: [B, C, D].map((k) => ({ address: tronAddressToHex(k.address), weight: 1 })),
        },
      ],
    });
    expect((await node('broadcasttransaction', await signTransactionWith(OWNER.privateKey, update as never))).result).toBe(true);

    const dir = tempDir('trx-rent-tx-');
    const keyFile = (k: { privateKey: string }, name: string) => {
      const path = join(dir, name);
      writeFileSync(path, `${k.privateKey}\n`);
      chmodSync(path, 0o600);
      return path;
    };
    const head = chain.height();
    // Valid for 6 hours: approvers take their time (TRON accepts up to 24 h).
    const unsigned = buildTrxTransfer({
      from: OWNER.address,
      to: TO,
      amountSun: 7_000_000n,
      refBlock: { number: head, hash: chain.blockId(head) },
      now: chain.now(),
      expirationMs: 6 * 3_600_000,
    });
    const file = join(dir, 'payout.json');
    writeFileSync(file, JSON.stringify(unsigned));
    const expectedId = withPermissionId(unsigned, 2).txID;
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.state.createAccount({ trx_sun: trxToSun('10') }).api_key, TRX_RENT_TRON_NODE: mock.url };

    const first = await runCliInProcess(['tx', 'sign', file, '--permission-id', '2', '--key-file', keyFile(B, 'b.key'), '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(json(first)).toEqual({ tx_id: expectedId, signer: B.address, permission_id: 2, signatures: 1, file });
    expect(JSON.parse(readFileSync(file, 'utf8')).txID).toBe(expectedId);

    const one = await runCliInProcess(['tx', 'approvals', file, '--json'], { env });
    expect(one.code, one.stderr).toBe(0);
    expect(json(one)).toMatchObject({
      tx_id: expectedId,
      permission_id: 2,
      permission_name: 'treasury',
      threshold: 2,
      approved: [{ address: B.address, weight: 1 }],
      current_weight: 1,
      missing_weight: 1,
      ready: false,
    });

    const refused = await runCliInProcess(['tx', 'broadcast', file, '--json'], { env });
    expect(refused.code).toBe(1);
    expect(errorLine(refused)).toMatchObject({ code: 'PERMISSION_DENIED', message: expect.stringContaining('1 missing; nothing was broadcast') });
    expect(chain.transactions.has(expectedId)).toBe(false);

    // The second approver signs elsewhere, later, with the key in the environment.
    const second = await runCliInProcess(['tx', 'sign', file, '--json'], { env: { ...env, TRX_RENT_PRIVATE_KEY: C.privateKey } });
    expect(second.code, second.stderr).toBe(0);
    expect(json(second)).toMatchObject({ tx_id: expectedId, signer: C.address, permission_id: 2, signatures: 2 });
    const again = await runCliInProcess(['tx', 'sign', file, '--json'], { env: { ...env, TRX_RENT_PRIVATE_KEY: C.privateKey } });
    expect(again.code).toBe(2);
    expect(errorLine(again).message).toContain(`${C.address} has already signed this transaction`);
    const renamed = await runCliInProcess(['tx', 'sign', file, '--permission-id', '3', '--key-file', keyFile(D, 'd.key')], { env });
    expect(renamed.code).toBe(2);
    expect(renamed.stderr).toContain('is signed for permission 2');

    const two = json(await runCliInProcess(['tx', 'approvals', file, '--json'], { env }));
    expect(two).toMatchObject({ current_weight: 2, missing_weight: 0, ready: true, approved: [{ address: B.address }, { address: C.address }] });
    const before = chain.trxBalance(OWNER.address);
    const sent = await runCliInProcess(['tx', 'broadcast', file, '--json'], { env });
    expect(sent.code, sent.stderr).toBe(0);
    expect(json(sent)).toEqual({ tx_id: expectedId, broadcast: true, already: false, current_weight: 2, threshold: 2 });
    expect(chain.transactions.get(expectedId)?.trxTransfer?.amountSun).toBe(7_000_000n);
    expect(before - chain.trxBalance(OWNER.address)).toBe(7_000_000n + BigInt(chain.transactions.get(expectedId)!.feeSun));
    // The same bytes again: the node's duplicate answer, reported as already broadcast; nothing moves twice.
    const twice = await runCliInProcess(['tx', 'broadcast', file, '--json'], { env });
    expect(json(twice)).toMatchObject({ tx_id: expectedId, already: true });
    expect(before - chain.trxBalance(OWNER.address)).toBe(7_000_000n + BigInt(chain.transactions.get(expectedId)!.feeSun));

    // `tx TXID` is still the status command.
    const status = await runCliInProcess(['tx', expectedId, '--json'], { env, configDir: dir });
    expect(status.code, status.stderr).toBe(0);
    expect(json(status)).toMatchObject({ tx_id: expectedId });
  });

  it('a file that holds no transaction, or a txID that is not its raw data, is refused before anything is signed', async () => {
    const dir = tempDir('trx-rent-tx-');
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ hello: 1 }));
    const env = { TRX_RENT_PRIVATE_KEY: B.privateKey, TRX_RENT_BASE_URL: mock.url, TRX_RENT_TRON_NODE: mock.url };
    const none = await runCliInProcess(['tx', 'sign', bad], { env });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('holds no transaction');
    const forged = join(dir, 'forged.json');
    writeFileSync(forged, JSON.stringify({ ...buildTrxTransfer({ from: OWNER.address, to: TO, amountSun: 1n }), txID: 'ab'.repeat(32) }));
    const mismatch = await runCliInProcess(['tx', 'sign', forged], { env });
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toContain('not sha256 of its raw data');
    expect(JSON.parse(readFileSync(forged, 'utf8')).signature).toBeUndefined();
  });
});
