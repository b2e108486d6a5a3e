/**
 * The simulated node's permission rules one by one, in java-tron's words
 * (`TransactionCapsule.validatePubSignature` / `checkWeight`, `AccountPermissionUpdateActuator`,
 * `Manager.consumeMultiSignFee`, `TransactionUtil.getTransactionSignWeight`,
 * `Wallet.getTransactionApprovedList`), with transactions built and signed by trx-rent's own
 * signers (`withPermissionId`, `signTransactionWith`); and the service's `POST /api/v1/broadcast`
 * relaying a multi-signature transaction for the chain to weigh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { type MockServer, createMockState, startMockServer } from '../../src/mock/index.js';
import { decodeState, encodeState } from '../../src/mock/state/persist.js';
import { CHAIN_PARAMETERS } from '../../src/mock/chain/fees.js';
import { fromPrivateKey, signTransactionWith, withPermissionId } from '../../src/protocol/signers/index.js';
import { operationsHex } from '../../src/protocol/tron-permissions.js';
import { type UnsignedTransaction, buildTrxTransfer, signTransactionId } from '../../src/protocol/tron-transaction.js';
import { tronAddressToHex } from '../../src/utils/address.js';
import { fundedWalletMaker } from '../helpers/wallets.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 47, rateLimits: false });
});
afterAll(async () => {
  await mock.close();
});

const TO = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
const wallet = fundedWalletMaker(() => mock, 0xd0);
const hex = tronAddressToHex;
const node = async (method: string, body: unknown) =>
  (await (await fetch(`${mock.url}/wallet/${method}`, { method: 'POST', body: JSON.stringify(body) })).json()) as Record<string, unknown>;
const refusal = (answer: Record<string, unknown>) => `${String(answer.code)}: ${Buffer.from(String(answer.message ?? ''), 'hex').toString()}`;
const key = (k: { address: string }, weight = 1) => ({ address: hex(k.address), weight });
const OWNER_OPS = operationsHex([1, 31]);

/** A transfer from `from` with the head block as reference (the node refuses the offline one). */
function transfer(from: string, amountSun = 1_000_000n): UnsignedTransaction {
  const chain = mock.state.chain;
  const head = chain.height();
  return buildTrxTransfer({ from, to: TO, amountSun, refBlock: { number: head, hash: chain.blockId(head) }, now: chain.now() });
}

/** Give `owner` permission 2 over `keys` (threshold `threshold`), built by the node and signed by the owner's key. */
async function setActive(owner: { privateKey: string; address: string }, keys: Array<{ address: string }>, threshold: number) {
  const built = await node('accountpermissionupdate', {
    owner_address: hex(owner.address),
    owner: { type: 0, permission_name: 'owner', threshold: 1, keys: [key(owner)] },
    actives: [{ type: 2, permission_name: 'pay', threshold, operations: OWNER_OPS, keys: keys.map((k) => key(k)) }],
  });
  const answer = await node('broadcasttransaction', await signTransactionWith(owner.privateKey, built as never));
  expect(answer.result).toBe(true);
}

