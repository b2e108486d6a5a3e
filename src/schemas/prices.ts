import * as z from 'zod/mini';
import type { Known } from './known.js';
import { LIMITS, ResourceType, lenientEnum, looseNumber, looseTimestamp, positiveInt, queryInt, RESOURCE_TYPES, sunPrice } from './common.js';
import { described } from './meta.js';

/** One price tier of a provider: the price per unit for renting that long. */
export const PricePoint = z.looseObject({
  /** Rental duration of the tier, in seconds. */
  duration_sec: described(looseNumber, 'Seconds.'),
  /** SUN per unit of resource for that duration. */
  price_sun: described(sunPrice, 'SUN per unit of resource for that duration.'),
});
export type PricePoint = Known<z.infer<typeof PricePoint>>;

/** One provider's prices and availability, as `listPrices` lists them. */
export const ProviderPrice = z.looseObject({
  /** Provider identifier. */
  provider: described(z.string(), 'Provider identifier.'),
  /** True when the provider runs a marketplace model. */
  is_market: described(z.boolean(), 'True if the provider runs a marketplace model.'),
  /** Energy price tiers, one per duration. */
  energy_prices: described(z.array(PricePoint), 'Price tiers per duration.'),
  /** Bandwidth price tiers; may be empty. */
  bandwidth_prices: described(z.array(PricePoint), 'Price tiers per duration; may be empty.'),
  /** Energy units available now. */
  available_energy: described(looseNumber, 'Units currently available.'),
  /** Bandwidth units available now. */
  available_bandwidth: described(looseNumber, 'Units currently available.'),
  /** Time of the last successful fetch: ISO 8601 per the spec, Unix time from the live service. */
  fetched_at: described(looseTimestamp, 'Time of the last successful fetch (ISO 8601).'),
});
export type ProviderPrice = Known<z.infer<typeof ProviderPrice>>;

/** Response of `listPrices` (public): every active provider, refreshed every 30 seconds. */
export const PriceList = z.array(ProviderPrice);
export type PriceList = Known<z.infer<typeof PriceList>>;

/** Query of `getBestPrice` (follows the live service; the spec does not show it). */
export const BestPriceQuery = z.strictObject({
  /** `ENERGY` or `BANDWIDTH`. */
  resource: described(ResourceType, 'ENERGY or BANDWIDTH.'),
  /** Units wanted, a positive whole number (the mock then skips providers that cannot supply it). */
  amount: described(z.optional(z.pipe(queryInt, positiveInt)), 'Units wanted; providers that cannot deliver them are skipped.'),
});
// What callers pass: numbers (the schema also accepts the digit strings a URL query carries).
export type BestPriceQuery = z.output<typeof BestPriceQuery>;

/**
 * One provider's price for one resource at one poll: the response of `getBestPrice`
 * and the items of `getPriceHistory` (both follow the live service).
 */
export const PriceEntry = z.looseObject({
  /** Provider identifier. */
  provider: z.string(),
  /** `ENERGY` or `BANDWIDTH`; unknown values are kept. */
  resource_type: lenientEnum(RESOURCE_TYPES),
  /** Price per unit, in SUN. */
  price_sun: sunPrice,
  /** Units available. */
  available: looseNumber,
  /** Whether the provider answered the poll. */
  is_online: z.boolean(),
  /** Time of the poll: ISO 8601 or Unix time. */
  polled_at: looseTimestamp,
});
export type PriceEntry = Known<z.infer<typeof PriceEntry>>;

/** Periods `getPriceHistory` accepts (live service). */
import { PRICE_HISTORY_PERIODS } from './enums.js';
export { PRICE_HISTORY_PERIODS };

/** Query of `getPriceHistory` (follows the live service). Every field is optional. */
export const PriceHistoryQuery = z.strictObject({
  /** Only this provider. Omitted: every provider. */
  provider: described(z.optional(z.string().check(z.minLength(1))), 'One provider only.'),
  /** Only this resource. Omitted: both. */
  resource: described(z.optional(ResourceType), 'ENERGY or BANDWIDTH.'),
  /** How far back, one of {@link PRICE_HISTORY_PERIODS}. Omitted: the service picks (the mock uses `24h`). */
  period: described(z.optional(z.enum(PRICE_HISTORY_PERIODS)), 'How far back.'),
});
export type PriceHistoryQuery = z.input<typeof PriceHistoryQuery>;

