import * as z from 'zod';
import type { Known } from './known.js';
import { LIMITS, lenientEnum, looseNumber, sun, sunAmount, tronAddress } from './common.js';
import { CURRENCIES, WITHDRAWAL_STATUSES } from './enums.js';
export { CURRENCIES, WITHDRAWAL_STATUSES } from './enums.js';


/** Body of `createWithdrawal` (5 requests per minute per IP). */
export const CreateWithdrawalRequest = z.strictObject({
  /** Base58 TRON destination address. */
  address: tronAddress.describe('Base58 TRON destination address (T…).'),
  /** Amount in whole SUN (USDT in 6-decimal units): at least 50,000,000 (50 TRX). */
  amount: sun.min(LIMITS.MIN_WITHDRAWAL_SUN, `must be at least ${LIMITS.MIN_WITHDRAWAL_SUN} SUN (50 TRX)`).describe(`Integer amount in SUN (TRX) or 6-decimal units (USDT); at least ${LIMITS.MIN_WITHDRAWAL_SUN} = 50 TRX.`),
  /** `TRX` or `USDT`. */
  currency: z.enum(CURRENCIES).describe('TRX or USDT.'),
});
export type CreateWithdrawalRequest = z.input<typeof CreateWithdrawalRequest>;

/** A withdrawal as `createWithdrawal` returns it (status `PENDING`). */
export const Withdrawal = z.looseObject({
  /** Withdrawal identifier. */
  id: z.string(),
  /** See {@link WITHDRAWAL_STATUSES}; unknown values are kept. */
  status: lenientEnum(WITHDRAWAL_STATUSES).describe('PENDING, COMPLETED or FAILED.'),
  /** Amount in SUN (USDT in 6-decimal units). */
  amount: sunAmount.describe('SUN.'),
  /** `TRX` or `USDT`. */
  currency: lenientEnum(CURRENCIES).describe('TRX or USDT.'),
  /** Destination TRON address. */
  address: z.string().describe('Destination TRON address.'),
});
export type Withdrawal = Known<z.infer<typeof Withdrawal>>;