describe('signature checks (TransactionCapsule)', () => {
  it('counts: none, more than TOTAL_SIGN_NUM, more than the permission has keys; sizes and headers', async () => {
    const owner = wallet(0n, 200_000_000n);
    const keys = [wallet(), wallet(), wallet()];
    await setActive(owner, keys, 2);
    const named = withPermissionId(transfer(owner.address), 2);
    const sig = (k: string) => signTransactionId(named.txID, k);
    expect(refusal(await node('broadcasttransaction', { ...named, signature: [] }))).toBe('SIGERROR: Validate signature error: miss sig or contract');
    const six = Array.from({ length: 6 }, () => sig(keys[0]!.privateKey));
    expect(refusal(await node('broadcasttransaction', { ...named, signature: six }))).toBe('SIGERROR: Validate signature error: too many signatures');
    const four = [...keys, wallet()].map((k) => sig(k.privateKey));
    expect(refusal(await node('broadcasttransaction', { ...named, signature: four }))).toBe(
      'SIGERROR: Validate signature error: Signature count is 4 more than key counts of permission : 3',
    );
    expect(refusal(await node('broadcasttransaction', { ...named, signature: [sig(keys[0]!.privateKey).slice(0, 128)] }))).toBe(
      'SIGERROR: Validate signature error: Signature size is 64',
    );
    expect(refusal(await node('broadcasttransaction', { ...named, signature: [`${sig(keys[0]!.privateKey).slice(0, 128)}30`] }))).toBe(
      'SIGERROR: Validate signature error: Header byte out of range: 48',
    );
    // v = 0/1 is read as 27/28, as java-tron does.
    const raw = sig(keys[0]!.privateKey);
    const zeroV = `${raw.slice(0, 128)}${(Number.parseInt(raw.slice(128), 16) - 27).toString(16).padStart(2, '0')}`;
    const both = [zeroV, sig(keys[1]!.privateKey)];
    expect(await node('broadcasttransaction', { ...named, signature: both })).toEqual({ result: true, txid: named.txID });
  });

  it('an owner that is no account may use only the default permissions 0 and 2', async () => {
    const ghost = wallet();
    const sign = (id: number) => {
      const named = withPermissionId(transfer(ghost.address), id);
      return { ...named, signature: [signTransactionId(named.txID, ghost.privateKey)] };
    };
    // Past the signature check (default active), refused for being no account (BandwidthProcessor).
    expect(refusal(await node('broadcasttransaction', sign(2)))).toBe(
      `CONTRACT_VALIDATE_ERROR: Contract validate error : account [${ghost.address}] does not exist`,
    );
    expect(refusal(await node('broadcasttransaction', sign(3)))).toBe("SIGERROR: Validate signature error: permission isn't exit");
    expect(await node('getsignweight', sign(2))).toMatchObject({ result: { code: 'PERMISSION_ERROR', message: 'Account does not exist!' } });
    expect(await node('getapprovedlist', sign(2))).toMatchObject({
      result: { code: 'OTHER_ERROR', message: 'class org.tron.core.exception.PermissionException : Account does not exist!' },
    });
  });

  it('getsignweight and getapprovedlist with visible: base58 addresses; a short signature is SIGNATURE_FORMAT_ERROR', async () => {
    const owner = wallet(0n, 200_000_000n);
    const [b, c] = [wallet(), wallet()];
    await setActive(owner, [b, c], 2);
    const signed = await signTransactionWith(fromPrivateKey(b.privateKey, { permissionId: 2 }), withPermissionId(transfer(owner.address), 2));
    const weight = await node('getsignweight', { ...signed, visible: true });
    expect(weight).toMatchObject({
      approved_list: [b.address],
      current_weight: 1,
      result: { code: 'NOT_ENOUGH_PERMISSION' },
      permission: {
        keys: [
          { address: b.address, weight: 1 },
          { address: c.address, weight: 1 },
        ],
      },
    });
    expect((await node('getapprovedlist', { ...signed, visible: true })).approved_list).toEqual([b.address]);
    const short = { ...signed, signature: [signed.signature[0]!.slice(0, 100)] };
    expect((await node('getsignweight', short)).result).toEqual({ code: 'SIGNATURE_FORMAT_ERROR', message: 'Signature size is 50' });
    expect((await node('getapprovedlist', short)).result).toEqual({ code: 'SIGNATURE_FORMAT_ERROR', message: 'Signature size is 50' });
  });
});

