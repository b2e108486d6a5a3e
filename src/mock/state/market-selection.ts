/**
 * Provider selection, the one rule every path goes through (preview, order execution, BROADCAST
 * splits, prices/best, LIMIT re-checks): which providers of a poll can serve a query, the
 * cheapest first, and how a BROADCAST order is split among them. Pure functions of a snapshot.
 * @module
 */
import type { ResourceType } from '../../schemas/common.js';
import type { MarketSnapshot, PricePointOut, ProviderSnapshot } from './market-pricing.js';

/** What a preview or an order asks of the market: resource, amount, duration, price cap. */
export interface SelectionQuery {
  resource: ResourceType;
  /** Units wanted; when omitted, minimums and availability are not checked (only availability > 0). */
  amount?: number;
  duration_sec: number;
  max_price_sun?: number | null;
  /** Providers to leave out (already tried). */
  exclude?: ReadonlySet<string>;
}

/** A provider that can serve a query, with its unit price and the cost of the whole amount. */
export interface Candidate {
  provider: string;
  displayName: string;
  /** SUN per unit at the matched tier. */
  price_sun: number;
  /** The matched tier: the shortest one at least as long as the requested duration. */
  duration_sec: number;
  available: number;
  min_amount: number;
  /** amount x price_sun (0 when no amount was given). */
  cost_sun: number;
}

/** The market's answer to a query: the best candidate, fallbacks, or why there is none. */
export interface Selection {
  best: Candidate | null;
  /** The other matching providers, cheapest first. */
  fallbacks: Candidate[];
  no_providers: boolean;
  /** Providers that could fill but cost more than max_price_sun, cheapest first. */
  over_price: Candidate[];
  /** Why nothing matched, when best is null. */
  reason?: 'below_minimum' | 'no_capacity' | 'price_exceeded';
  /** With reason below_minimum: the smallest amount any provider accepts. */
  min_amount?: number;
}

/** One provider's share of an order's execution plan. */
export interface PlanItem {
  provider: string;
  displayName: string;
  amount: number;
  price_sun: number;
  duration_sec: number;
  cost_sun: number;
}

/**
 * The selection rule: among online providers offering the resource, each quotes its
 * shortest tier at least as long as the duration; a provider qualifies when the amount is
 * within its minimum and availability. Cheapest first (ties by name); max_price_sun moves
 * the dearer ones to `over_price`.
 */
export function selectProviders(query: SelectionQuery, snapshot: MarketSnapshot): Selection {
  const candidates: Candidate[] = [];
  let offering = 0;
  let belowAll = true;
  let smallestMin = Infinity;
  for (const p of snapshot.providers) {
    const offer = query.resource === 'ENERGY' ? p.def.energy : p.def.bandwidth;
    if (!offer) continue;
    offering++;
    smallestMin = Math.min(smallestMin, offer.min);
    if (query.amount === undefined || query.amount >= offer.min) belowAll = false;
    const tier = fitFor(p, query);
    if (!tier) continue;
    const available = availableOf(p, query.resource);
    candidates.push({
      provider: p.def.id,
      displayName: p.def.displayName,
      price_sun: tier.price_sun,
      duration_sec: tier.duration_sec,
      available,
      min_amount: offer.min,
      cost_sun: (query.amount ?? 0) * tier.price_sun,
    });
  }
  candidates.sort((a, b) => a.price_sun - b.price_sun || (a.provider < b.provider ? -1 : 1));
  const cap = query.max_price_sun;
  const eligible = cap == null ? candidates : candidates.filter((c) => c.price_sun <= cap);
  const over_price = cap == null ? [] : candidates.filter((c) => c.price_sun > cap);
  const selection: Selection = {
    best: eligible[0] ?? null,
    fallbacks: eligible.slice(1),
    no_providers: eligible.length === 0,
    over_price,
  };
  if (!selection.best) {
    if (over_price.length) selection.reason = 'price_exceeded';
    else if (offering > 0 && belowAll) {
      selection.reason = 'below_minimum';
      selection.min_amount = smallestMin;
    } else selection.reason = 'no_capacity';
  }
  return selection;
}

