import { z } from 'zod';
import { LIMITS, looseNumber, sun } from './common.js';

/** GET /api/v1/deposit/info (follows the live service; the spec does not show it). */
export const DepositInfo = z.looseObject({
  address: z.string(),
  memo: z.string(),
  min_amount_trx: looseNumber,
  min_amount_usdt: looseNumber,
});
export type DepositInfo = z.infer<typeof DepositInfo>;

/** POST /api/v1/deposit/prepare */
export const PrepareDepositRequest = z.strictObject({
  amount_sun: sun.min(LIMITS.MIN_DEPOSIT_SUN, `must be at least ${LIMITS.MIN_DEPOSIT_SUN} SUN (1 TRX)`),
});
export type PrepareDepositRequest = z.input<typeof PrepareDepositRequest>;

export const PreparedDeposit = z.looseObject({
  address: z.string(),
  memo: z.string(),
  amount_sun: looseNumber,
  memo_hex: z.string(),
  note: z.string(),
});
export type PreparedDeposit = z.infer<typeof PreparedDeposit>;

/** A signed TRON transaction as tronweb produces it. */
export const SignedTransaction = z.looseObject({
  txID: z.string().regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters'),
  raw_data: z.looseObject({}),
  raw_data_hex: z.string().regex(/^[0-9a-fA-F]*$/).optional(),
  signature: z.array(z.string()).min(1, 'needs at least one signature'),
  visible: z.boolean().optional(),
});
export type SignedTransaction = z.infer<typeof SignedTransaction>;

/** POST /api/v1/deposit/submit */
export const SubmitDepositRequest = z.strictObject({ signed_tx: SignedTransaction });
export type SubmitDepositRequest = z.input<typeof SubmitDepositRequest>;

export const SubmitDepositResponse = z.looseObject({ tx_id: z.string(), status: z.string() });
export type SubmitDepositResponse = z.infer<typeof SubmitDepositResponse>;
