import { z } from 'zod';
import { LIMITS, lenientEnum, looseNumber, sun, tronAddress } from './common.js';

export const CURRENCIES = ['TRX', 'USDT'] as const;
export const WITHDRAWAL_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;

/** POST /api/v1/withdraw: amount in SUN. */
export const CreateWithdrawalRequest = z.strictObject({
  address: tronAddress,
  amount: sun.min(LIMITS.MIN_WITHDRAWAL_SUN, `must be at least ${LIMITS.MIN_WITHDRAWAL_SUN} SUN (50 TRX)`),
  currency: z.enum(CURRENCIES),
});
export type CreateWithdrawalRequest = z.input<typeof CreateWithdrawalRequest>;

export const Withdrawal = z.looseObject({
  id: z.string(),
  status: lenientEnum(WITHDRAWAL_STATUSES),
  amount: looseNumber,
  currency: lenientEnum(CURRENCIES),
  address: z.string(),
});
export type Withdrawal = z.infer<typeof Withdrawal>;