describe('fees (AccountPermissionUpdateActuator.calcFee, Manager.consumeMultiSignFee)', () => {
  it('the chain parameters name them; an update short of 100 TRX fails execution; a multi-signature short of 1 TRX is a bandwidth refusal', async () => {
    const params = (await node('getchainparameters', {})).chainParameter as Array<{ key: string; value: number }>;
    expect(params).toEqual(
      expect.arrayContaining([
        { key: 'getUpdateAccountPermissionFee', value: 100_000_000 },
        { key: 'getMultiSignFee', value: 1_000_000 },
        { key: 'getAllowMultiSign', value: 1 },
      ]),
    );
    const poor = wallet(0n, 50_000_000n);
    const built = await node('accountpermissionupdate', {
      owner_address: hex(poor.address),
      owner: { type: 0, permission_name: 'owner', threshold: 1, keys: [key(poor)] },
      actives: [{ type: 2, permission_name: 'a', threshold: 1, operations: OWNER_OPS, keys: [key(poor)] }],
    });
    const answer = await node('broadcasttransaction', await signTransactionWith(poor.privateKey, built as never));
    expect(refusal(answer)).toMatch(
      new RegExp(`^CONTRACT_EXE_ERROR: Contract execute error : ${hex(poor.address)} insufficient balance, balance: \\d+, amount: 100000000$`),
    );
    expect(mock.state.chain.trxBalance(poor.address)).toBe(50_000_000n);

    const owner = wallet(0n, 200_000_000n);
    const [b, c] = [wallet(), wallet()];
    await setActive(owner, [b, c], 2);
    const twoSigned = (tx: UnsignedTransaction) => ({ ...tx, signature: [signTransactionId(tx.txID, b.privateKey), signTransactionId(tx.txID, c.privateKey)] });
    // The transfer's own check counts the fee: the whole balance no longer fits (TransferActuator.validate).
    const all = withPermissionId(transfer(owner.address, mock.state.chain.trxBalance(owner.address)), 2);
    expect(refusal(await node('broadcasttransaction', twoSigned(all)))).toBe(
      'CONTRACT_VALIDATE_ERROR: Contract validate error : Validate TransferContract error, balance is not sufficient.',
    );
    // Less than 1 TRX left (bandwidth free): the fee itself cannot be paid, java-tron's AccountResourceInsufficientException.
    const account = mock.state.chain.accounts.get(owner.address)!;
    account.trx = 500_000n;
    account.freeNetUsed = 0;
    const small = withPermissionId(transfer(owner.address, 100_000n), 2);
    expect(refusal(await node('broadcasttransaction', twoSigned(small)))).toBe('BANDWITH_ERROR: Account resource insufficient error.');
    mock.state.chain.fundTrx(owner.address, 1_000_000n);
    const paid = withPermissionId(transfer(owner.address, 200_000n), 2);
    expect((await node('broadcasttransaction', twoSigned(paid))).result).toBe(true);
    expect(mock.state.chain.trxBalance(owner.address)).toBe(1_500_000n - 200_000n - BigInt(CHAIN_PARAMETERS.getMultiSignFee));
  });
});

