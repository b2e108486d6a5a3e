/**
 * `trx-rent send` from a multi-signature account, in-process against the mock: `--from ACCOUNT
 * --permission-id 2 --key-file B --key-file C` signs one transfer (and a `--batch`) with two of
 * the three keys of a 2-of-3 permission; one key short of the threshold is refused
 * (PERMISSION_DENIED, exit 1, naming the permission and the missing weight) before any order, for
 * one transfer and for a batch.
 * The judges are the mock's chain and its order log.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { decodeRawDataHex, recoverTransactionSigner } from '../../src/protocol/tron-transaction.js';
import { twoOfThree } from '../helpers/multisig.js';
import { fundedWalletMaker } from '../helpers/wallets.js';
import { account, ordersOf, paid, payouts } from '../workflows/payouts-helpers.js';
import { errorLine, json, runCliInProcess, tempDir } from './run.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 49, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
});
afterAll(async () => {
  await mock?.close();
});

const wallet = fundedWalletMaker(() => mock, 0xa0);

function keyFiles(...keys: Array<{ privateKey: string }>): string[] {
  const dir = tempDir('trx-rent-ms-');
  return keys.map((k, i) => {
    const path = join(dir, `k${i}.key`);
    writeFileSync(path, `${k.privateKey}\n`);
    chmodSync(path, 0o600);
    return path;
  });
}

describe('trx-rent send from a 2-of-3 account', { timeout: 60_000 }, () => {
  it('--from --permission-id 2 with two --key-file signers: one transfer, then a batch, each landed once and signed by both', async () => {
    const { owner, b, c } = await twoOfThree(mock, wallet);
    const acct = account(mock);
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: acct.apiKey, TRX_RENT_TRON_NODE: mock.url };
    const [kb, kc] = keyFiles(b, c);
    const to = wallet(0n, 1_000_000n).address;
    const signerFlags = ['--from', owner.address, '--permission-id', '2', '--key-file', kb!, '--key-file', kc!];
    const one = await runCliInProcess(['send', 'usdt', '--to', to, '--amount', '4.5', ...signerFlags, '--yes', '--json'], { env });
    expect(one.code, one.stderr).toBe(0);
    const sent = json(one);
    expect(sent.from).toBe(owner.address);
    const t = mock.state.chain.transactions.get(sent.tx_id)!;
    expect(t.result).toBe('SUCCESS');
    expect(t.transfer).toMatchObject({ from: owner.address, to, amount: 4_500_000n });
    const tx = t.tx as { raw_data_hex: string; signature: string[] };
    expect(decodeRawDataHex(tx.raw_data_hex).permissionId).toBe(2);
    expect(tx.signature.map((s) => recoverTransactionSigner(t.txid, s))).toEqual([b.address, c.address]);

    const rows = payouts(mock, 5, 'cli-ms');
    const dir = tempDir('trx-rent-ms-batch-');
    const csv = join(dir, 'payouts.csv');
    writeFileSync(csv, `to,amount,id\n${rows.map((r) => `${r.to},${r.amount},${r.id}`).join('\n')}\n`);
    const batch = await runCliInProcess(['send', 'usdt', '--batch', csv, ...signerFlags, '--yes', '--json'], { env });
    expect(batch.code, batch.stderr).toBe(0);
    const chain = paid(mock, owner.address);
    for (const r of rows) expect(chain.get(r.to)?.count, r.id).toBe(1);
    for (const tx of mock.state.chain.transactions.values()) {
      if (tx.transfer?.from !== owner.address) continue;
      expect((tx.tx as { signature: string[] }).signature.map((s) => recoverTransactionSigner(tx.txid, s))).toEqual([b.address, c.address]);
    }
  });

  it('one key of the 2-of-3 is refused before any order: PERMISSION_DENIED naming permission 2 and the missing weight, exit 1', async () => {
    const { owner, d } = await twoOfThree(mock, wallet);
    const acct = account(mock);
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: acct.apiKey, TRX_RENT_TRON_NODE: mock.url };
    const [kd] = keyFiles(d);
    const to = wallet(0n, 1_000_000n).address;
    const r = await runCliInProcess(
      ['send', 'usdt', '--to', to, '--amount', '1', '--from', owner.address, '--permission-id', '2', '--key-file', kd!, '--yes', '--json'],
      { env },
    );
    expect(r.code).toBe(1);
    const error = errorLine(r);
    expect(error.code).toBe('PERMISSION_DENIED');
    expect(error.message).toMatch(/permission 2 \("pay"\) of T\w+: 1 missing/);
    expect(error.hint).toMatch(/keys of permission 2/);
    // The batch too, before its plan is shown: nothing estimated, ordered or sent.
    const rows = payouts(mock, 3, 'cli-ms-denied');
    const csv = join(tempDir('trx-rent-ms-denied-'), 'payouts.csv');
    writeFileSync(csv, `to,amount,id\n${rows.map((x) => `${x.to},${x.amount},${x.id}`).join('\n')}\n`);
    const batch = await runCliInProcess(
      ['send', 'usdt', '--batch', csv, '--from', owner.address, '--permission-id', '2', '--key-file', kd!, '--yes', '--json'],
      { env },
    );
    expect(batch.code).toBe(1);
    expect(errorLine(batch)).toMatchObject({ code: 'PERMISSION_DENIED' });
    expect(errorLine(batch).message).toMatch(/1 missing/);
    expect(batch.stdout).not.toMatch(/"planned"/);
    expect(ordersOf(mock, acct.accountId)).toEqual([]);
    expect(paid(mock, owner.address).size).toBe(0);
  });

  it('several --key-file keys without --from is a usage error, before any key is read', async () => {
    const [k1, k2] = keyFiles(wallet(), wallet());
    const r = await runCliInProcess(['send', 'usdt', '--to', wallet().address, '--amount', '1', '--key-file', k1!, '--key-file', k2!, '--yes', '--json'], {
      env: { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: account(mock).apiKey, TRX_RENT_TRON_NODE: mock.url },
    });
    expect(r.code).toBe(2);
    expect(errorLine(r).message).toMatch(/--from/);
  });
});
