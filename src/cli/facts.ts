/**
 * The API facts the CLI needs before any request (help text, completion, parsing), in one place
 * and zod-free (the help path must not load zod).
 *
 * Numbers come from src/schemas/limits.ts, their owner. The enumerations below live in the zod
 * schema files (src/schemas/orders.ts, history.ts, keys.ts, webhooks.ts, withdrawals.ts,
 * common.ts, x402.ts), which the CLI cannot import at start-up; until limits.ts (or another
 * zod-free module of src/schemas) exports them they are declared here once, and
 * test/cli/facts.test.ts checks every one against its schema so they cannot drift.
 */
import { LIMITS } from '../schemas/limits.js';

export { LIMITS };

// ---- pending a zod-free home in src/schemas (checked against the schemas by test/cli/facts.test.ts) ----

/** src/schemas/common.ts RESOURCE_TYPES */
export const RESOURCE_TYPES = ['ENERGY', 'BANDWIDTH'] as const;
/** src/schemas/orders.ts ORDER_TYPES */
export const ORDER_TYPES = ['MARKET', 'LIMIT', 'PERIODIC', 'BROADCAST'] as const;
/** src/schemas/orders.ts ORDER_STATUSES */
export const ORDER_STATUSES = ['PENDING', 'EXECUTING', 'FILLED', 'FAILED'] as const;
/** Order types whose request must carry max_price_sun (the CreateOrderRequest refinement). */
export const PRICED_ORDER_TYPES: readonly (typeof ORDER_TYPES)[number][] = ['LIMIT'];
/** src/schemas/history.ts HISTORY_PERIODS */
export const HISTORY_PERIODS = ['7D', '30D', '90D'] as const;
/** src/schemas/keys.ts PERMISSIONS */
export const PERMISSIONS = ['create_orders', 'view_orders', 'view_balance', 'broadcast'] as const;
/** src/schemas/webhooks.ts WEBHOOK_EVENTS */
export const WEBHOOK_EVENTS = ['order.filled', 'order.failed', 'deposit.received', 'withdrawal.completed'] as const;
/** src/schemas/withdrawals.ts CURRENCIES */
export const CURRENCIES = ['TRX', 'USDT'] as const;
/** src/schemas/x402.ts ESTIMATE_OPERATIONS */
export const ESTIMATE_OPERATIONS = ['trc20_transfer', 'trx_transfer', 'custom'] as const;
/** src/schemas/x402.ts WATCH_EVENT_TYPES */
export const WATCH_EVENT_TYPES = ['usdt_incoming', 'usdc_incoming', 'usdd_incoming', 'trc20_incoming'] as const;

// ---- derived ----

/** An Idempotency-Key: 1 to LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH}}$`);

/** `a, b, c or d` */
export function orList(values: readonly string[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}
