/**
 * The API facts the CLI needs before any request (help text, completion, parsing), zod-free (the
 * help path must not load zod): re-exported from their owners, `src/schemas/limits.ts` and
 * `src/schemas/enums.ts`, which the zod schemas build from too, so nothing can drift.
 */
import { LIMITS } from '../schemas/limits.js';

export { LIMITS, X402_LIMITS } from '../schemas/limits.js';
export {
  RESOURCE_TYPES,
  ORDER_TYPES,
  ORDER_STATUSES,
  HISTORY_PERIODS,
  PRICE_HISTORY_PERIODS,
  PERMISSIONS,
  WEBHOOK_EVENTS,
  CURRENCIES,
  ESTIMATE_OPERATIONS,
  WATCH_EVENT_TYPES,
  RPC_METHODS,
  ORDER_TYPES_NEEDING_PRICE as PRICED_ORDER_TYPES,
} from '../schemas/enums.js';

// ---- derived ----

/** An Idempotency-Key: 1 to LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH}}$`);

/**
 * The help of `--idempotency-key`, the option of every command whose endpoint the table marks
 * idempotent (`buy`, `withdraw`; `test/cli/table-derived.test.ts` holds the table to it): what the
 * key is for, then the API's rules for it (length, how long it is remembered).
 */
export function idempotencyKeyHelp(use: string): string {
  const hours = LIMITS.IDEMPOTENCY_TTL_MS / 3_600_000;
  return `${use} (1-${LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters, remembered ${hours} hours; default: a new UUID)`;
}

/** `a, b, c or d` */
export function orList(values: readonly string[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

/**
 * Field names of the API's documents (and of the CLI's own: price_trx, cost_trx, …). After
 * `--json`, a word that is one of these (or any comma-separated list) is the field list
 * (`--json id,status`, `--json id`); any other word is left to the command (`prices --json
 * bandwidth`).
 */
export const KNOWN_FIELDS: ReadonlySet<string> = new Set([
  'address',
  'amount',
  'amount_sun',
  'api_key',
  'available',
  'available_bandwidth',
  'available_energy',
  'avg_price_sun',
  'balance',
  'bandwidth_prices',
  'base_url',
  'best',
  'best_price_sun',
  'config_path',
  'confirmed_at',
  'cost_sun',
  'cost_trx',
  'created_at',
  'currency',
  'current',
  'active',
  'data',
  'delegation_tx',
  'displayName',
  'duration',
  'duration_sec',
  'energy_prices',
  'event',
  'events',
  'expires_at',
  'fallbacks',
  'fetched_at',
  'filled_at',
  'fills',
  'id',
  'is_active',
  'is_market',
  'is_online',
  'key',
  'memo',
  'memo_hex',
  'min_amount_trx',
  'min_amount_usdt',
  'name',
  'no_providers',
  'note',
  'order',
  'order_id',
  'order_type',
  'payment',
  'permissions',
  'polled_at',
  'price_sun',
  'price_trx',
  'profile',
  'provider',
  'request',
  'resource',
  'resource_type',
  'revoked',
  'deleted',
  'secret',
  'settings',
  'status',
  'target_address',
  'total',
  'total_cost_sun',
  'total_energy',
  'total_fee_sun',
  'total_orders',
  'total_spent_sun',
  'tronscan_url',
  'trx',
  'trx_locked',
  'tx_id',
  'url',
  'usdt',
  'user_id',
  'value',
  'verified',
  'base_url_source',
  'key_source',
  'key_works',
  'clock_skew_ms',
  'mock',
]);
