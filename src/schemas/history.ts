import { z } from 'zod';
import { RESOURCE_TYPES, lenientEnum, looseNumber, looseTimestamp } from './common.js';

export const HISTORY_PERIODS = ['7D', '30D', '90D'] as const;

/** GET /api/v1/history */
export const HistoryQuery = z.strictObject({ period: z.enum(HISTORY_PERIODS).optional() });
export type HistoryQuery = z.input<typeof HistoryQuery>;

export const HistoryFill = z.looseObject({
  id: z.string(),
  order_id: z.string(),
  provider: z.string(),
  amount: looseNumber,
  price_sun: looseNumber,
  cost_sun: looseNumber,
  tx_id: z.string(),
  created_at: looseTimestamp,
  confirmed_at: looseTimestamp.nullish(),
  resource_type: lenientEnum(RESOURCE_TYPES),
});
export type HistoryFill = z.infer<typeof HistoryFill>;

export const HistoryList = z.array(HistoryFill);
export type HistoryList = z.infer<typeof HistoryList>;

/** GET /api/v1/history/summary */
export const HistorySummary = z.looseObject({
  total_orders: looseNumber,
  total_energy: looseNumber,
  total_spent_sun: looseNumber,
  avg_price_sun: looseNumber,
});
export type HistorySummary = z.infer<typeof HistorySummary>;
