/**
 * send_batch_plan and send_batch through the SDK's own MCP client, against the mock over real
 * HTTP: the plan spends nothing; the batch is read-only without --allow-spend, refused over the
 * caps or when declined (nothing ordered or sent), and with approval pays every row once with
 * one confirmation naming the whole batch's cost; the same call again resumes and pays nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { paid, payouts } from '../workflows/payouts-helpers.js';
import { KEYS, type Connected, call, type connect, errorOf, ok, accept, decline, session as sessionOn } from './helpers.js';

let mock: MockServer;
const WALLET = privateKeyToTronAddress(KEYS.tron);
beforeAll(async () => {
  mock = await startMockServer({ rateLimits: false, seed: 3233, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
  const chain = mock.state.chain;
  chain.syntheticTransfer({ token: chain.token('USDT')!, to: WALLET, amount: 10_000_000_000n, label: 'mcp wallet' });
  chain.fundTrx(WALLET, 100_000_000n);
});
afterAll(() => mock.close());

const session = <T>(options: Parameters<typeof connect>[1], run: (c: Connected) => Promise<T>, elicit?: Parameters<typeof connect>[2]) =>
  sessionOn(mock, options, run, elicit);
const orders = () => mock.state.orders.all(mock.state.demo.account_id).length;

describe('send_batch_plan and send_batch', { timeout: 60_000 }, () => {
  test('the plan: one rental for the rows, against burning; nothing ordered or sent', async () => {
    const rows = payouts(mock, 12, 'mcp-plan');
    const before = orders();
    await session({}, async ({ client }) => {
      const plan = ok<{ rows: number; orders: unknown[]; rent_cost_sun: number; burn_cost_sun: number; energy: { needed: number } }>(
        await call(client, 'send_batch_plan', { payouts: rows }, 30_000),
      );
      expect(plan.rows).toBe(12);
      expect(plan.orders.length).toBe(2); // energy and bandwidth, one order each
      expect(plan.energy.needed).toBeGreaterThan(12 * 60_000);
      expect(plan.rent_cost_sun).toBeLessThan(plan.burn_cost_sun);
    });
    expect(orders()).toBe(before);
    expect(paid(mock, WALLET).size).toBe(0);
  });

  test('read-only, over the token cap, or declined: refused, nothing ordered or sent', async () => {
    const rows = payouts(mock, 3, 'mcp-refused');
    const before = orders();
    await session({}, async ({ client }) => {
      expect(errorOf(await call(client, 'send_batch', { payouts: rows })).code).toBe('READ_ONLY');
    });
    await session(
      { allowSpend: true, limits: { maxWithdrawal: '1' } },
      async ({ client }) => {
        expect(errorOf(await call(client, 'send_batch', { payouts: rows }, 30_000)).code).toBe('SPEND_LIMIT');
      },
      accept,
    );
    await session(
      { allowSpend: true, limits: { maxWithdrawal: '1000' } },
      async ({ client }) => {
        expect(errorOf(await call(client, 'send_batch', { payouts: rows }, 30_000)).code).toBe('DECLINED');
      },
      decline,
    );
    expect(orders()).toBe(before);
    expect(paid(mock, WALLET).size).toBe(0);
  });

  test('approved once with the whole cost: every row paid once; the same call again pays nothing', async () => {
    const rows = payouts(mock, 6, 'mcp-send');
    // The reservation is the rental plus the most the rows could burn: above the default 50 TRX per call.
    await session(
      { allowSpend: true, limits: { maxWithdrawal: '1000', maxOrderTrx: '150', sessionLimit: '500' } },
      async ({ client, asked }) => {
        const report = ok<{ confirmed: number; complete: boolean }>(await call(client, 'send_batch', { payouts: rows }, 50_000));
        expect(report).toMatchObject({ confirmed: 6, complete: true });
        expect(asked).toHaveLength(1);
        expect(asked[0]).toMatch(
          /Pay 6 rows, 21\.000021 USDT in all, from T\w+: renting \d+ energy in \d order\(s\) for [\d.]+ TRX, at most [\d.]+ TRX with what the rows could burn \(burning instead: [\d.]+ TRX/,
        );
        const again = ok<{ confirmed: number }>(await call(client, 'send_batch', { payouts: rows }, 50_000));
        expect(again.confirmed).toBe(6);
      },
      accept,
    );
    const chain = paid(mock, WALLET);
    for (const r of rows) expect(chain.get(r.to)?.count, r.id).toBe(1);
  });
});
