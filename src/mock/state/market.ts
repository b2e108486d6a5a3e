import type { PriceEntry, ProviderPrice } from '../../schemas/prices.js';
import type { ResourceType } from '../../schemas/common.js';
import { LIMITS } from '../../schemas/common.js';
import { unitHash } from './rng.js';

/**
 * The simulated market: six providers (the names the live service aggregates), each with
 * energy price tiers per duration and, for some, bandwidth tiers, a capacity, and a minimum
 * order. Prices are re-polled every 30 s: at poll n a provider's prices are its base tiers times
 * a drift factor that is a pure function of (seed, provider, n), so the market is deterministic
 * for a seed and a time, whoever looks first. A provider is occasionally offline for a poll.
 *
 * `select` is the one provider-selection function: preview, order execution, BROADCAST splits,
 * prices/best and LIMIT re-checks all go through it.
 */

const MIN = 60;
const HOUR = 3600;
const DAY = 86_400;

interface ResourceOffer {
  /** [duration_sec, base price in SUN per unit for that duration] */
  tiers: ReadonlyArray<readonly [number, number]>;
  /** Smallest order this provider accepts. */
  min: number;
  /** Units it can delegate at most; what is available at a poll varies below this. */
  capacity: number;
}

export interface ProviderDef {
  id: string;
  displayName: string;
  is_market: boolean;
  energy: ResourceOffer;
  bandwidth?: ResourceOffer;
}

/** The six simulated providers with their price tiers per duration, minimums and supply. */
export const PROVIDERS: readonly ProviderDef[] = [
  {
    id: 'tem',
    displayName: 'TEM',
    is_market: true,
    energy: { tiers: [[HOUR, 48], [DAY, 88], [3 * DAY, 200], [7 * DAY, 420], [30 * DAY, 1650]], min: 65_000, capacity: 20_000_000 },
  },
  {
    id: 'tronsave',
    displayName: 'TronSave',
    is_market: true,
    energy: {
      tiers: [[HOUR, 52], [DAY, 92], [3 * DAY, 210], [7 * DAY, 440], [14 * DAY, 840], [30 * DAY, 1700]],
      min: 100_000,
      capacity: 50_000_000,
    },
    bandwidth: { tiers: [[HOUR, 330], [DAY, 600], [3 * DAY, 1500]], min: 5_000, capacity: 2_000_000 },
  },
  {
    id: 'netts',
    displayName: 'Netts',
    is_market: false,
    energy: { tiers: [[5 * MIN, 40], [HOUR, 55], [DAY, 95], [3 * DAY, 220]], min: 65_000, capacity: 15_000_000 },
    bandwidth: { tiers: [[HOUR, 350], [DAY, 640]], min: 1_000, capacity: 1_000_000 },
  },
  {
    id: 'itrx',
    displayName: 'iTRX',
    is_market: false,
    energy: {
      tiers: [[HOUR, 58], [DAY, 90], [3 * DAY, 205], [7 * DAY, 430], [14 * DAY, 830], [30 * DAY, 1680]],
      min: 65_000,
      capacity: 30_000_000,
    },
    bandwidth: { tiers: [[HOUR, 380], [DAY, 620], [7 * DAY, 2800]], min: 1_000, capacity: 1_500_000 },
  },
  {
    id: 'catfee',
    displayName: 'CatFee',
    is_market: false,
    energy: { tiers: [[HOUR, 62], [DAY, 98], [3 * DAY, 230]], min: 65_000, capacity: 10_000_000 },
  },
  {
    id: 'powersun',
    displayName: 'PowerSun',
    is_market: false,
    energy: { tiers: [[HOUR, 66], [DAY, 99], [7 * DAY, 450], [30 * DAY, 1720]], min: 65_000, capacity: 8_000_000 },
  },
];

