import * as z from 'zod/mini';
import type { Known } from './known.js';
import { RESOURCE_TYPES, lenientEnum, looseNumber, looseTimestamp, sunAmount, sunPrice } from './common.js';
import { HISTORY_PERIODS } from './enums.js';
import { described, withMeta } from './meta.js';
export { HISTORY_PERIODS } from './enums.js';

/** Query of `listHistory`. */
export const HistoryQuery = z.strictObject({
  /**
   * How far back, one of {@link HISTORY_PERIODS}. Omitted: the service uses `7D`.
   * @default '7D'
   */
  period: withMeta(z.optional(z.enum(HISTORY_PERIODS)), { description: 'How far back: 7D, 30D or 90D.', default: '7D' }),
});
export type HistoryQuery = z.input<typeof HistoryQuery>;

/** One fill in the spending history (`listHistory`). Money in SUN. */
export const HistoryFill = z.looseObject({
  /** Fill identifier. */
  id: described(z.string(), 'Fill identifier.'),
  /** Parent order id. */
  order_id: described(z.string(), 'Parent order.'),
  /** Provider that executed the fill. */
  provider: z.string(),
  /** Resource units delivered. */
  amount: described(looseNumber, 'Resource units.'),
  /** Price per unit, in SUN. */
  price_sun: described(sunPrice, 'Per unit, SUN.'),
  /** Total cost of the fill, in SUN. */
  cost_sun: described(sunAmount, 'Total, SUN.'),
  /** On-chain transaction hash. */
  tx_id: described(z.string(), 'On-chain hash.'),
  /** When the fill was made: ISO 8601 per the spec; Unix time is accepted too. */
  created_at: described(looseTimestamp, 'ISO 8601.'),
  /** On-chain confirmation time (ISO 8601 per the spec); null or absent when not confirmed. */
  confirmed_at: described(z.nullish(looseTimestamp), 'On-chain confirmation time (ISO 8601).'),
  /** `ENERGY` or `BANDWIDTH`; unknown values are kept. */
  resource_type: lenientEnum(RESOURCE_TYPES),
});
export type HistoryFill = Known<z.infer<typeof HistoryFill>>;

/** Response of `listHistory`: the period's fills, newest `created_at` first. */
export const HistoryList = z.array(HistoryFill);
export type HistoryList = Known<z.infer<typeof HistoryList>>;

/** Response of `getHistorySummary`: totals over the whole account. */
export const HistorySummary = z.looseObject({
  /** Number of orders. */
  total_orders: looseNumber,
  /** Energy rented, in units. */
  total_energy: described(looseNumber, 'Energy units.'),
  /** Total spent, in SUN. */
  total_spent_sun: described(sunAmount, 'SUN.'),
  /** Average price per energy unit, in SUN. */
  avg_price_sun: described(sunPrice, 'SUN per energy unit.'),
});
export type HistorySummary = Known<z.infer<typeof HistorySummary>>;
