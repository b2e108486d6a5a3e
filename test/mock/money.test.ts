/** Deposits (every check the spec lists), withdrawals, and the ledger invariant. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { buildTrc20Transfer, buildTrxTransfer, signTransaction, signTransactionId } from '../../src/protocol/tron-transaction.js';
import type { MockServer } from '../../src/mock/index.js';
import { TARGET, USER_ADDRESS, USER_KEY, manualServer, raw } from './helpers.js';

let mock: MockServer;
let sdk: TrxRent;
beforeAll(async () => {
  mock = await manualServer();
  sdk = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, maxRetries: 0 });
});
afterAll(async () => {
  expect(mock.state.checkInvariants().problems).toEqual([]);
  await mock.close();
});

const transfer = (over: { to?: string; amount?: number; memo?: string | undefined; now?: number } = {}) =>
  signTransaction(
    buildTrxTransfer({
      from: USER_ADDRESS,
      to: over.to ?? mock.state.platformAddress,
      amountSun: over.amount ?? 3_000_000,
      ...('memo' in over ? (over.memo === undefined ? {} : { memo: over.memo }) : { memo: mock.memo }),
      now: over.now ?? mock.state.now(),
    }),
    USER_KEY,
  );

async function submit(signed_tx: unknown) {
  return raw(mock.url, 'POST', '/api/v1/deposit/submit', { body: { signed_tx } });
}

function rejected(r: { status: number; json: any }, reason: string, field: string) {
  expect(r.status, JSON.stringify(r.json)).toBe(400);
  expect(r.json.error.code).toBe('VALIDATION_ERROR');
  expect(r.json.error.details).toMatchObject({ field, reason });
}

describe('deposit submit: the checks before broadcast (400 VALIDATION_ERROR)', () => {
  it('a valid signed TRX transfer to the platform with a user memo: pending, credited later', async () => {
    const before = await sdk.balance.get();
    const tx = transfer({ amount: 7_000_000 });
    const r = await submit(tx);
    expect([r.status, r.json]).toEqual([200, { tx_id: tx.txID, status: 'pending' }]);
    await mock.state.advance(mock.state.timings.depositCreditMs - 1);
    expect((await sdk.balance.get()).trx).toBe(before.trx);
    await mock.state.advance(1);
    expect((await sdk.balance.get()).trx).toBe(before.trx + 7_000_000);
    expect(mock.state.money.deposits.get(tx.txID)).toMatchObject({ status: 'credited', from_address: USER_ADDRESS, memo: mock.memo });
  });

  it('txID must be the hash of the raw data; raw_data_hex is optional, as in the spec (txID, raw_data, signature)', async () => {
    const tx = transfer();
    rejected(await submit({ ...tx, txID: 'ab'.repeat(32) }), 'txid_mismatch', 'signed_tx');
    const { raw_data_hex: _, ...noHex } = tx;
    const accepted = await submit(noHex);
    expect(accepted.status, JSON.stringify(accepted.json)).toBe(200);
    expect(accepted.json.tx_id).toBe(tx.txID);
    const { raw_data: _r, ...nothing } = noHex;
    const bare = await submit({ ...nothing, txID: transfer().txID });
    expect([bare.status, bare.json.error.code, bare.json.error.details.field]).toEqual([400, 'VALIDATION_ERROR', 'signed_tx.raw_data']);
  });

  it('the signature must recover to the owner address', async () => {
    const tx = transfer();
    rejected(await submit({ ...tx, signature: [signTransactionId(tx.txID, '2'.repeat(64))] }), 'signer_not_owner', 'signed_tx');
    rejected(await submit({ ...tx, signature: ['00'.repeat(65)] }), 'invalid_signature', 'signed_tx');
  });

  it('must be a TRX transfer to the platform deposit address', async () => {
    const trc20 = signTransaction(
      buildTrc20Transfer({
        from: USER_ADDRESS,
        contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
        to: mock.state.platformAddress,
        amount: 5_000_000n,
        now: mock.state.now(),
      }),
      USER_KEY,
    );
    rejected(await submit(trc20), 'not_trx_transfer', 'signed_tx.raw_data.contract');
    rejected(await submit(transfer({ to: TARGET })), 'wrong_destination', 'signed_tx.raw_data.contract');
  });

  it('the data field must hold a valid memo of a registered user', async () => {
    rejected(await submit(transfer({ memo: undefined })), 'missing_memo', 'signed_tx.raw_data.data');
    rejected(await submit(transfer({ memo: 'hello' })), 'invalid_memo', 'signed_tx.raw_data.data');
    rejected(await submit(transfer({ memo: 'RENT-00000000' })), 'unknown_memo', 'signed_tx.raw_data.data');
    const other = mock.state.createAccount();
    const r = await submit(transfer({ memo: other.memo, amount: 1_000_000 }));
    expect(r.status).toBe(200);
    await mock.state.advance(mock.state.timings.depositCreditMs);
    expect(mock.state.balance(other.account_id).trx).toBe(1_000_000);
  });

  it('at least 1 TRX', async () => {
    const r = await submit(transfer({ amount: 999_999 }));
    rejected(r, 'amount', 'signed_tx.raw_data.contract');
    expect(r.json.error.details.min).toBe(1_000_000);
  });

  it('the network rejects duplicates and expired transactions: 502 BROADCAST_FAILED; nothing is credited', async () => {
    const before = (await sdk.balance.get()).trx;
    const tx = transfer();
    expect((await submit(tx)).status).toBe(200);
    const dup = await submit(tx);
    expect([dup.status, dup.json.error.code, dup.json.error.details.reason]).toEqual([502, 'BROADCAST_FAILED', 'DUP_TRANSACTION_ERROR']);
    const expired = await submit(transfer({ now: mock.state.now() - 61_000 }));
    expect([expired.status, expired.json.error.details.reason]).toEqual([502, 'TRANSACTION_EXPIRATION_ERROR']);
    await mock.state.advance(mock.state.timings.depositCreditMs);
    expect((await sdk.balance.get()).trx).toBe(before + 3_000_000);
  });

  it('/__mock/deposits simulates an on-chain deposit by memo', async () => {
    const acct = mock.state.createAccount();
    const r = await raw(mock.url, 'POST', '/__mock/deposits', { body: { memo: acct.memo, amount_sun: 12_000_000 } });
    expect(r.status).toBe(200);
    expect(r.json.tx_id).toMatch(/^[0-9a-f]{64}$/);
    expect(mock.state.balance(acct.account_id).trx).toBe(0);
    await mock.state.advance(mock.state.timings.depositCreditMs);
    expect(mock.state.balance(acct.account_id).trx).toBe(12_000_000);
    expect((await raw(mock.url, 'POST', '/__mock/deposits', { body: { memo: 'RENT-FFFFFFFF', amount_sun: 1 } })).status).toBe(404);
  });
});

describe('exact integer range (found by the fuzz)', () => {
  it('a pending deposit reserves room: later credits that would overflow are refused at once, never in a task', async () => {
    const acct = mock.state.createAccount({ trx_sun: Number.MAX_SAFE_INTEGER - 10_000_000 });
    const ok = await raw(mock.url, 'POST', '/__mock/deposits', { body: { account_id: acct.account_id, amount_sun: 6_000_000 } });
    expect(ok.status).toBe(200);
    const credit = await raw(mock.url, 'POST', '/__mock/credit', { body: { account_id: acct.account_id, amount_sun: 5_000_000 } });
    expect([credit.status, credit.json.error.code]).toEqual([422, 'VALIDATION_ERROR']);
    const deposit = await raw(mock.url, 'POST', '/__mock/deposits', { body: { account_id: acct.account_id, amount_sun: 5_000_000 } });
    expect([deposit.status, deposit.json.error.details.field]).toEqual([422, 'amount_sun']);
    const signed = await submit(transfer({ memo: acct.memo, amount: 5_000_000 }));
    expect([signed.status, signed.json.error.details.reason]).toEqual([400, 'amount']);
    await mock.state.advance(mock.state.timings.depositCreditMs);
    expect(mock.state.balance(acct.account_id).trx).toBe(Number.MAX_SAFE_INTEGER - 4_000_000);
    expect(mock.state.taskErrors).toEqual([]);
  });
});

describe('withdrawals', () => {
  it('TRX and USDT: PENDING locks, COMPLETED leaves; short balance 400 and nothing moves', async () => {
    const acct = mock.state.createAccount({ trx_sun: 120_000_000, usdt: 60_000_000 });
    const client = new TrxRent({ baseUrl: mock.url, apiKey: acct.api_key, maxRetries: 0 });
    const usdt = await client.withdrawals.create({ address: TARGET, amount: 50_000_000, currency: 'USDT' });
    expect(usdt).toMatchObject({ status: 'PENDING', currency: 'USDT' });
    expect(await client.balance.get()).toMatchObject({ trx: 120_000_000, usdt: 10_000_000, trx_locked: 0 });
    const trx = await client.withdrawals.create({ address: TARGET, amount: 100_000_000, currency: 'TRX' });
    expect(await client.balance.get()).toMatchObject({ trx: 20_000_000, trx_locked: 100_000_000 });
    const short = await raw(mock.url, 'POST', '/api/v1/withdraw', { key: acct.api_key, body: { address: TARGET, amount: 50_000_000, currency: 'TRX' } });
    expect([short.status, short.json.error.code]).toEqual([400, 'INSUFFICIENT_BALANCE']);
    expect(short.json.error.details).toMatchObject({ required_sun: 50_000_000, available_sun: 20_000_000 });
    await mock.state.advance(mock.state.timings.withdrawalMs);
    expect(mock.state.money.withdrawals.get(usdt.id)!.status).toBe('COMPLETED');
    expect(mock.state.money.withdrawals.get(trx.id)!.tx_id).toMatch(/^[0-9a-f]{64}$/);
    expect(await client.balance.get()).toMatchObject({ trx: 20_000_000, usdt: 10_000_000, trx_locked: 0 });
    const pots = mock.state.getAccount(acct.account_id)!.ledger.pots;
    expect(pots.TRX).toMatchObject({ credited: 120_000_000, withdrawn: 100_000_000 });
    expect(pots.USDT).toMatchObject({ credited: 60_000_000, withdrawn: 50_000_000 });
  });

  it('balances never go negative and what was credited equals what is held, locked, spent and withdrawn', async () => {
    const acct = mock.state.createAccount({ trx_sun: 200_000_000 });
    const client = new TrxRent({ baseUrl: mock.url, apiKey: acct.api_key, maxRetries: 0 });
    const order = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET } as const;
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await raw(mock.url, 'POST', i % 3 === 2 ? '/api/v1/withdraw' : '/api/v1/orders', {
        key: acct.api_key,
        body: i % 3 === 2 ? { address: TARGET, amount: 50_000_000, currency: 'TRX' } : order,
      });
      statuses.push(r.status);
      if (i % 4 === 0) await mock.state.advance(700);
      const b = await client.balance.get();
      expect(b.trx).toBeGreaterThanOrEqual(0);
      expect(b.trx_locked).toBeGreaterThanOrEqual(0);
      expect(mock.state.checkInvariants().problems).toEqual([]);
    }
    expect(statuses).toContain(400); // the money ran out at some point
    await mock.state.advance(10_000);
    const p = mock.state.getAccount(acct.account_id)!.ledger.pots.TRX;
    expect(p.credited).toBe(p.available + p.locked + p.spent + p.withdrawn);
    expect(p.locked).toBe(0);
    const b = await client.balance.get();
    const history = await client.history.list();
    expect(b.trx).toBe(200_000_000 - history.reduce((s, f) => s + f.cost_sun, 0) - p.withdrawn);
  });
});
