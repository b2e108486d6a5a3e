/**
 * The spec's enumerations as plain arrays, with no imports: the zod schemas build their enums
 * from these, and light code (the CLI's start-up and help path) uses the very same values
 * without loading zod.
 *
 * @module
 */

/** The resources the service rents: TRON energy and bandwidth. */
export const RESOURCE_TYPES = ['ENERGY', 'BANDWIDTH'] as const;

/** Periods `listHistory` accepts: the last 7, 30 or 90 days. */
export const HISTORY_PERIODS = ['7D', '30D', '90D'] as const;

/**
 * What an API key may do: `create_orders` (POST /orders), `view_orders` (GET /orders,
 * `getOrder`), `view_balance` (GET /balance, GET /history), `broadcast` (POST /broadcast).
 */
export const PERMISSIONS = ['create_orders', 'view_orders', 'view_balance', 'broadcast'] as const;

/**
 * How an order executes: `MARKET` at once at the best price (fails if that is above
 * `max_price_sun`); `LIMIT` waits for a price at or below `max_price_sun`; `PERIODIC`
 * re-executes at an interval; `BROADCAST` fills across several providers.
 */
export const ORDER_TYPES = ['MARKET', 'LIMIT', 'PERIODIC', 'BROADCAST'] as const;

/**
 * Order lifecycle: `PENDING` (awaiting a provider) → `EXECUTING` (delegation in progress) →
 * `FILLED` (delivered), or `FAILED`. The live service also sends `PARTIALLY_FILLED` and
 * `CANCELLED`; responses keep such values.
 */
export const ORDER_STATUSES = ['PENDING', 'EXECUTING', 'FILLED', 'FAILED'] as const;

/**
 * Statuses an order does not leave: FILLED, FAILED (the spec), CANCELLED and PARTIALLY_FILLED
 * (sent by the live service), EXPIRED (orders carry `expires_at`). `orders.waitFor` resolves on
 * FILLED and rejects at once, naming the status, on the others.
 */
export const FINAL_ORDER_STATUSES: readonly string[] = ['FILLED', 'FAILED', 'CANCELLED', 'PARTIALLY_FILLED', 'EXPIRED'];

/** Status of one provider execution inside an order. */
export const FILL_STATUSES = ['CONFIRMED', 'FAILED'] as const;

/** Webhook event types of the spec. */
export const WEBHOOK_EVENTS = ['order.filled', 'order.failed', 'deposit.received', 'withdrawal.completed'] as const;

/** Currencies an account holds and can withdraw. */
export const CURRENCIES = ['TRX', 'USDT'] as const;

/** Withdrawal lifecycle: `PENDING` until the on-chain transaction confirms, then `COMPLETED` (or `FAILED`). */
export const WITHDRAWAL_STATUSES = ['PENDING', 'COMPLETED', 'FAILED'] as const;

/** Operations `x402Estimate` can simulate. */
export const ESTIMATE_OPERATIONS = ['trc20_transfer', 'trx_transfer', 'custom'] as const;

/** Incoming-transfer kinds a watch can report. */
export const WATCH_EVENT_TYPES = ['usdt_incoming', 'usdc_incoming', 'usdd_incoming', 'trc20_incoming'] as const;

/** Node methods `x402Rpc` forwards (the whitelist). */
export const RPC_METHODS = [
  'wallet/getnowblock',
  'wallet/getaccount',
  'wallet/getaccountresource',
  'wallet/gettransactionbyid',
  'wallet/gettransactioninfobyid',
  'wallet/getcontractinfo',
  'wallet/triggerconstantcontract',
  'wallet/getchainparameters',
  'wallet/getblockbynum',
] as const;

/** Order types whose request must carry `max_price_sun` (a LIMIT order waits for that price). */
export const ORDER_TYPES_NEEDING_PRICE: readonly (typeof ORDER_TYPES)[number][] = ['LIMIT'];

/** Periods `getPriceHistory` accepts (live service). */
export const PRICE_HISTORY_PERIODS = ['1h', '6h', '24h', '7d', '30d'] as const;