/** Rules where the spec is silent (documented in the README). */
export const MARKET_RULES = {
  /** Shortest rental accepted: the shortest tier any provider offers (5 minutes). */
  MIN_DURATION_SEC: 5 * MIN,
  /** Longest rental accepted: 30 days. */
  MAX_DURATION_SEC: 30 * DAY,
  /** Smallest bandwidth order: the smallest provider minimum. Below it: BELOW_MINIMUM_ORDER. */
  MIN_BANDWIDTH_AMOUNT: LIMITS.MIN_BANDWIDTH_AMOUNT,
  MIN_ENERGY_AMOUNT: LIMITS.MIN_ENERGY_AMOUNT,
  /** The best price, price history and market statistics (getBestPrice, getPriceHistory, getPriceStats) quote the 1-hour tier. */
  REFERENCE_DURATION_SEC: HOUR,
  POLL_INTERVAL_MS: LIMITS.PRICE_POLL_INTERVAL_MS,
} as const;

/** Options of the simulated market. */
export interface MarketOptions {
  /** Largest drift of a price from its base, as a fraction. Default 0.12 (±12 %). */
  drift?: number;
  /** Chance a provider is offline at a given poll. Default 0.03. */
  offlineRate?: number;
}

/** Test controls for one provider; they apply from now on, over the seeded drift. */
export interface ProviderOverride {
  /** Force online (true) or offline (false). */
  online?: boolean;
  /** Multiply every price by this (e.g. 0.5 to make a LIMIT order fill). */
  price_factor?: number;
  /** Replace the polled availability. */
  available_energy?: number;
  available_bandwidth?: number;
  /** Delegations by this provider fail (drives EXECUTING -> retry -> FAILED). */
  fail_delegations?: boolean;
}

// A type alias (not an interface) so it is assignable to the lenient schema types.
export type PricePointOut = { duration_sec: number; price_sun: number };

/** One provider at the current price poll (what GET /prices is built from). */
export interface ProviderSnapshot {
  def: ProviderDef;
  online: boolean;
  /** Time of the last successful poll (ms). */
  fetched_at: number;
  energy_prices: PricePointOut[];
  bandwidth_prices: PricePointOut[];
  available_energy: number;
  available_bandwidth: number;
  fail_delegations: boolean;
}

/** Every provider at the current price poll, and when it was taken. */
export interface MarketSnapshot {
  poll: number;
  polled_at: number;
  providers: ProviderSnapshot[];
}

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

export class Market {
  readonly #drift: number;
  readonly #offlineRate: number;
  readonly #overrides = new Map<string, ProviderOverride>();
  /** Units delegated during the current poll, per provider:resource; reset by the next poll. */
  #consumed = new Map<string, number>();
  #consumedPoll = -1;
  #version = 0;
  /** Bumped by consume(): only availability changes, so the priced providers are reused. */
  #consumedVersion = 0;
  /** Providers of a poll and override version before this poll's consumption (prices, base availability). */
  #base: { poll: number; version: number; providers: ProviderSnapshot[] } | undefined;
  /** The current snapshot and what it was built from (numbers, so a cache hit allocates nothing). */
  #cache: { poll: number; version: number; consumedVersion: number; snapshot: MarketSnapshot } | undefined;
  #statsCache: { poll: number; changes: number } | undefined;
  #pricesCache: { snapshot: MarketSnapshot; json: string } | undefined;
  /** Called when overrides change, so waiting LIMIT orders are re-checked at once. */
  onChange: (() => void) | undefined;

  constructor(
    readonly seed: number,
    private readonly now: () => number,
    options: MarketOptions = {},
  ) {
    this.#drift = options.drift ?? 0.12;
    this.#offlineRate = options.offlineRate ?? 0.03;
  }

  get providers(): readonly ProviderDef[] {
    return PROVIDERS;
  }

  provider(id: string): ProviderDef | undefined {
    return PROVIDERS.find((p) => p.id === id);
  }

  pollIndex(at = this.now()): number {
    return Math.floor(at / MARKET_RULES.POLL_INTERVAL_MS);
  }

  /** Start of the next poll after `at` (ms). */
  nextPollAt(at = this.now()): number {
    return (this.pollIndex(at) + 1) * MARKET_RULES.POLL_INTERVAL_MS;
  }

