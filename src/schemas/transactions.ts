import * as z from 'zod/mini';
import type { Known } from './known.js';
import { SignedTransaction } from './deposits.js';

/**
 * Body of `broadcastTransaction` (permission `broadcast`; the spec does not show its shape, so
 * this follows a natural design): any signed TRON transaction, in the same form as a deposit's
 * `signed_tx`.
 */
export const BroadcastRequest = z.strictObject({
  /** The signed transaction to broadcast (txID, raw_data, raw_data_hex, signature). */
  signed_tx: SignedTransaction,
});
export type BroadcastRequest = z.input<typeof BroadcastRequest>;

/** Response of `broadcastTransaction`: the transaction id and `pending`, as deposit submit answers. */
export const BroadcastResponse = z.looseObject({
  /** The broadcast transaction's id (lower-case hex). */
  tx_id: z.string(),
  /** `pending` once the network accepted it. */
  status: z.string(),
});
export type BroadcastResponse = Known<z.infer<typeof BroadcastResponse>>;
