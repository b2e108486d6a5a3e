/**
 * When to retry and how long to wait. Kept apart from the request loop so the rules read in one
 * place: network errors, timeouts, 408, 429, 500, 502, 503, 504; exponential backoff with full
 * jitter; the server's Retry-After wins (seconds or HTTP date) up to a cap.
 * @module
 */

export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 500, 502, 503, 504]);

/** How failed attempts are retried: full-jitter exponential backoff, honouring Retry-After. */
export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Backoff base: attempt n waits up to base * 2^n. */
  baseDelayMs: number;
  /** Ceiling of one backoff wait. */
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited out: the error is thrown instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/** Full jitter: uniform in [0, min(cap, base * 2^attempt)]. `attempt` counts from 0. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(random() * ceiling);
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unparsable. */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** Methods safe to repeat. POST joins them only when the request carries an Idempotency-Key. */
export function isRetryableMethod(method: string, hasIdempotencyKey: boolean): boolean {
  return method !== 'POST' && method !== 'PATCH' ? true : hasIdempotencyKey;
}
