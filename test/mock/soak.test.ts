/**
 * Under soak: 100k keyed POST /orders through the pipeline in-process (no sockets), every one
 * placed and answered with its own order, retention holding what is kept (orders, keys, chain
 * transactions, scheduled work) and the books balancing. Nothing here is timed: whether time per
 * request stays flat (last 10k against the first 10k) is the bench's `mock-soak` section
 * (`npm run bench`), where a loaded machine cannot fail a test.
 */
import { describe, expect, it } from 'vitest';
import { ALL_ROUTES, PROVIDERS, createManualClock, createMockState, createPipeline, type HeaderReader } from '../../src/mock/index.js';
import { T0, TARGET } from './helpers.js';

const TOTAL = 100_000;
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
  it(`${TOTAL / 1000}k keyed POST /orders: each placed once, retention holds, the books balance`, async () => {
    const state = createMockState({ clock: createManualClock(T0), seed: 7, retain: RETAIN, market: { offlineRate: 0 } });
    try {
      for (const p of PROVIDERS) state.setProviderOverride(p.id, { online: true, available_energy: 1_000_000_000_000 });
      const acct = state.createAccount({ trx_sun: 4_000_000_000_000_000 });
      const pipeline = createPipeline(state, ALL_ROUTES, { rateLimits: false });
      const body = JSON.stringify({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 300, target_address: TARGET });
      let created = 0;
      const ids = new Set<string>();
      let firstId = '';
      let lastId = '';
      for (let i = 0; i < TOTAL; i++) {
        const res = await pipeline.handle({
          method: 'POST',
          path: '/api/v1/orders',
          query: '',
          headers: new Plain({ 'x-api-key': acct.api_key, 'content-type': 'application/json', 'idempotency-key': `soak-${i}` }),
          body,
          ip: '127.0.0.1',
          origin: 'http://mock.test',
        });
        if (res?.status === 201) {
          created++;
          lastId = (JSON.parse(res.body) as { id: string }).id;
          firstId ||= lastId;
          ids.add(lastId);
        }
        // 20 ms of mock time per request: orders select, fill, verify and their rentals end as the run goes.
        state.clock.advance(20);
      }
      expect(created).toBe(TOTAL);
      // Every key placed its own order: no answer was another request's.
      expect(ids.size).toBe(TOTAL);
      // Retention: at most RETAIN orders (plus the few still open), keys and chain transactions too.
      expect(state.orders.size).toBeLessThanOrEqual(RETAIN + 100);
      expect(state.idempotency.size).toBeLessThanOrEqual(RETAIN);
      expect(state.chain.transactions.size).toBeLessThanOrEqual(RETAIN);
      expect(state.scheduler.size).toBeLessThan(1_000);
      // The newest order is still there; the oldest is forgotten; the books still balance.
      const orders = state.orders.all(acct.account_id);
      expect(orders.length).toBeLessThanOrEqual(RETAIN + 100);
      expect(state.orders.get(acct.account_id, lastId)?.id).toBe(lastId);
      expect(state.orders.get(acct.account_id, firstId)).toBeUndefined();
      expect(state.checkInvariants().problems).toEqual([]);
    } finally {
      state.dispose();
    }
  }, 180_000); // a bound on a hang, not a speed check: a loaded machine takes its time
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