  setOverride(id: string, override: ProviderOverride | null): void {
    if (!this.provider(id)) throw new RangeError(`Unknown provider ${id}`);
    if (override === null) this.#overrides.delete(id);
    else this.#overrides.set(id, { ...this.#overrides.get(id), ...override });
    this.#version++;
    this.onChange?.();
  }

  /** Overrides and this poll's consumption, as plain data (see persist.ts). */
  dump() {
    return { overrides: this.#overrides, consumed: this.#consumed, consumed_poll: this.#consumedPoll };
  }

  /** Load a {@link dump}. */
  load(d: ReturnType<Market['dump']>): void {
    this.#overrides.clear();
    for (const [id, o] of d.overrides) this.#overrides.set(id, o);
    this.#consumed = new Map(d.consumed);
    this.#consumedPoll = d.consumed_poll;
    this.#version++;
  }

  getOverride(id: string): ProviderOverride | undefined {
    return this.#overrides.get(id);
  }

  /** The market as of now (cached per poll and change). */
  snapshot(): MarketSnapshot {
    const poll = this.pollIndex();
    if (poll !== this.#consumedPoll) {
      this.#consumed = new Map();
      this.#consumedPoll = poll;
    }
    const cache = this.#cache;
    if (cache && cache.poll === poll && cache.version === this.#version && cache.consumedVersion === this.#consumedVersion) return cache.snapshot;
    // Pricing a poll hashes every provider's drift and tiers; a delegation only lowers what is
    // available, so after one the priced providers are reused and only availability is redone
    // (this was most of an order's cost: every order's consume re-priced the whole market).
    if (this.#base?.poll !== poll || this.#base.version !== this.#version) {
      this.#base = { poll, version: this.#version, providers: PROVIDERS.map((def, index) => this.#providerAt(def, index, poll, true, false)) };
    }
    const providers = this.#consumed.size === 0 ? this.#base.providers : this.#base.providers.map((p) => this.#afterConsumption(p));
    return this.#remember(poll, { poll, polled_at: poll * MARKET_RULES.POLL_INTERVAL_MS, providers });
  }

  #remember(poll: number, snapshot: MarketSnapshot): MarketSnapshot {
    this.#cache = { poll, version: this.#version, consumedVersion: this.#consumedVersion, snapshot };
    return snapshot;
  }

  /** A provider of the poll's base with this poll's delegations taken off its availability. */
  #afterConsumption(p: ProviderSnapshot): ProviderSnapshot {
    const energy = this.#consumed.get(`${p.def.id}:ENERGY`) ?? 0;
    const bandwidth = this.#consumed.get(`${p.def.id}:BANDWIDTH`) ?? 0;
    if (energy === 0 && bandwidth === 0) return p;
    return { ...p, available_energy: Math.max(0, p.available_energy - energy), available_bandwidth: Math.max(0, p.available_bandwidth - bandwidth) };
  }