/**
 * `selectProviders(query, snapshot).best` without building the rest of the selection (every MARKET order asks
 * twice: when placed and when executed; the full selection allocated a candidate per provider
 * and sorted them). The same rule: online, offering, tier, minimum and availability, cheapest
 * first with ties by name, nothing above max_price_sun. Null when selection would have no best.
 */
export function cheapestProvider(query: SelectionQuery, snapshot: MarketSnapshot): Candidate | null {
  let best: ProviderSnapshot | undefined;
  let bestTier: PricePointOut | undefined;
  let bestAvailable = 0;
  let bestMin = 0;
  const cap = query.max_price_sun;
  for (const p of snapshot.providers) {
    const tier = fitFor(p, query);
    if (!tier) continue;
    if (cap != null && tier.price_sun > cap) continue;
    if (best && bestTier && (tier.price_sun > bestTier.price_sun || (tier.price_sun === bestTier.price_sun && p.def.id > best.def.id))) continue;
    best = p;
    bestTier = tier;
    bestAvailable = availableOf(p, query.resource);
    bestMin = (query.resource === 'ENERGY' ? p.def.energy : p.def.bandwidth)!.min;
  }
  if (!best || !bestTier) return null;
  return {
    provider: best.def.id,
    displayName: best.def.displayName,
    price_sun: bestTier.price_sun,
    duration_sec: bestTier.duration_sec,
    available: bestAvailable,
    min_amount: bestMin,
    cost_sun: (query.amount ?? 0) * bestTier.price_sun,
  };
}

/**
 * BROADCAST: the amount split in equal shares (remainder to the cheapest) across up to three
 * of the cheapest qualifying providers, each share within that provider's minimum and
 * availability. Falls back to fewer providers when shares would be too small.
 */
export function planBroadcast(query: SelectionQuery & { amount: number }, snapshot: MarketSnapshot, maxProviders = 3): PlanItem[] | null {
  const wide = selectProviders({ ...query, amount: undefined }, snapshot);
  const pool = wide.best ? [wide.best, ...wide.fallbacks] : [];
  for (let n = Math.min(maxProviders, pool.length); n >= 1; n--) {
    const share = Math.floor(query.amount / n);
    const first = share + (query.amount - share * n);
    const picked: PlanItem[] = [];
    for (const c of pool) {
      const amount = picked.length === 0 ? first : share;
      if (amount < c.min_amount || amount > c.available) continue;
      picked.push(planItem(c, amount));
      if (picked.length === n) break;
    }
    if (picked.length === n) return picked;
  }
  return null;
}

/** A candidate's share of a plan: `amount` units at its price. */
export function planItem(c: Candidate, amount: number): PlanItem {
  return {
    provider: c.provider,
    displayName: c.displayName,
    amount,
    price_sun: c.price_sun,
    duration_sec: c.duration_sec,
    cost_sun: amount * c.price_sun,
  };
}

/**
 * The tier at which a provider can take a query, or undefined: online, offering the resource,
 * not excluded, a tier at least as long as asked, the amount within its minimum and
 * availability. The one rule `selectProviders` and `cheapestProvider` share. It returns the
 * tier alone (callers read the offer and the supply from the provider): every order asks it of
 * every provider twice, and an object per answer was garbage each time.
 */
function fitFor(p: ProviderSnapshot, query: SelectionQuery): PricePointOut | undefined {
  const energy = query.resource === 'ENERGY';
  const offer = energy ? p.def.energy : p.def.bandwidth;
  if (!offer || !p.online || query.exclude?.has(p.def.id)) return undefined;
  const points = energy ? p.energy_prices : p.bandwidth_prices;
  let tier: PricePointOut | undefined;
  for (const t of points) {
    if (t.duration_sec >= query.duration_sec) {
      tier = t;
      break;
    }
  }
  if (!tier) return undefined;
  const available = energy ? p.available_energy : p.available_bandwidth;
  if (query.amount !== undefined && (query.amount < offer.min || query.amount > available)) return undefined;
  if (available <= 0) return undefined;
  return tier;
}

/** What the provider has left of the resource in this poll. */
function availableOf(p: ProviderSnapshot, resource: ResourceType): number {
  return resource === 'ENERGY' ? p.available_energy : p.available_bandwidth;
}

/** What a plan costs in all (SUN). */
export function planCost(plan: readonly PlanItem[]): number {
  return plan.reduce((sum, item) => sum + item.cost_sun, 0);
}
