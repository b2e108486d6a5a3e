import * as z from 'zod';
import type { Known } from './known.js';
import { RESOURCE_TYPES, lenientEnum, looseNumber, looseTimestamp } from './common.js';
import { HISTORY_PERIODS } from './enums.js';
export { HISTORY_PERIODS } from './enums.js';


/** Query of `listHistory`. */
export const HistoryQuery = z.strictObject({
  /**
   * How far back, one of {@link HISTORY_PERIODS}. Omitted: the service uses `7D`.
   * @default '7D'
   */
  period: z.enum(HISTORY_PERIODS).optional(),
});
export type HistoryQuery = z.input<typeof HistoryQuery>;

/** One fill in the spending history (`listHistory`). Money in SUN. */
export const HistoryFill = z.looseObject({
  /** Fill identifier. */
  id: z.string(),
  /** Parent order id. */
  order_id: z.string(),
  /** Provider that executed the fill. */
  provider: z.string(),
  /** Resource units delivered. */
  amount: looseNumber,
  /** Price per unit, in SUN. */
  price_sun: looseNumber,
  /** Total cost of the fill, in SUN. */
  cost_sun: looseNumber,
  /** On-chain transaction hash. */
  tx_id: z.string(),
  /** When the fill was made: ISO 8601 per the spec; Unix time is accepted too. */
  created_at: looseTimestamp,
  /** On-chain confirmation time (ISO 8601 per the spec); null or absent when not confirmed. */
  confirmed_at: looseTimestamp.nullish(),
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
  total_energy: looseNumber,
  /** Total spent, in SUN. */
  total_spent_sun: looseNumber,
  /** Average price per energy unit, in SUN. */
  avg_price_sun: looseNumber,
});
export type HistorySummary = Known<z.infer<typeof HistorySummary>>;
