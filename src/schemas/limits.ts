/**
 * Constants from the spec's Limits table. No imports, so light code (the CLI's start-up path)
 * can use the same numbers the schemas enforce without loading zod.
 * @module
 */

/** Numbers from the spec's Limits table that the schemas, the client and the mock enforce. */
export const LIMITS = {
  /** Smallest energy amount for an order or a preview, in energy units. */
  MIN_ENERGY_AMOUNT: 65_000,
  /**
   * Smallest bandwidth amount for an order, in units. The spec shows none ("not shown"); this is
   * the smallest provider minimum, which the mock enforces (BELOW_MINIMUM_ORDER) and the CLI
   * checks before sending.
   */
  MIN_BANDWIDTH_AMOUNT: 1_000,
  /** Smallest withdrawal, in SUN (50 TRX). */
  MIN_WITHDRAWAL_SUN: 50_000_000,
  /** Smallest `amount_sun` of `prepareDeposit`, in SUN (1 TRX). */
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

/** Constants of the pay-per-call API (the x402 spec's Limits table). */
export const X402_LIMITS = {
  /** Most transfers in one `x402SendBatch`. */
  MAX_BATCH_TRANSFERS: 50,
  /** How long a watch (POST /watch) lasts: 24 hours, in ms. */
  WATCH_DURATION_MS: 24 * 60 * 60 * 1000,
  /** `expires_in_seconds` of POST /invoice when omitted. */
  INVOICE_EXPIRES_DEFAULT_S: 3600,
  /** `timeout_seconds` of POST /receive when omitted. */
  RECEIVE_TIMEOUT_DEFAULT_S: 300,
  /** Largest `tolerance_pct` of POST /receive, in percent. */
  RECEIVE_TOLERANCE_MAX_PCT: 100,
  /** Largest `slippage_pct` of `x402SwapExecute`, in percent. */
  SWAP_SLIPPAGE_MAX_PCT: 50,
  /** `slippage_pct` of `x402SwapExecute` when omitted. */
  SWAP_SLIPPAGE_DEFAULT_PCT: 0.5,
  /** Price of a fixed-price call, in USD (decimal string). */
  FIXED_PRICE_USD: '0.01',
  /** Lowest price of a dynamic-price call (send, send/batch, swap/execute), in USD. */
  DYNAMIC_MIN_USD: '0.001',
  /** Highest price of a dynamic-price call, in USD. */
  DYNAMIC_MAX_USD: '0.01',
} as const;
