/**
 * What the price endpoints report beyond GET /prices, read from a market snapshot and the seeded
 * price model: the best price now (`getBestPrice`), the price history (`getPriceHistory`, past
 * polls recomputed from the seed) and the market statistics (`getPriceStats`).
 * @module
 */
import type { PriceEntry } from '../../schemas/prices.js';
import type { ResourceType } from '../../schemas/common.js';
import { MARKET_RULES, PROVIDERS } from './market-providers.js';
import type { MarketSnapshot, PriceModel } from './market-pricing.js';
import { selectProviders } from './market-selection.js';

/** `getBestPrice`: the cheapest online provider at the 1-hour tier. */
export function bestPrice(snapshot: MarketSnapshot, resource: ResourceType, amount?: number): PriceEntry | null {
  const selection = selectProviders({ resource, amount, duration_sec: MARKET_RULES.REFERENCE_DURATION_SEC }, snapshot);
  if (!selection.best) return null;
  return {
    provider: selection.best.provider,
    resource_type: resource,
    price_sun: selection.best.price_sun,
    available: selection.best.available,
    is_online: true,
    polled_at: new Date(snapshot.polled_at).toISOString(),
  };
}

/**
 * `getPriceHistory`: 1-hour-tier prices per poll over the period, newest first, at most
 * 60 points per provider and resource (evenly spaced polls when the period has more).
 * Past polls are recomputed from the seed (overrides apply to the current poll only).
 */
export function priceHistory(model: PriceModel, current: MarketSnapshot, query: { provider?: string; resource?: ResourceType; period?: string }): PriceEntry[] {
  const periodMs = PERIOD_MS[query.period ?? '24h'] ?? PERIOD_MS['24h']!;
  const polls = Math.max(1, Math.floor(periodMs / MARKET_RULES.POLL_INTERVAL_MS));
  const step = Math.max(1, Math.ceil(polls / 60));
  const out: PriceEntry[] = [];
  for (let k = 0; k < polls; k += step) {
    const poll = current.poll - k;
    const providers = k === 0 ? current.providers : PROVIDERS.map((def, index) => model.providerAt(def, index, poll));
    for (const p of providers) {
      if (query.provider && p.def.id !== query.provider) continue;
      for (const resource of ['ENERGY', 'BANDWIDTH'] as const) {
        if (query.resource && query.resource !== resource) continue;
        const points = resource === 'ENERGY' ? p.energy_prices : p.bandwidth_prices;
        const ref = points.find((t) => t.duration_sec >= MARKET_RULES.REFERENCE_DURATION_SEC);
        if (!ref) continue;
        out.push({
          provider: p.def.id,
          resource_type: resource,
          price_sun: ref.price_sun,
          available: resource === 'ENERGY' ? p.available_energy : p.available_bandwidth,
          is_online: p.online,
          polled_at: new Date(poll * MARKET_RULES.POLL_INTERVAL_MS).toISOString(),
        });
      }
    }
  }
  return out;
}

/** `getPriceStats`: energy at the 1-hour tier across online providers; exactly the live service's four fields (production notes). */
export function priceStats(
  model: PriceModel,
  current: MarketSnapshot,
): { best_price_sun: number; avg_price_sun: number; total_providers: number; cheapest_changes_24h: number } {
  const prices = current.providers
    .filter((p) => p.online)
    .map((p) => p.energy_prices.find((t) => t.duration_sec >= MARKET_RULES.REFERENCE_DURATION_SEC)?.price_sun)
    .filter((v): v is number => v !== undefined);
  const best = prices.length ? Math.min(...prices) : 0;
  const avg = prices.length ? Math.round((prices.reduce((a, b) => a + b, 0) / prices.length) * 100) / 100 : 0;
  return {
    best_price_sun: best,
    avg_price_sun: avg,
    total_providers: PROVIDERS.length,
    cheapest_changes_24h: model.cheapestChanges(current.poll),
  };
}

const PERIOD_MS: Record<string, number> = {
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};
