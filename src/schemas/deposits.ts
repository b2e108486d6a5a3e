import * as z from 'zod/mini';
import type { Known } from './known.js';
import { LIMITS, looseNumber, sun, sunAmount } from './common.js';
import { described } from './meta.js';

/**
 * Response of `getDepositInfo`: where to send a manual TRX deposit (follows the live
 * service; the spec does not show it).
 */
export const DepositInfo = z.looseObject({
  /** Platform deposit address (base58). */
  address: z.string(),
  /** Your memo; a transfer without it cannot be credited. */
  memo: z.string(),
  /** Smallest TRX deposit, in TRX (not SUN). */
  min_amount_trx: looseNumber,
  /** Smallest USDT deposit, in USDT. */
  min_amount_usdt: looseNumber,
});
export type DepositInfo = Known<z.infer<typeof DepositInfo>>;

/** Body of `prepareDeposit`. */
export const PrepareDepositRequest = z.strictObject({
  /** Amount to deposit, in whole SUN: at least 1,000,000 (1 TRX). */
  amount_sun: described(
    sun.check(z.minimum(LIMITS.MIN_DEPOSIT_SUN, `must be at least ${LIMITS.MIN_DEPOSIT_SUN} SUN (1 TRX)`)),
    `Amount to deposit in SUN (1 TRX = 1,000,000 SUN), at least ${LIMITS.MIN_DEPOSIT_SUN}.`,
  ),
});
export type PrepareDepositRequest = z.input<typeof PrepareDepositRequest>;

/** Response of `prepareDeposit`: what to put in the TRX transfer you sign. */
export const PreparedDeposit = z.looseObject({
  /** Platform deposit address: the transfer's destination. */
  address: described(z.string(), 'Platform deposit address.'),
  /** Your unique memo. */
  memo: described(z.string(), 'Unique user memo.'),
  /** The amount to send, in SUN. */
  amount_sun: described(sunAmount, 'SUN.'),
  /** The memo as hex, for the transaction's `raw_data.data` field. */
  memo_hex: described(z.string(), 'The memo as hex, for the transaction’s data field.'),
  /** Signing instructions, as text. */
  note: described(z.string(), 'Signing instructions.'),
});
export type PreparedDeposit = Known<z.infer<typeof PreparedDeposit>>;

/** A signed TRON transaction as tronweb produces it. */
export const SignedTransaction = z.looseObject({
  /** Transaction id: sha256 of `raw_data_hex`, 64 hex characters. */
  txID: z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters')),
  /** The transaction as JSON; for a deposit, `data` holds the memo hex. */
  raw_data: z.looseObject({}),
  /** The protobuf-encoded transaction, hex; what the signature and txID cover. */
  raw_data_hex: z.optional(z.string().check(z.regex(/^[0-9a-fA-F]*$/))),
  /** Signatures over txID, hex; at least one. */
  signature: z.array(z.string()).check(z.minLength(1, 'needs at least one signature')),
  /** Whether addresses in `raw_data` are base58 (true) or hex (false). */
  visible: z.optional(z.boolean()),
});
export type SignedTransaction = Known<z.infer<typeof SignedTransaction>>;

/**
 * Body of `submitDeposit` (no authentication): a signed TRX transfer to the deposit
 * address carrying your memo.
 */
export const SubmitDepositRequest = z.strictObject({ signed_tx: SignedTransaction });
export type SubmitDepositRequest = z.input<typeof SubmitDepositRequest>;

/** Response of `submitDeposit`: the broadcast transaction, status `pending` until credited. */
export const SubmitDepositResponse = z.looseObject({ tx_id: z.string(), status: z.string() });
export type SubmitDepositResponse = Known<z.infer<typeof SubmitDepositResponse>>;
