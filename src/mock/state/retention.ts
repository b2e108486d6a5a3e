/**
 * How much history the mock keeps. A long-running mock (a soak test, a dev server left on for
 * days) must not grow without bound, whatever the rate limits allow, so every per-request record
 * has a ceiling; past it the oldest finished records are forgotten first. Open work (an order
 * still executing or waiting for its price, a delivery still retrying) is never dropped: it
 * moves behind the newer records and is forgotten once it is finished and old again.
 *
 * @module
 */

/** Ceilings on retained history (counts). */
export interface RetentionLimits {
  /** Orders (each with its fills) kept; older finished orders disappear from GET /orders. Withdrawals and deposits are kept to the same number each. */
  orders: number;
  /** Webhook deliveries kept (GET /__mock/webhooks/deliveries). */
  deliveries: number;
  /**
   * Idempotency keys kept. A key older than the newest `idempotencyKeys` is forgotten before its
   * 24 h even if it is younger; reusing it then creates a new order.
   */
  idempotencyKeys: number;
  /** Transactions on the simulated chain (fills, deposits, withdrawals, paid sends). */
  transactions: number;
}

/** The defaults: enough history for any test or demo session, a few hundred MB at most. */
export const RETENTION_DEFAULTS: RetentionLimits = Object.freeze({
  orders: 10_000,
  deliveries: 10_000,
  idempotencyKeys: 50_000,
  transactions: 50_000,
});

/** `retain` as given to the mock: one number for every kind, or per kind. */
export type RetentionOption = number | Partial<RetentionLimits>;

/** Resolve a retention option; throws RangeError naming a non-positive or non-integer limit. */
export function resolveRetention(option: RetentionOption | undefined): RetentionLimits {
  const given: Partial<RetentionLimits> =
    typeof option === 'number' ? { orders: option, deliveries: option, idempotencyKeys: option, transactions: option } : { ...option };
  const out = { ...RETENTION_DEFAULTS, ...given };
  for (const [name, value] of Object.entries(out)) {
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`retain.${name} must be a positive integer, got ${String(value)}`);
  }
  return out;
}
