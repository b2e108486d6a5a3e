import * as z from 'zod/mini';
import type { Known } from './known.js';
import { LIMITS, lenientEnum, looseNumber, sun, sunAmount, tronAddress } from './common.js';
import { CURRENCIES, WITHDRAWAL_STATUSES } from './enums.js';
import { described } from './meta.js';
export { CURRENCIES, WITHDRAWAL_STATUSES } from './enums.js';

/** Body of `createWithdrawal` (5 requests per minute per IP). */
export const CreateWithdrawalRequest = z.strictObject({
  /** Base58 TRON destination address. */
  address: described(tronAddress, 'Base58 TRON destination address (T…).'),
  /** Amount in whole SUN (USDT in 6-decimal units): at least 50,000,000 (50 TRX). */
  amount: described(
    sun.check(z.minimum(LIMITS.MIN_WITHDRAWAL_SUN, `must be at least ${LIMITS.MIN_WITHDRAWAL_SUN} SUN (50 TRX)`)),
    `Integer amount in SUN (TRX) or 6-decimal units (USDT); at least ${LIMITS.MIN_WITHDRAWAL_SUN} = 50 TRX.`,
  ),
  /** `TRX` or `USDT`. */
  currency: described(z.enum(CURRENCIES), 'TRX or USDT.'),
});
export type CreateWithdrawalRequest = z.input<typeof CreateWithdrawalRequest>;

/** A withdrawal as `createWithdrawal` returns it (status `PENDING`). */
export const Withdrawal = z.looseObject({
  /** Withdrawal identifier. */
  id: z.string(),
  /** See {@link WITHDRAWAL_STATUSES}; unknown values are kept. */
  status: described(lenientEnum(WITHDRAWAL_STATUSES), 'PENDING, COMPLETED or FAILED.'),
  /** Amount in SUN (USDT in 6-decimal units). */
  amount: described(sunAmount, 'SUN.'),
  /** `TRX` or `USDT`. */
  currency: described(lenientEnum(CURRENCIES), 'TRX or USDT.'),
  /** Destination TRON address. */
  address: described(z.string(), 'Destination TRON address.'),
});
export type Withdrawal = Known<z.infer<typeof Withdrawal>>;
