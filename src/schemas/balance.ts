import * as z from 'zod/mini';
import type { Known } from './known.js';
import { looseTimestamp, sunAmount } from './common.js';
import { described } from './meta.js';

/**
 * Response of `getBalance`. Every amount is an integer in SUN (1 TRX = 1,000,000 SUN);
 * USDT is in SUN-equivalent 6-decimal units. Convert with `sunToTrx`.
 */
export const Balance = z.looseObject({
  /** Available TRX, in SUN. */
  trx: described(sunAmount, 'Available TRX in SUN.'),
  /** Available USDT, in 6-decimal units (1 USDT = 1,000,000). */
  usdt: described(sunAmount, 'Available USDT in SUN-equivalent units (6 decimals).'),
  /** TRX locked in pending operations (e.g. withdrawals), in SUN. */
  trx_locked: described(sunAmount, 'TRX locked in pending operations, in SUN.'),
  /** When the balance last changed (follows the live service, not the spec). */
  updated_at: z.optional(looseTimestamp),
});
export type Balance = Known<z.infer<typeof Balance>>;
