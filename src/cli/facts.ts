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
  PERMISSIONS,
  WEBHOOK_EVENTS,
  CURRENCIES,
  ESTIMATE_OPERATIONS,
  WATCH_EVENT_TYPES,
  ORDER_TYPES_NEEDING_PRICE as PRICED_ORDER_TYPES,
} from '../schemas/enums.js';

// ---- derived ----

/** An Idempotency-Key: 1 to LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH visible ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = new RegExp(`^[\\x21-\\x7e]{1,${LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH}}$`);

/** `a, b, c or d` */
export function orList(values: readonly string[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}
