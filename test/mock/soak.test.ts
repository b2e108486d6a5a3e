/**
 * Flat under soak: 100k keyed POST /orders through the pipeline in-process (no sockets). Time per
 * request stays constant (the last 10k against the first 10k, as a ratio with generous slack) and
 * retention holds what is kept. Speed itself is measured in `npm run bench`; this only guards the
 * shape (an O(n) step per request shows up as a ratio far above 2 long before 100k).
 */
import { describe, expect, it } from 'vitest';
import { ALL_ROUTES, PROVIDERS, createManualClock, createMockState, createPipeline, type HeaderReader } from '../../src/mock/index.js';
import { T0, TARGET } from './helpers.js';

const TOTAL = 100_000;
const WINDOW = 10_000;
const RETAIN = 2_000;

class Plain implements HeaderReader {
  constructor(private readonly map: Record<string, string>) {}
  get(name: string): string | null {
    return this.map[name.toLowerCase()] ?? null;
  }
  has(name: string): boolean {
    return name.toLowerCase() in this.map;
  }
}

describe('soak (in-process)', () => {
  it(`${TOTAL / 1000}k keyed POST /orders: constant time per request, retention holds`, async () => {
    const state = createMockState({ clock: createManualClock(T0), seed: 7, retain: RETAIN, market: { offlineRate: 0 } });
    try {
      for (const p of PROVIDERS) state.setProviderOverride(p.id, { online: true, available_energy: 1_000_000_000_000 });
      const acct = state.createAccount({ trx_sun: 4_000_000_000_000_000 });
      const pipeline = createPipeline(state, ALL_ROUTES, { rateLimits: false });
      const body = JSON.stringify({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 300, target_address: TARGET });
      const times: number[] = [];
      let created = 0;
      for (let i = 0; i < TOTAL; i++) {
        const started = performance.now();
        const res = await pipeline.handle({
          method: 'POST',
          path: '/api/v1/orders',
          query: '',
          headers: new Plain({ 'x-api-key': acct.api_key, 'content-type': 'application/json', 'idempotency-key': `soak-${i}` }),
          body,
          ip: '127.0.0.1',
          origin: 'http://mock.test',
        });
        times.push(performance.now() - started);
        if (res?.status === 201) created++;
        // 20 ms of mock time per request: orders select, fill, verify and their rentals end as the run goes.
        state.clock.advance(20);
      }
      expect(created).toBe(TOTAL);
      const first = times.slice(0, WINDOW).reduce((a, b) => a + b, 0);
      const last = times.slice(-WINDOW).reduce((a, b) => a + b, 0);
      const ratio = last / first;
      console.log(`soak: first 10k ${first.toFixed(0)} ms, last 10k ${last.toFixed(0)} ms, ratio ${ratio.toFixed(2)}`);
      expect(ratio).toBeLessThan(2);
      // Retention: at most RETAIN orders (plus the few still open), keys and chain transactions too.
      expect(state.orders.size).toBeLessThanOrEqual(RETAIN + 100);
      expect(state.idempotency.size).toBeLessThanOrEqual(RETAIN);
      expect(state.chain.transactions.size).toBeLessThanOrEqual(RETAIN);
      expect(state.scheduler.size).toBeLessThan(1_000);
      // The newest order is still there; the oldest is forgotten; the books still balance.
      const orders = state.orders.all(acct.account_id);
      expect(orders.length).toBeLessThanOrEqual(RETAIN + 100);
      expect(state.checkInvariants().problems).toEqual([]);
    } finally {
      state.dispose();
    }
  }, 60_000);
});

describe('retention of money records', () => {
  it('withdrawals and deposits past the limit are forgotten oldest first; the books still balance', async () => {
    const state = createMockState({ clock: createManualClock(T0), seed: 8, retain: 3 });
    try {
      const acct = state.getAccount(state.demo.account_id)!;
      for (let i = 0; i < 8; i++) {
        state.money.withdraw(acct, { address: TARGET, amount: 1_000_000, currency: 'TRX' });
        state.simulateDeposit({ account_id: acct.id, amount_sun: 2_000_000 });
        await state.advance(5_000);
      }
      expect(state.money.withdrawals.size).toBeLessThanOrEqual(3);
      expect(state.money.deposits.size).toBeLessThanOrEqual(3);
      expect(state.balance(acct.id).trx).toBe(1_000_000_000 + 8 * 1_000_000);
      expect(state.checkInvariants().problems).toEqual([]);
    } finally {
      state.dispose();
    }
  });
});
