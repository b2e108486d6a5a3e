/**
 * The market's fast paths against the full computation. `Market.cheapest` is the order engine's fast path for `select(query).best`: over many seeds,
 * polls, overrides (offline, price ties, exhausted supply) and queries, both name the same
 * candidate (or none).
 */
import { describe, expect, it } from 'vitest';
import { Market } from '../../src/mock/state/market.js';
import { PROVIDERS } from '../../src/mock/state/market-providers.js';
import type { SelectionQuery } from '../../src/mock/state/market-selection.js';
import { createRng } from '../../src/mock/state/rng.js';

const DURATIONS = [300, 301, 3_600, 3_601, 86_400, 3 * 86_400, 14 * 86_400, 30 * 86_400];
const AMOUNTS = [undefined, 500, 1_000, 5_000, 65_000, 100_000, 5_000_000, 60_000_000];

describe('Market.cheapest', () => {
  it('agrees with select().best on every query tried', () => {
    const rng = createRng(9);
    let compared = 0;
    let found = 0;
    for (let seed = 1; seed <= 12; seed++) {
      let now = 1_700_000_000_000 + seed * 7_777_777;
      const market = new Market(seed, () => now, { offlineRate: 0.3 });
      for (let round = 0; round < 6; round++) {
        now += 61_000 * (1 + Math.floor(rng.next() * 5));
        const p = PROVIDERS[Math.floor(rng.next() * PROVIDERS.length)]!;
        const roll = rng.next();
        if (roll < 0.25) market.setOverride(p.id, { online: rng.next() < 0.5 });
        else if (roll < 0.5) market.setOverride(p.id, { price_factor: 0.5 + rng.next() });
        else if (roll < 0.7) market.setOverride(p.id, { available_energy: Math.floor(rng.next() * 200_000) });
        else if (roll < 0.8) market.setOverride(p.id, null);
        // Equal prices on two providers: the tie goes to the name that sorts first.
        if (round === 3) for (const q of PROVIDERS) market.setOverride(q.id, { price_factor: 0 });
        for (const resource of ['ENERGY', 'BANDWIDTH'] as const) {
          for (const duration_sec of DURATIONS) {
            for (const amount of AMOUNTS) {
              for (const cap of [undefined, null, 0, 45, 60, 400]) {
                const exclude = rng.next() < 0.3 ? new Set([PROVIDERS[Math.floor(rng.next() * PROVIDERS.length)]!.id]) : undefined;
                const query: SelectionQuery = { resource, amount, duration_sec, max_price_sun: cap, ...(exclude ? { exclude } : {}) };
                const best = market.select(query).best;
                expect(market.cheapest(query), JSON.stringify({ seed, round, query: { ...query, exclude: exclude && [...exclude] } })).toEqual(best);
                compared++;
                if (best) found++;
              }
            }
          }
        }
        if (round === 3) for (const q of PROVIDERS) market.setOverride(q.id, null);
      }
    }
    expect(compared).toBeGreaterThan(10_000);
    expect(found).toBeGreaterThan(compared / 10); // not a comparison of nulls
  });

  it('after delegations, the snapshot (only the consumed provider redone) equals a full rebuild', () => {
    const rng = createRng(3);
    let now = 1_700_000_000_000;
    const market = new Market(5, () => now, { offlineRate: 0 });
    let checked = 0;
    for (let step = 0; step < 400; step++) {
      if (step % 50 === 49) now += 61_000; // a new poll resets what was consumed
      const p = PROVIDERS[Math.floor(rng.next() * PROVIDERS.length)]!;
      const resource = p.bandwidth && rng.next() < 0.3 ? 'BANDWIDTH' : 'ENERGY';
      market.consume(p.id, resource, Math.floor(rng.next() * 4_000_000));
      const incremental = structuredClone(market.snapshot());
      market.setOverride(p.id, {}); // changes nothing but forces every provider to be recomputed
      expect(market.snapshot()).toEqual(incremental);
      checked++;
    }
    expect(checked).toBe(400);
  });
});
