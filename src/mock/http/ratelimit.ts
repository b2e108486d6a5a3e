/**
 * Per-IP rate limits per endpoint group, with the spec's numbers. Fixed windows (60 s by
 * default, on the mock clock) that start at a client's first request in the group. Every
 * limited response carries the IETF headers `RateLimit-Limit`, `RateLimit-Remaining` and
 * `RateLimit-Reset` (seconds until the window resets); a 429 adds `Retry-After` (seconds).
 *
 * Groups: `getOrder`, preview, keys, deposits, webhooks and broadcast fall in `other`,
 * as the spec's table says ("all other endpoints"); the paid routes (/x402/tron/*, whose limits
 * the spec does not show) have their own group `x402` at the same 100 per minute; /__mock/
 * helpers, the simulated TRON node and unknown routes are not limited.
 */
export type RateLimitGroup = 'prices' | 'balance' | 'history' | 'orders' | 'withdraw' | 'other' | 'x402';

/** A limit per group per window, and the window in ms. */
export type RateLimits = Record<RateLimitGroup, number> & { windowMs: number };

/** The spec's Limits table. */
export const DEFAULT_RATE_LIMITS: Readonly<RateLimits> = {
  prices: 300,
  balance: 60,
  history: 60,
  orders: 10,
  withdraw: 5,
  other: 100,
  // The spec shows no limits for the paid API; the mock applies the account API's catch-all.
  x402: 100,
  windowMs: 60_000,
};

/** Any of the limits or the window, to change from the spec's numbers. */
export type RateLimitOptions = Partial<RateLimits>;

export interface RateDecision {
  allowed: boolean;
  headers: Record<string, string>;
  retryAfterSec: number;
  limit: number;
}

export class RateLimiter {
  readonly limits: RateLimits;
  readonly #windows = new Map<string, { start: number; count: number }>();

  constructor(
    options: RateLimitOptions,
    private readonly now: () => number,
  ) {
    this.limits = { ...DEFAULT_RATE_LIMITS, ...options };
  }

  hit(ip: string, group: RateLimitGroup): RateDecision {
    const now = this.now();
    const limit = this.limits[group];
    const windowMs = this.limits.windowMs;
    const key = `${group}|${ip}`;
    let window = this.#windows.get(key);
    if (!window || now - window.start >= windowMs) {
      if (this.#windows.size > 50_000) this.#prune(now);
      window = { start: now, count: 0 };
      this.#windows.set(key, window);
    }
    const resetSec = Math.max(1, Math.ceil((window.start + windowMs - now) / 1000));
    const allowed = window.count < limit;
    if (allowed) window.count++;
    const headers: Record<string, string> = {
      'ratelimit-limit': String(limit),
      'ratelimit-remaining': String(Math.max(0, limit - window.count)),
      'ratelimit-reset': String(resetSec),
      'ratelimit-policy': `${limit};w=${Math.ceil(windowMs / 1000)}`,
    };
    if (!allowed) headers['retry-after'] = String(resetSec);
    return { allowed, headers, retryAfterSec: resetSec, limit };
  }

  #prune(now: number): void {
    for (const [key, w] of this.#windows) if (now - w.start >= this.limits.windowMs) this.#windows.delete(key);
  }
}
