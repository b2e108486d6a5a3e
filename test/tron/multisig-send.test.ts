/**
 * `client.transfers.send` from a multi-signature account against the mock, whose node weighs
 * signatures as java-tron does: a 2-of-3 active permission ("pay", id 2) set with an
 * AccountPermissionUpdate, two of its keys signing in this process (`from`, `signers`,
 * `permissionId`). The judge is the mock's chain (the transfer landed once, naming permission 2,
 * signed by the two keys, its txID the one the SDK reported) and its order log (a refused signer
 * set places no order). Also the builder: the permission id is in the raw data before the txID.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent, TrxRentError } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { fromPrivateKey, withPermissionId } from '../../src/protocol/signers/index.js';
import { operationsHex } from '../../src/protocol/tron-permissions.js';
import { buildTrc20Transfer, decodeRawDataHex, recoverTransactionSigner } from '../../src/protocol/tron-transaction.js';
import { transferOnce } from '../../src/tron/transfer.js';
import { systemClock } from '../../src/utils/clock.js';
import { memoryTransferStore } from '../../src/tron/transfer-store.js';
import { account, ordersOf } from '../workflows/payouts-helpers.js';
import { twoOfThree } from '../helpers/multisig.js';
import { fundedWalletMaker } from '../helpers/wallets.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 47, rateLimits: false, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
});
afterAll(async () => {
  await mock.close();
});

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const wallet = fundedWalletMaker(() => mock, 0x70);
const client = (apiKey: string) => new TrxRent({ baseUrl: mock.url, apiKey, tronNode: mock.url, maxRetries: 2 });

describe('the builder names the permission before the txID', () => {
  it('buildTrc20Transfer({ permissionId: 2 }) is what withPermissionId makes of the unnamed one: the same raw data, the same txID', () => {
    const from = wallet().address;
    const params = { from, contract: USDT, to: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW', amount: 5n, now: 1_700_000_000_000 };
    const named = buildTrc20Transfer({ ...params, permissionId: 2 });
    const later = withPermissionId(buildTrc20Transfer(params), 2);
    expect(named.raw_data_hex).toBe(later.raw_data_hex);
    expect(named.txID).toBe(later.txID);
    expect(named.txID).not.toBe(buildTrc20Transfer(params).txID);
    expect(decodeRawDataHex(named.raw_data_hex).permissionId).toBe(2);
    expect((named.raw_data.contract as Array<{ Permission_id?: number }>)[0]!.Permission_id).toBe(2);
    expect(() => buildTrc20Transfer({ ...params, permissionId: 1 })).toThrow(/permissionId/);
  });
});

describe('client.transfers.send from a 2-of-3 account', { timeout: 60_000 }, () => {
  it('two of the three keys sign the one txID in this process; the transfer lands once, naming permission 2, and pays the multi-signature fee', async () => {
    const { owner, b, d } = await twoOfThree(mock, wallet);
    const to = wallet(0n, 1_000_000n).address;
    const acct = account(mock);
    const signed: string[] = [];
    const transferStore = memoryTransferStore();
    const sent = await client(acct.apiKey).transfers.send({
      transferStore,
      token: 'USDT',
      to,
      amount: '12.5',
      from: owner.address,
      signers: [{ privateKey: b.privateKey }, fromPrivateKey(d.privateKey)],
      permissionId: 2,
      idempotencyKey: 'ms-send-1',
      onProgress: (e) => {
        if (e.step === 'signed') signed.push(e.tx_id);
      },
    });
    expect(sent.tx_id).toBe(signed[0]);
    const onChain = [...mock.state.chain.transactions.values()].filter((t) => t.transfer?.from === owner.address && t.transfer.to === to);
    expect(onChain).toHaveLength(1);
    const t = onChain[0]!;
    expect(t.result).toBe('SUCCESS');
    expect(t.txid).toBe(sent.tx_id);
    expect(t.transfer!.amount).toBe(12_500_000n);
    const tx = t.tx as { raw_data_hex: string; signature: string[] };
    expect(decodeRawDataHex(tx.raw_data_hex).permissionId).toBe(2);
    // Each signature over the one txID, by the two keys, in order.
    expect(tx.signature.map((s) => recoverTransactionSigner(t.txid, s))).toEqual([b.address, d.address]);
    // The estimate sized the transaction as sent (the permission id, both signatures): the bandwidth the chain charged.
    expect(sent.estimate?.bandwidth.needed).toBe(t.netUsed);
    // java-tron burns getMultiSignFee for more than one signature.
    expect(t.feeSun).toBeGreaterThanOrEqual(1_000_000);
    // The energy was rented (to the account, which spends it), not burnt.
    expect(ordersOf(mock, acct.accountId).filter((o) => o.target_address === owner.address)).toHaveLength(1);
    expect(t.energyFeeSun ?? 0).toBe(0);

    // The same key again: the stored transaction is landed, never signed anew.
    const again = await client(acct.apiKey).transfers.send({
      token: 'USDT',
      to,
      amount: '12.5',
      from: owner.address,
      signers: [{ privateKey: b.privateKey }, { privateKey: d.privateKey }],
      permissionId: 2,
      idempotencyKey: 'ms-send-1',
      transferStore,
    });
    expect(again.tx_id).toBe(sent.tx_id);
    expect([...mock.state.chain.transactions.values()].filter((x) => x.transfer?.from === owner.address && x.transfer.to === to)).toHaveLength(1);
  });

  it.each([
    ['one signer of a 2-of-3 permission: weight 1 of 2', 'one', /permission 2 \("pay"\) of T\w+: 1 missing/, { missing_weight: 1, weight: 1, threshold: 2 }],
    ['a key that is not in the permission', 'outsider', /is not a key of permission 2 \("pay"\)/, { missing_weight: 1, weight: 1, threshold: 2 }],
    [
      'a permission that does not allow TriggerSmartContract',
      'trx-only',
      /permission 2 \("pay"\) of T\w+ does not allow contract type 31/,
      { missing_weight: 0, operation_allowed: false },
    ],
    ['a permission the account does not have', 'no-such', /has no permission 3/, { permission_id: 3 }],
  ] as const)('refuses %s with PERMISSION_DENIED before any order (the order log is empty) or transfer', async (_name, kind, text, details) => {
    const { owner, b, c } = await twoOfThree(mock, wallet, kind === 'trx-only' ? { operations: operationsHex(['TransferContract']) } : {});
    const outsider = wallet();
    const signers =
      kind === 'one'
        ? [{ privateKey: b.privateKey }]
        : kind === 'outsider'
          ? [{ privateKey: b.privateKey }, { privateKey: outsider.privateKey }]
          : [{ privateKey: b.privateKey }, { privateKey: c.privateKey }];
    const to = wallet(0n, 1_000_000n).address;
    const acct = account(mock);
    const error = await client(acct.apiKey)
      .transfers.send({ token: 'USDT', to, amount: '1', from: owner.address, signers, permissionId: kind === 'no-such' ? 3 : 2 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TrxRentError);
    expect((error as TrxRentError).code, (error as Error).message).toBe('PERMISSION_DENIED');
    expect((error as Error).message).toMatch(text);
    expect((error as Error).message).toMatch(/nothing was ordered or sent/);
    expect((error as TrxRentError).details).toMatchObject({ address: owner.address, transfer_sent: false, ...details });
    expect(ordersOf(mock, acct.accountId)).toEqual([]);
    expect([...mock.state.chain.transactions.values()].filter((t) => t.owner === owner.address && t.contractType === 'TriggerSmartContract')).toEqual([]);
  });

  it('a lone Signer (the one interface, as a KMS key is) sends from its own account under the owner permission, one signature', async () => {
    const me = wallet(50_000_000n, 100_000_000n);
    const to = wallet(0n, 1_000_000n).address;
    const sent = await client(account(mock).apiKey).transfers.send({ token: 'USDT', to, amount: '2', signer: fromPrivateKey(me.privateKey) });
    const t = mock.state.chain.transactions.get(sent.tx_id)!;
    expect(t.transfer).toMatchObject({ from: me.address, to, amount: 2_000_000n });
    const tx = t.tx as { raw_data_hex: string; signature: string[] };
    expect(decodeRawDataHex(tx.raw_data_hex).permissionId).toBeUndefined();
    expect(tx.signature.map((s) => recoverTransactionSigner(t.txid, s))).toEqual([me.address]);
    // The same Signer under its account's default active permission (id 2, its own key, threshold 1).
    const active = await client(account(mock).apiKey).transfers.send({
      token: 'USDT',
      to,
      amount: '1',
      signer: fromPrivateKey(me.privateKey, { permissionId: 2 }),
    });
    const t2 = mock.state.chain.transactions.get(active.tx_id)!;
    expect(t2.transfer).toMatchObject({ from: me.address, to, amount: 1_000_000n });
    expect(decodeRawDataHex((t2.tx as { raw_data_hex: string }).raw_data_hex).permissionId).toBe(2);
  });

  it('signers without from, or one key twice, are refused before anything is read', async () => {
    const { owner, b } = await twoOfThree(mock, wallet);
    const transfers = client(account(mock).apiKey).transfers;
    const send = (p: Parameters<typeof transfers.send>[0]) => transfers.send(p);
    await expect(send({ token: 'USDT', to: owner.address, amount: '1', signers: [{ privateKey: b.privateKey }], permissionId: 2 })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'from' },
    });
    await expect(
      send({ token: 'USDT', to: b.address, amount: '1', from: owner.address, signers: [{ privateKey: b.privateKey }, b.privateKey], permissionId: 2 }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'signers' },
    });
  });
});

describe('the protocol checks every signature against the permission, not the sender', () => {
  it('a signer whose key is not in the permission it signs for: INVALID_TRANSACTION at signing; nothing stored, nothing broadcast', async () => {
    const { owner, b } = await twoOfThree(mock, wallet);
    const outsider = wallet();
    const node = await client(account(mock).apiKey).chain.node();
    const store = memoryTransferStore();
    let broadcasts = 0;
    // The permission as read from the chain, but a signer set that was never checked against it.
    const permission = {
      type: 'Active' as const,
      id: 2,
      permission_name: 'pay',
      threshold: 2,
      parent_id: 0,
      operations: operationsHex([31]),
      keys: [b, wallet()].map((k) => ({ address: k.address, weight: 1 })),
    };
    const deps = {
      node,
      clock: systemClock,
      store,
      broadcast: async () => {
        broadcasts++;
      },
      signer: { from: owner.address, permissionId: 2, signers: [fromPrivateKey(b.privateKey), fromPrivateKey(outsider.privateKey)], permission },
    };
    const intent = { key: 'ms-unchecked', from: owner.address, to: wallet(0n, 1_000_000n).address, contract: USDT, amount_atomic: '1000000' };
    const error = await transferOnce(deps, intent, { fee: { energy: 65_000, energyFeeSun: 100 }, deadline: Date.now() + 10_000 }).catch((e: unknown) => e);
    expect((error as TrxRentError).code).toBe('INVALID_TRANSACTION');
    expect((error as Error).message).toMatch(new RegExp(`recovers to ${outsider.address}, not a key of permission 2 of ${owner.address}`));
    expect(await store.get('ms-unchecked')).toBeUndefined();
    expect(broadcasts).toBe(0);
  });
});
