import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent, trxToSun } from '../../src/index.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';

/** The treasury can be told to fail withdrawals: PENDING -> FAILED, funds back, books balanced. */
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ clock: 'manual', rateLimits: false });
});
afterAll(() => mock.close());

describe('a failing treasury', () => {
  it('PENDING -> FAILED releases the locked amount; switching it off pays out again', async () => {
    const sdk = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey });
    const before = await sdk.balance.get();
    const res = await fetch(`${mock.url}/__mock/treasury`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fail_withdrawals: true, reason: 'hot wallet empty' }),
    });
    expect(await res.json()).toEqual({ fail_withdrawals: true, reason: 'hot wallet empty' });

    const w = await sdk.withdrawals.create({ address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', amount: trxToSun('60'), currency: 'TRX' });
    expect(w.status).toBe('PENDING');
    expect((await sdk.balance.get()).trx_locked).toBe(trxToSun('60'));
    await mock.state.advance(5_000);
    expect(mock.state.money.withdrawals.get(w.id)).toMatchObject({ status: 'FAILED', failure_reason: 'hot wallet empty' });
    const after = await sdk.balance.get();
    expect(after.trx).toBe(before.trx);
    expect(after.trx_locked).toBe(0);
    expect(mock.state.webhookDeliveries({ event: 'withdrawal.completed' })).toHaveLength(0);

    mock.state.setWithdrawalFailure(null);
    const ok = await sdk.withdrawals.create({ address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', amount: trxToSun('60'), currency: 'TRX' });
    await mock.state.advance(5_000);
    expect(mock.state.money.withdrawals.get(ok.id)?.status).toBe('COMPLETED');
    expect((await sdk.balance.get()).trx).toBe(Number(before.trx) - trxToSun('60'));
    expect(mock.state.checkInvariants()).toEqual({ ok: true, problems: [] });
  });
});
