import { z } from 'zod';
import { LIMITS, ResourceType, lenientEnum, looseNumber, looseTimestamp, positiveInt, queryInt, RESOURCE_TYPES } from './common.js';

export const PricePoint = z.looseObject({
  duration_sec: looseNumber,
  /** SUN per unit of resource for that duration. */
  price_sun: looseNumber,
});
export type PricePoint = z.infer<typeof PricePoint>;

export const ProviderPrice = z.looseObject({
  provider: z.string(),
  is_market: z.boolean(),
  energy_prices: z.array(PricePoint),
  bandwidth_prices: z.array(PricePoint),
  available_energy: looseNumber,
  available_bandwidth: looseNumber,
  /** ISO 8601 per the spec; Unix time from the live service. */
  fetched_at: looseTimestamp,
});
export type ProviderPrice = z.infer<typeof ProviderPrice>;

/** GET /api/v1/prices */
export const PriceList = z.array(ProviderPrice);
export type PriceList = z.infer<typeof PriceList>;

/** GET /api/v1/prices/best (follows the live service; the spec does not show it). */
export const BestPriceQuery = z.strictObject({
  resource: ResourceType,
  amount: queryInt.pipe(positiveInt).optional(),
});
// What callers pass: numbers (the schema also accepts the digit strings a URL query carries).
export type BestPriceQuery = z.output<typeof BestPriceQuery>;

export const PriceEntry = z.looseObject({
  provider: z.string(),
  resource_type: lenientEnum(RESOURCE_TYPES),
  price_sun: looseNumber,
  available: looseNumber,
  is_online: z.boolean(),
  polled_at: looseTimestamp,
});
export type PriceEntry = z.infer<typeof PriceEntry>;

export const PRICE_HISTORY_PERIODS = ['1h', '6h', '24h', '7d', '30d'] as const;

/** GET /api/v1/prices/history (follows the live service). */
export const PriceHistoryQuery = z.strictObject({
  provider: z.string().min(1).optional(),
  resource: ResourceType.optional(),
  period: z.enum(PRICE_HISTORY_PERIODS).optional(),
});
export type PriceHistoryQuery = z.input<typeof PriceHistoryQuery>;

export const PriceHistory = z.array(PriceEntry);
export type PriceHistory = z.infer<typeof PriceHistory>;

/** GET /api/v1/prices/stats (follows the live service). */
export const PriceStats = z.looseObject({
  best_price_sun: looseNumber,
  avg_price_sun: looseNumber,
  total_providers: looseNumber,
  cheapest_changes_24h: looseNumber,
});
export type PriceStats = z.infer<typeof PriceStats>;

/** GET /api/v1/orders/preview */
export const PreviewQuery = z
  .strictObject({
    resource: ResourceType,
    amount: queryInt.pipe(positiveInt),
    duration: queryInt.pipe(positiveInt),
    max_price_sun: looseNumber.pipe(z.number().positive()).optional(),
  })
  .superRefine((q, ctx) => {
    if (q.resource === 'ENERGY' && q.amount < LIMITS.MIN_ENERGY_AMOUNT) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: `must be at least ${LIMITS.MIN_ENERGY_AMOUNT} for energy`,
        params: { min: LIMITS.MIN_ENERGY_AMOUNT },
      });
    }
  });
// What callers pass: numbers (the schema also accepts the digit strings a URL query carries).
export type PreviewQuery = z.output<typeof PreviewQuery>;

export const PreviewOption = z.looseObject({
  provider: z.string(),
  displayName: z.string(),
  price_sun: looseNumber,
  /** Total cost in TRX: a number per the spec, a string from the live service. */
  cost_trx: z.union([z.number(), z.string()]),
  duration_sec: looseNumber,
});
export type PreviewOption = z.infer<typeof PreviewOption>;

export const Preview = z.looseObject({
  best: PreviewOption.nullable(),
  fallbacks: z.array(PreviewOption),
  no_providers: z.boolean(),
});
export type Preview = z.infer<typeof Preview>;
