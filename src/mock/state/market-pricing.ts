/**
 * The seeded price model: at poll n a provider's prices are its base tiers times a drift factor
 * that is a pure function of (seed, provider, n), and it is occasionally offline for a poll, so
 * the market is deterministic for a seed and a time, whoever looks first. Also the shapes a
 * priced provider and a poll are described in, and the test overrides laid over them.
 * @module
 */
import type { ResourceType } from '../../schemas/common.js';
import { MARKET_RULES, PROVIDERS, type ProviderDef, type ResourceOffer } from './market-providers.js';
import { unitHash } from './rng.js';

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

/** One price tier as the mock sends it: duration and SUN per unit (a type alias, not an interface, so it is assignable to the lenient schema types). */
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

/**
 * The seeded drift and outages of every provider, poll by poll (a pure function of the seed and
 * the poll), and the count of cheapest-provider changes `getPriceStats` reports.
 */
export class PriceModel {
  readonly #drift: number;
  readonly #offlineRate: number;
  #statsCache: { poll: number; changes: number } | undefined;

  constructor(
    readonly seed: number,
    options: MarketOptions = {},
  ) {
    this.#drift = options.drift ?? 0.12;
    this.#offlineRate = options.offlineRate ?? 0.03;
  }

  /** How often the cheapest provider (energy, shortest tier) changed in the 24 h up to `poll`. */
  cheapestChanges(poll: number): number {
    if (this.#statsCache?.poll === poll) return this.#statsCache.changes;
    const polls = (24 * 60 * 60 * 1000) / MARKET_RULES.POLL_INTERVAL_MS;
    let changes = 0;
    let previous: string | undefined;
    for (let n = poll - polls + 1; n <= poll; n++) {
      let cheapest: string | undefined;
      let price = Infinity;
      PROVIDERS.forEach((def, index) => {
        if (!this.onlineAt(index, n)) return;
        const p = Math.round(def.energy.tiers[0]![1] * this.factor(index, n));
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

  /** The drift factor of provider `index` at `poll`. */
  factor(index: number, poll: number): number {
    // Mean of three consecutive draws: a drift that moves, but not wildly, between polls.
    const u = (unitHash(this.seed, index, poll, 'p') + unitHash(this.seed, index, poll - 1, 'p') + unitHash(this.seed, index, poll - 2, 'p')) / 3;
    return 1 + this.#drift * (2 * u - 1);
  }

  /** Whether provider `index` answers at `poll` (before any override). */
  onlineAt(index: number, poll: number): boolean {
    return unitHash(this.seed, index, poll, 'o') >= this.#offlineRate;
  }

  /**
   * A provider as polled at `poll`: prices, availability (before this poll's delegations), and
   * `override` laid over them (the current poll only; past polls are recomputed without one).
   */
  providerAt(def: ProviderDef, index: number, poll: number, override?: ProviderOverride): ProviderSnapshot {
    const online = override?.online ?? this.onlineAt(index, poll);
    let fetchedPoll = poll;
    if (!online) {
      // fetched_at is the last successful poll: walk back (bounded) to the last online one.
      fetchedPoll = poll - 1;
      for (let k = 0; k < 200 && !this.onlineAt(index, fetchedPoll); k++) fetchedPoll--;
    }
    const factor = this.factor(index, fetchedPoll) * (override?.price_factor ?? 1);
    const priced = (offer: ResourceOffer | undefined): PricePointOut[] =>
      offer ? offer.tiers.map(([duration_sec, base]) => ({ duration_sec, price_sun: Math.max(1, Math.round(base * factor)) })) : [];
    const avail = (offer: ResourceOffer | undefined, resource: ResourceType, forced: number | undefined): number => {
      if (!offer || !online) return 0;
      const base = forced ?? Math.round(offer.capacity * (0.35 + 0.65 * unitHash(this.seed, index, poll, resource)));
      return Math.max(0, base);
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
