/**
 * Payouts from a multi-signature account against the mock: a 2-of-3 account (active permission 2)
 * pays 20 rows, each row's one transaction signed by two of the keys in this process (`from`,
 * `signers`, `permissionId`). The judges are the mock's chain (each recipient paid once, every
 * transaction naming permission 2 and signed by those two keys) and its order log (a signer set
 * that cannot reach the threshold places no order and sends nothing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent, TrxRentError } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { decodeRawDataHex, recoverTransactionSigner } from '../../src/protocol/tron-transaction.js';
import { twoOfThree } from '../helpers/multisig.js';
import { fundedWalletMaker } from '../helpers/wallets.js';
import { account, ordersOf, paid, payouts } from './payouts-helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 48, rateLimits: false, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
});
afterAll(async () => {
  await mock.close();
});

const wallet = fundedWalletMaker(() => mock, 0x90);
const client = (apiKey: string) => new TrxRent({ baseUrl: mock.url, apiKey, tronNode: mock.url, maxRetries: 2 });

describe('payouts from a 2-of-3 account', { timeout: 90_000 }, () => {
  it('20 rows, each signed by two signers of permission 2, are paid once each with one energy order', async () => {
    const { owner, c, d } = await twoOfThree(mock, wallet);
    const rows = payouts(mock, 20, 'ms');
    const acct = account(mock);
    let bandwidthPlanned = 0;
    const report = await client(acct.apiKey).transfers.sendMany(rows, {
      from: owner.address,
      signers: [{ privateKey: c.privateKey }, { privateKey: d.privateKey }],
      permissionId: 2,
      confirm: (plan) => {
        bandwidthPlanned = plan.bandwidth.needed;
        return true;
      },
    });
    expect(report.from).toBe(owner.address);
    expect(report.confirmed).toBe(20);
    const chain = paid(mock, owner.address);
    for (const r of rows) expect(chain.get(r.to)?.count, r.id).toBe(1);
    const sent = [...mock.state.chain.transactions.values()].filter((t) => t.transfer?.from === owner.address);
    expect(sent).toHaveLength(20);
    for (const t of sent) {
      const tx = t.tx as { raw_data_hex: string; signature: string[] };
      expect(decodeRawDataHex(tx.raw_data_hex).permissionId).toBe(2);
      expect(tx.signature.map((s) => recoverTransactionSigner(t.txid, s))).toEqual([c.address, d.address]);
    }
    // The plan sized each row as sent (permission id, two signatures): the bandwidth the chain charged.
    expect(bandwidthPlanned).toBe(sent.reduce((sum, t) => sum + t.netUsed, 0));
    // Two signatures a row: each burnt the chain's 1 TRX multi-signature fee.
    for (const t of sent) expect(t.feeSun).toBeGreaterThanOrEqual(1_000_000);
    // The report's tx ids are the chain's: the txID did not change as the signatures were added.
    expect(new Set(report.rows.map((r) => r.tx_id))).toEqual(new Set(sent.map((t) => t.txid)));
    expect(ordersOf(mock, acct.accountId).filter((o) => o.resource_type === 'ENERGY' && o.target_address === owner.address)).toHaveLength(1);
  });

  it('a signer set short of the threshold is refused (PERMISSION_DENIED, naming the permission and the missing weight) before any order: the order log is empty', async () => {
    const { owner, b } = await twoOfThree(mock, wallet);
    const outsider = wallet();
    const rows = payouts(mock, 3, 'ms-denied');
    const acct = account(mock);
    for (const signers of [[{ privateKey: b.privateKey }], [{ privateKey: b.privateKey }, { privateKey: outsider.privateKey }]]) {
      const error = await client(acct.apiKey)
        .transfers.sendMany(rows, { from: owner.address, signers, permissionId: 2 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TrxRentError);
      expect((error as TrxRentError).code).toBe('PERMISSION_DENIED');
      expect((error as Error).message).toMatch(/permission 2 \("pay"\) of T\w+/);
      expect((error as Error).message).toMatch(/1 missing/);
      expect((error as TrxRentError).details).toMatchObject({ permission_id: 2, permission_name: 'pay', missing_weight: 1, threshold: 2 });
    }
    expect(ordersOf(mock, acct.accountId)).toEqual([]);
    expect(paid(mock, owner.address).size).toBe(0);
  });
});
