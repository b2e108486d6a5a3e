/**
 * The one verdict on a spending request that ended in an error: was it carried out (`sent`),
 * definitely not (`not_sent`), or is its outcome `unknown`? Send, payouts, standing rules and
 * MCP all ask this function; an `unknown` counts as spent until a lookup settles it (an order by
 * its Idempotency-Key, a transfer by its tx id).
 * @module
 */
import { isTrxRentError } from './base.js';

/** What became of a spending request that ended in an error. */
export type SpendOutcome = 'sent' | 'not_sent' | 'unknown';

/**
 * Codes raised before any spending request leaves (a check, a refusal of the inputs or the
 * caller's own cap), or a definite answer that nothing was done (an order that FAILED is
 * refunded; no provider could take it).
 */
const NOTHING_DONE = new Set([
  'VALIDATION_ERROR',
  'INVALID_ADDRESS',
  'INSECURE_TRANSPORT',
  'CONFIGURATION_ERROR',
  'MISSING_PEER_DEPENDENCY',
  'PROVIDER_UNAVAILABLE',
  'MAINTENANCE',
  'ORDER_FAILED',
  'INSUFFICIENT_TRX',
  'INSUFFICIENT_TOKEN_BALANCE',
  'INSUFFICIENT_BALANCE',
  'SIMULATION_FAILED',
  'SENDER_NOT_ACTIVATED',
  'TARGET_NOT_ACTIVATED',
  'PERMISSION_DENIED',
  'NO_WALLET',
  // The x402 payer could not produce a payment: nothing was signed or sent.
  'PAYMENT_SIGNING_FAILED',
]);

/**
 * The verdict on `error`, the end of a spending request (an order, a withdrawal, a transfer):
 *
 * - `sent`: it was carried out (a transfer mined, even if it failed on chain; an order charged
 *   above its cap);
 * - `not_sent`: a definite answer that nothing was done: a 4xx other than 408 to every attempt,
 *   a 503 saying maintenance or no provider, or a refusal raised before the request left;
 * - `unknown`: it may have been done: an attempt got no answer (connection lost, timeout), a
 *   5xx, a 2xx that could not be read, a cancel after the request left, or any error this
 *   function does not recognise. Count it as spent until looked up.
 *
 * The `details.transfer_sent` a transfer's error carries (`true`, `false`, `'unknown'`) decides
 * first: it is what the transfer protocol knows of its own broadcast.
 */
export function outcomeOf(error: unknown): SpendOutcome {
  if (!isTrxRentError(error)) return 'unknown';
  const details = error.details ?? {};
  if (details.transfer_sent === true) return 'sent';
  if (details.transfer_sent === 'unknown') return 'unknown';
  if (error.outcomeUnknown === true) return 'unknown';
  // A fill charged above the cap was charged.
  if (typeof details.charged_sun === 'number' && details.charged_sun > 0) return 'sent';
  const code = String(error.code);
  if (code === 'CONNECTION_ERROR' || code === 'TIMEOUT') return 'unknown';
  const status = error.status;
  if (status !== undefined) {
    if (status >= 400 && status < 500) return status === 408 ? 'unknown' : 'not_sent';
    if (status === 503 && NOTHING_DONE.has(code)) return 'not_sent';
    // A 5xx after the request left, a 2xx that failed to parse, a 3xx: it may have been done.
    return 'unknown';
  }
  if (details.transfer_sent === false && !details.order_id) return 'not_sent';
  // A journal refusal (locked, damaged, another batch's) comes before anything is sent.
  if (NOTHING_DONE.has(code) || code.startsWith('JOURNAL_')) return 'not_sent';
  // Cancelled or capped before anything left (no order, no transaction named in the details).
  if (
    (code === 'CANCELLED' ||
      code === 'SPENDING_CAP_EXCEEDED' ||
      code === 'SESSION_LIMIT' ||
      code === 'SPEND_LIMIT' ||
      code === 'READ_ONLY' ||
      code === 'DECLINED' ||
      code === 'CONFIRMATION_REQUIRED') &&
    !details.order_id &&
    !details.tx_id &&
    !details.stage
  )
    return 'not_sent';
  return 'unknown';
}