  /** GET /prices body as JSON text, cached until the next poll or market change (the hot path). */
  pricesJson(): string {
    const snapshot = this.snapshot();
    if (this.#pricesCache?.snapshot !== snapshot) this.#pricesCache = { snapshot, json: JSON.stringify(this.prices()) };
    return this.#pricesCache.json;
  }

  /** GET /prices body. */
  prices(): ProviderPrice[] {
    return this.snapshot().providers.map((p) => ({
      provider: p.def.id,
      is_market: p.def.is_market,
      energy_prices: p.energy_prices,
      bandwidth_prices: p.bandwidth_prices,
      available_energy: p.available_energy,
      available_bandwidth: p.available_bandwidth,
      fetched_at: new Date(p.fetched_at).toISOString(),
    }));
  }

  /**
   * The selection rule: among online providers offering the resource, each quotes its
   * shortest tier at least as long as the duration; a provider qualifies when the amount is
   * within its minimum and availability. Cheapest first (ties by name); max_price_sun moves
   * the dearer ones to `over_price`.
   */
  select(query: SelectionQuery, snapshot: MarketSnapshot = this.snapshot()): Selection {
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
      const fit = fitFor(p, query);
      if (!fit) continue;
      const { tier, available } = fit;
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
   * `select(query).best` without building the rest of the selection (every MARKET order asks
   * twice: when placed and when executed; the full selection allocated a candidate per provider
   * and sorted them). The same rule: online, offering, tier, minimum and availability, cheapest
   * first with ties by name, nothing above max_price_sun. Null when select would have no best.
   */
  cheapest(query: SelectionQuery, snapshot: MarketSnapshot = this.snapshot()): Candidate | null {
    let best: ProviderSnapshot | undefined;
    let bestTier: PricePointOut | undefined;
    let bestAvailable = 0;
    let bestMin = 0;
    const cap = query.max_price_sun;
    for (const p of snapshot.providers) {
      const fit = fitFor(p, query);
      if (!fit) continue;
      const { offer, tier, available } = fit;
      if (cap != null && tier.price_sun > cap) continue;
      if (best && bestTier && (tier.price_sun > bestTier.price_sun || (tier.price_sun === bestTier.price_sun && p.def.id > best.def.id))) continue;
      best = p;
      bestTier = tier;
      bestAvailable = available;
      bestMin = offer.min;
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
  planBroadcast(query: SelectionQuery & { amount: number }, maxProviders = 3): PlanItem[] | null {
    const wide = this.select({ ...query, amount: undefined });
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

  /** Record a delegation against this poll's availability. */
  consume(providerId: string, resource: ResourceType, amount: number): void {
    const before = this.snapshot(); // rolls #consumed over to the current poll
    const key = `${providerId}:${resource}`;
    this.#consumed.set(key, (this.#consumed.get(key) ?? 0) + amount);
    this.#consumedVersion++;
    // Only this provider's availability changed: the next snapshot is the current one with that
    // provider redone (rebuilding all of them on every order's delegation was garbage per order).
    const base = this.#base;
    const at = before.providers.findIndex((p) => p.def.id === providerId);
    if (!base || at === -1) return;
    const providers = before.providers.slice();
    providers[at] = this.#afterConsumption(base.providers[at]!);
    this.#remember(before.poll, { poll: before.poll, polled_at: before.polled_at, providers });
  }

  isFailing(providerId: string): boolean {
    return this.#overrides.get(providerId)?.fail_delegations === true;
  }

  /** `getBestPrice`: the cheapest online provider at the 1-hour tier. */
  best(resource: ResourceType, amount?: number): PriceEntry | null {
    const snapshot = this.snapshot();
    const selection = this.select({ resource, amount, duration_sec: MARKET_RULES.REFERENCE_DURATION_SEC }, snapshot);
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
  history(query: { provider?: string; resource?: ResourceType; period?: string }): PriceEntry[] {
    const periodMs = PERIOD_MS[query.period ?? '24h'] ?? PERIOD_MS['24h']!;
    const current = this.snapshot();
    const polls = Math.max(1, Math.floor(periodMs / MARKET_RULES.POLL_INTERVAL_MS));
    const step = Math.max(1, Math.ceil(polls / 60));
    const out: PriceEntry[] = [];
    for (let k = 0; k < polls; k += step) {
      const poll = current.poll - k;
      const providers =
        k === 0 ? current.providers : PROVIDERS.map((def, index) => this.#providerAt(def, index, poll, false));
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

  /** `getPriceStats`: energy at the 1-hour tier across online providers. */
  /** `getPriceStats`: exactly the live service's four fields (production notes). */
  stats(): { best_price_sun: number; avg_price_sun: number; total_providers: number; cheapest_changes_24h: number } {
    const current = this.snapshot();
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
      cheapest_changes_24h: this.#cheapestChanges(current.poll),
    };
  }

  #cheapestChanges(poll: number): number {
    if (this.#statsCache?.poll === poll) return this.#statsCache.changes;
    const polls = (24 * 60 * 60 * 1000) / MARKET_RULES.POLL_INTERVAL_MS;
    let changes = 0;
    let previous: string | undefined;
    for (let n = poll - polls + 1; n <= poll; n++) {
      let cheapest: string | undefined;
      let price = Infinity;
      PROVIDERS.forEach((def, index) => {
        if (!this.#onlineAt(index, n)) return;
        const p = Math.round(def.energy.tiers[0]![1] * this.#factor(index, n));
        if (p < price) {
          price = p;
          cheapest = def.id;
        }
      });
      if (previous !== undefined && cheapest !== undefined && cheapest !== previous) changes++;
      if (cheapest !== undefined) previous = cheapest;
    }
    this.#statsCache = { poll, changes };
    return changes;
  }

  #factor(index: number, poll: number): number {
    // Mean of three consecutive draws: a drift that moves, but not wildly, between polls.
    const u = (unitHash(this.seed, index, poll, 'p') + unitHash(this.seed, index, poll - 1, 'p') + unitHash(this.seed, index, poll - 2, 'p')) / 3;
    return 1 + this.#drift * (2 * u - 1);
  }

  #onlineAt(index: number, poll: number): boolean {
    return unitHash(this.seed, index, poll, 'o') >= this.#offlineRate;
  }

  #providerAt(def: ProviderDef, index: number, poll: number, live: boolean, consumption = live): ProviderSnapshot {
    const override = live ? this.#overrides.get(def.id) : undefined;
    const online = override?.online ?? this.#onlineAt(index, poll);
    let fetchedPoll = poll;
    if (!online) {
      // fetched_at is the last successful poll: walk back (bounded) to the last online one.
      fetchedPoll = poll - 1;
      for (let k = 0; k < 200 && !this.#onlineAt(index, fetchedPoll); k++) fetchedPoll--;
    }
    const factor = this.#factor(index, fetchedPoll) * (override?.price_factor ?? 1);
    const priced = (offer: ResourceOffer | undefined): PricePointOut[] =>
      offer ? offer.tiers.map(([duration_sec, base]) => ({ duration_sec, price_sun: Math.max(1, Math.round(base * factor)) })) : [];
    const avail = (offer: ResourceOffer | undefined, resource: ResourceType, forced: number | undefined): number => {
      if (!offer || !online) return 0;
      const base = forced ?? Math.round(offer.capacity * (0.35 + 0.65 * unitHash(this.seed, index, poll, resource)));
      return Math.max(0, base - (consumption ? (this.#consumed.get(`${def.id}:${resource}`) ?? 0) : 0));
    };
    return {
      def,
      online,
      fetched_at: fetchedPoll * MARKET_RULES.POLL_INTERVAL_MS,
      energy_prices: priced(def.energy),
      bandwidth_prices: priced(def.bandwidth),
      available_energy: avail(def.energy, 'ENERGY', override?.available_energy),
      available_bandwidth: avail(def.bandwidth, 'BANDWIDTH', override?.available_bandwidth),
      fail_delegations: override?.fail_delegations === true,
    };
  }
}

const PERIOD_MS: Record<string, number> = {
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
};

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
 * Whether a provider can take a query, and at which tier and supply: online, offering the
 * resource, not excluded, a tier at least as long as asked, the amount within its minimum and
 * availability. The one rule `select` and `cheapest` share.
 */
function fitFor(p: ProviderSnapshot, query: SelectionQuery): { offer: ResourceOffer; tier: PricePointOut; available: number } | undefined {
  const offer = query.resource === 'ENERGY' ? p.def.energy : p.def.bandwidth;
  if (!offer || !p.online || query.exclude?.has(p.def.id)) return undefined;
  const points = query.resource === 'ENERGY' ? p.energy_prices : p.bandwidth_prices;
  const tier = points.find((t) => t.duration_sec >= query.duration_sec);
  if (!tier) return undefined;
  const available = query.resource === 'ENERGY' ? p.available_energy : p.available_bandwidth;
  if (query.amount !== undefined && (query.amount < offer.min || query.amount > available)) return undefined;
  if (available <= 0) return undefined;
  return { offer, tier, available };
}