describe('AccountPermissionUpdateActuator.validate', () => {
  const owner = () => wallet(0n, 200_000_000n);
  const base = (o: { address: string }) => ({
    owner_address: hex(o.address),
    owner: { type: 0, permission_name: 'owner', threshold: 1, keys: [key(o)] },
    actives: [{ type: 2, permission_name: 'a', threshold: 1, operations: OWNER_OPS, keys: [key(o)] }],
  });
  const cases: Array<[string, (o: { address: string }, b: ReturnType<typeof base>) => unknown]> = [
    ['owner permission is missed', (_o, b) => ({ ...b, owner: undefined })],
    ["account isn't witness can't set witness permission", (o, b) => ({ ...b, witness: { type: 1, permission_name: 'w', threshold: 1, keys: [key(o)] } })],
    ['active permission is missed', (_o, b) => ({ ...b, actives: [] })],
    ['active permission is too many', (_o, b) => ({ ...b, actives: Array.from({ length: 9 }, () => b.actives[0]) })],
    ['owner permission type is error', (_o, b) => ({ ...b, owner: { ...b.owner, type: 2 } })],
    ['active permission type is error', (_o, b) => ({ ...b, actives: [{ ...b.actives[0]!, type: 0, operations: undefined }] })],
    [
      'number of keys in permission should not be greater than 5',
      (_o, b) => ({ ...b, actives: [{ ...b.actives[0]!, keys: Array.from({ length: 6 }, () => key(wallet())) }] }),
    ],
    ["permission's threshold should be greater than 0", (_o, b) => ({ ...b, actives: [{ ...b.actives[0]!, threshold: 0 }] })],
    ["permission's name is too long", (_o, b) => ({ ...b, actives: [{ ...b.actives[0]!, permission_name: 'x'.repeat(33) }] })],
    ["permission's parent should be owner", (_o, b) => ({ ...b, actives: [{ ...b.actives[0]!, parent_id: 2 }] })],
    ['address should be distinct in permission Active', (o, b) => ({ ...b, actives: [{ ...b.actives[0]!, keys: [key(o), key(o)] }] })],
    ["key's weight should be greater than 0", (o, b) => ({ ...b, actives: [{ ...b.actives[0]!, keys: [key(o, 0)] }] })],
    ["Owner permission needn't operations", (_o, b) => ({ ...b, owner: { ...b.owner, operations: OWNER_OPS } })],
    ['operations size must 32', (_o, b) => ({ ...b, actives: [{ ...b.actives[0]!, operations: '0200' }] })],
    ["7 isn't a validate ContractType", (_o, b) => ({ ...b, actives: [{ ...b.actives[0]!, operations: operationsHex([1, 7]) }] })],
  ];
  for (const [text, change] of cases) {
    it(text, async () => {
      const o = owner();
      const body = change(o, base(o));
      expect(await node('accountpermissionupdate', body)).toEqual({ Error: `class org.tron.core.exception.ContractValidateException : ${text}` });
    });
  }
});

describe('the state file', () => {
  it("keeps an account's permissions across a restart (the node still weighs by them)", async () => {
    const owner = wallet(0n, 200_000_000n);
    const [b, c] = [wallet(), wallet()];
    await setActive(owner, [b, c], 2);
    const restored = createMockState({ restore: decodeState(encodeState(mock.state.snapshot())) });
    try {
      const permissions = restored.chain.accounts.get(owner.address)?.permissions;
      expect(permissions?.actives).toEqual([
        expect.objectContaining({
          id: 2,
          permission_name: 'pay',
          threshold: 2,
          keys: [
            { address: b.address, weight: 1 },
            { address: c.address, weight: 1 },
          ],
        }),
      ]);
    } finally {
      restored.dispose();
    }
  });
});

describe("the service's broadcast relays a multi-signature transaction; the chain weighs it", () => {
  it("POST /api/v1/broadcast: two of three land; one of three is BROADCAST_FAILED with the chain's SIGERROR", async () => {
    const owner = wallet(0n, 200_000_000n);
    const [b, c, d] = [wallet(), wallet(), wallet()];
    await setActive(owner, [b, c, d], 2);
    const client = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, maxRetries: 0 });
    const named = withPermissionId(transfer(owner.address, 4_000_000n), 2);
    const one = await signTransactionWith(fromPrivateKey(c.privateKey, { permissionId: 2 }), named);
    await expect(client.transactions.broadcast({ signed_tx: one as never })).rejects.toMatchObject({
      code: 'BROADCAST_FAILED',
      message: expect.stringContaining('sig error'),
    });
    const two = await signTransactionWith(fromPrivateKey(d.privateKey, { permissionId: 2 }), one);
    expect(await client.transactions.broadcast({ signed_tx: two as never })).toMatchObject({ tx_id: named.txID, status: 'pending' });
    expect(mock.state.chain.transactions.get(named.txID)?.trxTransfer?.amountSun).toBe(4_000_000n);
    // A single signature by someone else under permission 0 is still the service's own refusal (not the owner's key).
    const stranger = await signTransactionWith(wallet().privateKey, transfer(owner.address));
    await expect(client.transactions.broadcast({ signed_tx: stranger as never })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});
