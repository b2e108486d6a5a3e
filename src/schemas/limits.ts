/**
 * Constants from the spec's Limits table. No imports, so light code (the CLI's start-up path)
 * can use the same numbers the schemas enforce without loading zod.
 * @module
 */

/** Numbers from the spec's Limits table that the schemas, the client and the mock enforce. */
export const LIMITS = {
  /** Smallest energy amount for an order or a preview, in energy units. */
  MIN_ENERGY_AMOUNT: 65_000,
  /** Smallest withdrawal, in SUN (50 TRX). */
  MIN_WITHDRAWAL_SUN: 50_000_000,
  /** Smallest `amount_sun` of POST /deposit/prepare, in SUN (1 TRX). */
  MIN_DEPOSIT_SUN: 1_000_000,
  /** `limit` of GET /orders when omitted. */
  ORDER_LIST_DEFAULT_LIMIT: 30,
  /** Largest `limit` of GET /orders. */
  ORDER_LIST_MAX_LIMIT: 100,
  /** How long an Idempotency-Key is remembered: 24 hours, in ms. */
  IDEMPOTENCY_TTL_MS: 24 * 60 * 60 * 1000,
  /** Longest Idempotency-Key, in characters (live service). */
  IDEMPOTENCY_KEY_MAX_LENGTH: 64,
  /** How often the service polls provider prices, in ms. */
  PRICE_POLL_INTERVAL_MS: 30_000,
} as const;
