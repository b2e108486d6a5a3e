/**
 * Constants from the spec's Limits table. No imports, so light code (the CLI's start-up path)
 * can use the same numbers the schemas enforce without loading zod.
 */
export const LIMITS = {
  MIN_ENERGY_AMOUNT: 65_000,
  MIN_WITHDRAWAL_SUN: 50_000_000,
  MIN_DEPOSIT_SUN: 1_000_000,
  ORDER_LIST_DEFAULT_LIMIT: 30,
  ORDER_LIST_MAX_LIMIT: 100,
  IDEMPOTENCY_TTL_MS: 24 * 60 * 60 * 1000,
  IDEMPOTENCY_KEY_MAX_LENGTH: 64,
  PRICE_POLL_INTERVAL_MS: 30_000,
} as const;
