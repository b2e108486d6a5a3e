/**
 * The six simulated providers (the names the live service aggregates) with their base price
 * tiers per duration, minimums and supply, and the market rules the spec leaves open. Static
 * data: the seeded drift on top of it is `market-pricing.ts`'s.
 * @module
 */
import { LIMITS } from '../../schemas/common.js';

const MIN = 60;
const HOUR = 3600;
const DAY = 86_400;

/** What a provider offers of one resource: price tiers, minimum order, supply. */
export interface ResourceOffer {
  /** [duration_sec, base price in SUN per unit for that duration] */
  tiers: ReadonlyArray<readonly [number, number]>;
  /** Smallest order this provider accepts. */
  min: number;
  /** Units it can delegate at most; what is available at a poll varies below this. */
  capacity: number;
}

/** A simulated provider: its id and name, whether it is a market, and its offers. */
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
    energy: {
      tiers: [
        [HOUR, 48],
        [DAY, 88],
        [3 * DAY, 200],
        [7 * DAY, 420],
        [30 * DAY, 1650],
      ],
      min: 65_000,
      capacity: 20_000_000,
    },
  },
  {
    id: 'tronsave',
    displayName: 'TronSave',
    is_market: true,
    energy: {
      tiers: [
        [HOUR, 52],
        [DAY, 92],
        [3 * DAY, 210],
        [7 * DAY, 440],
        [14 * DAY, 840],
        [30 * DAY, 1700],
      ],
      min: 100_000,
      capacity: 50_000_000,
    },
    bandwidth: {
      tiers: [
        [HOUR, 330],
        [DAY, 600],
        [3 * DAY, 1500],
      ],
      min: 5_000,
      capacity: 2_000_000,
    },
  },
  {
    id: 'netts',
    displayName: 'Netts',
    is_market: false,
    energy: {
      tiers: [
        [5 * MIN, 40],
        [HOUR, 55],
        [DAY, 95],
        [3 * DAY, 220],
      ],
      min: 65_000,
      capacity: 15_000_000,
    },
    bandwidth: {
      tiers: [
        [HOUR, 350],
        [DAY, 640],
      ],
      min: 1_000,
      capacity: 1_000_000,
    },
  },
  {
    id: 'itrx',
    displayName: 'iTRX',
    is_market: false,
    energy: {
      tiers: [
        [HOUR, 58],
        [DAY, 90],
        [3 * DAY, 205],
        [7 * DAY, 430],
        [14 * DAY, 830],
        [30 * DAY, 1680],
      ],
      min: 65_000,
      capacity: 30_000_000,
    },
    bandwidth: {
      tiers: [
        [HOUR, 380],
        [DAY, 620],
        [7 * DAY, 2800],
      ],
      min: 1_000,
      capacity: 1_500_000,
    },
  },
  {
    id: 'catfee',
    displayName: 'CatFee',
    is_market: false,
    energy: {
      tiers: [
        [HOUR, 62],
        [DAY, 98],
        [3 * DAY, 230],
      ],
      min: 65_000,
      capacity: 10_000_000,
    },
  },
  {
    id: 'powersun',
    displayName: 'PowerSun',
    is_market: false,
    energy: {
      tiers: [
        [HOUR, 66],
        [DAY, 99],
        [7 * DAY, 450],
        [30 * DAY, 1720],
      ],
      min: 65_000,
      capacity: 8_000_000,
    },
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