/** Response of `getPriceHistory`: price entries, one per provider, resource and poll. */
export const PriceHistory = z.array(PriceEntry);
export type PriceHistory = Known<z.infer<typeof PriceHistory>>;

/** Response of `getPriceStats` (follows the live service). */
export const PriceStats = z.looseObject({
  /** Lowest current price per unit, in SUN. */
  best_price_sun: sunPrice,
  /** Average current price per unit, in SUN (may have decimals). */
  avg_price_sun: sunPrice,
  /** Number of providers aggregated. */
  total_providers: looseNumber,
  /** How often the cheapest provider changed in the last 24 hours. */
  cheapest_changes_24h: looseNumber,
});
export type PriceStats = Known<z.infer<typeof PriceStats>>;

/** A preview of energy asks for at least {@link LIMITS.MIN_ENERGY_AMOUNT} units (a rule of `PreviewQuery`). */
export function previewAmountIsEnough(q: { resource: string; amount: number }): boolean {
  return q.resource !== 'ENERGY' || q.amount >= LIMITS.MIN_ENERGY_AMOUNT;
}

/**
 * Query of `previewOrder`: what an order would cost now, with the provider selection
 * POST /orders uses. Places no order.
 */
export const PreviewQuery = z
  .strictObject({
    /** `ENERGY` or `BANDWIDTH`. */
    resource: described(ResourceType, 'ENERGY or BANDWIDTH.'),
    /** Units wanted; at least 65000 for energy. */
    amount: described(z.pipe(queryInt, positiveInt), `Resource units to rent (not SUN); at least ${LIMITS.MIN_ENERGY_AMOUNT} for ENERGY.`),
    /** Rental duration, in seconds (note: `duration`, not `duration_sec`). */
    duration: described(z.pipe(queryInt, positiveInt), 'Rental duration in seconds, e.g. 3600 for one hour.'),
    /** Highest price per unit, in SUN; providers above it are excluded. */
    max_price_sun: described(z.optional(z.pipe(looseNumber, z.number().check(z.positive()))), 'Providers above this price per unit (SUN) are excluded.'),
  })
  .check(
    // A named predicate, not a superRefine: the build-time fast checks call this very function.
    z.refine(previewAmountIsEnough, {
      path: ['amount'],
      message: `must be at least ${LIMITS.MIN_ENERGY_AMOUNT} for energy`,
      params: { min: LIMITS.MIN_ENERGY_AMOUNT },
    }),
  );
// What callers pass: numbers (the schema also accepts the digit strings a URL query carries).
export type PreviewQuery = z.output<typeof PreviewQuery>;

/** One provider that could fill a previewed order, and what it would cost. */
export const PreviewOption = z.looseObject({
  /** Provider identifier. */
  provider: z.string(),
  /** Provider name for display. */
  displayName: z.string(),
  /** Price per unit, in SUN. */
  price_sun: described(sunPrice, 'SUN per unit.'),
  /** Total cost in TRX: a number per the spec, a string from the live service. */
  cost_trx: z.union([z.number(), z.string()]),
  /** Duration of the price tier that matched, in seconds. */
  duration_sec: described(looseNumber, 'The matched duration, seconds.'),
});
export type PreviewOption = Known<z.infer<typeof PreviewOption>>;

/** Response of `previewOrder`. */
export const Preview = z.looseObject({
  /** The provider an order would go to now; null when none can fill it. */
  best: described(z.nullable(PreviewOption), 'The cheapest matching provider; null when none can fulfil the request.'),
  /** The other candidates, cheapest first. */
  fallbacks: described(z.array(PreviewOption), 'The other matching providers, sorted by price.'),
  /** True when no provider can fulfil the request. */
  no_providers: described(z.boolean(), 'True when no provider can fulfil the request.'),
});
export type Preview = Known<z.infer<typeof Preview>>;
