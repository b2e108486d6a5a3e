import type { PriceEntry, ProviderPrice } from '../../schemas/prices.js';
import type { ResourceType } from '../../schemas/common.js';
import { MARKET_RULES, PROVIDERS, type ProviderDef } from './market-providers.js';
import { type MarketOptions, type MarketSnapshot, PriceModel, type ProviderOverride, type ProviderSnapshot } from './market-pricing.js';
import { type Candidate, type PlanItem, type Selection, type SelectionQuery, cheapestProvider, planBroadcast, selectProviders } from './market-selection.js';
import { bestPrice, priceHistory, priceStats } from './market-reports.js';

/**
 * The simulated market: six providers (`market-providers.ts`), each with energy price tiers per
 * duration and, for some, bandwidth tiers, a capacity, and a minimum order. Prices are re-polled
 * every 30 s with a seeded drift (`market-pricing.ts`), so the market is deterministic for a seed
 * and a time, whoever looks first. A provider is occasionally offline for a poll.
 *
 * This class holds what changes: test overrides, the delegations of the current poll, and the
 * caches of the current snapshot. `select` (`market-selection.ts`) is the one provider-selection
 * function: preview, order execution, BROADCAST splits, prices/best and LIMIT re-checks all go
 * through it.
 */
export class Market {
  readonly #pricing: PriceModel;
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
  #pricesCache: { snapshot: MarketSnapshot; json: string } | undefined;
  /** Called when overrides change, so waiting LIMIT orders are re-checked at once. */
  onChange: (() => void) | undefined;

  constructor(
    readonly seed: number,
    private readonly now: () => number,
    options: MarketOptions = {},
  ) {
    this.#pricing = new PriceModel(seed, options);
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
      this.#base = {
        poll,
        version: this.#version,
        providers: PROVIDERS.map((def, index) => this.#pricing.providerAt(def, index, poll, this.#overrides.get(def.id))),
      };
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
    const energy = this.#consumed.get(consumedKey(p.def.id, 'ENERGY')) ?? 0;
    const bandwidth = this.#consumed.get(consumedKey(p.def.id, 'BANDWIDTH')) ?? 0;
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

  /** The selection rule (`selectProviders`): the providers that can serve the query, cheapest first. */
  select(query: SelectionQuery, snapshot: MarketSnapshot = this.snapshot()): Selection {
    return selectProviders(query, snapshot);
  }

  /** `select(query).best` without building the rest of the selection (`cheapestProvider`). */
  cheapest(query: SelectionQuery, snapshot: MarketSnapshot = this.snapshot()): Candidate | null {
    return cheapestProvider(query, snapshot);
  }

  /** BROADCAST: the amount split across up to `maxProviders` of the cheapest providers (`planBroadcast`). */
  planBroadcast(query: SelectionQuery & { amount: number }, maxProviders = 3): PlanItem[] | null {
    return planBroadcast(query, this.snapshot(), maxProviders);
  }

  /** Record a delegation against this poll's availability. */
  consume(providerId: string, resource: ResourceType, amount: number): void {
    const before = this.snapshot(); // rolls #consumed over to the current poll
    const key = consumedKey(providerId, resource);
    this.#consumed.set(key, (this.#consumed.get(key) ?? 0) + amount);
    this.#consumedVersion++;
    // Only this provider's availability changed: the next snapshot is the current one with that
    // provider redone (rebuilding all of them on every order's delegation was garbage per order).
    const base = this.#base;
    let at = -1;
    for (let i = 0; i < before.providers.length; i++) {
      if (before.providers[i]!.def.id === providerId) {
        at = i;
        break;
      }
    }
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
    return bestPrice(this.snapshot(), resource, amount);
  }

  /**
   * `getPriceHistory`: 1-hour-tier prices per poll over the period, newest first, at most
   * 60 points per provider and resource (evenly spaced polls when the period has more).
   * Past polls are recomputed from the seed (overrides apply to the current poll only).
   */
  history(query: { provider?: string; resource?: ResourceType; period?: string }): PriceEntry[] {
    return priceHistory(this.#pricing, this.snapshot(), query);
  }

  /** `getPriceStats`: exactly the live service's four fields (production notes). */
  stats(): { best_price_sun: number; avg_price_sun: number; total_providers: number; cheapest_changes_24h: number } {
    return priceStats(this.#pricing, this.snapshot());
  }
}

/** `${provider}:${resource}`, the key of #consumed, made once per pair (a template per delegation was a new string to hash). */
const CONSUMED_KEYS: Partial<Record<string, Map<string, string>>> = { ENERGY: new Map(), BANDWIDTH: new Map() };
function consumedKey(provider: string, resource: ResourceType): string {
  const keys = CONSUMED_KEYS[resource];
  let key = keys?.get(provider);
  if (key === undefined) {
    key = `${provider}:${resource}`;
    if (keys && keys.size < 1_024) keys.set(provider, key);
  }
  return key;
}
