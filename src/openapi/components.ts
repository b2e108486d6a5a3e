/**
 * The document's component schemas, each built from the shared zod schemas in `src/schemas`
 * (the one source). Requests are the strict request schemas as they are. Responses are the
 * lenient response schemas narrowed to the spec's wire shape: the fields each endpoint's
 * response carries (per the spec's resource tables), required where the spec lists them, with
 * unknown fields still allowed (`additionalProperties` is not closed: the live service adds
 * fields, and clients must keep them).
 *
 * @module
 */
import * as z from 'zod';
import { Balance } from '../schemas/balance.js';
import { BroadcastResponse } from '../schemas/transactions.js';
import { DepositInfo, PrepareDepositRequest, PreparedDeposit, SignedTransaction, SubmitDepositRequest, SubmitDepositResponse } from '../schemas/deposits.js';
import { ERROR_CODES, ERROR_STATUS, ErrorEnvelope } from '../schemas/errors.js';
import { HistoryFill, HistorySummary } from '../schemas/history.js';
import { ApiKey, CreateKeyRequest } from '../schemas/keys.js';
import { CreateOrderRequest, Fill, Order } from '../schemas/orders.js';
import { PriceEntry, PriceStats, PricePoint, ProviderPrice, Preview, PreviewOption } from '../schemas/prices.js';
import { CreateWebhookRequest, Webhook } from '../schemas/webhooks.js';
import { CreateWithdrawalRequest, Withdrawal } from '../schemas/withdrawals.js';
import {
  BatchSendRequest,
  BatchSendResult,
  BatchTransfer,
  Estimate,
  EstimateRequest,
  InvoiceRequest,
  Invoice,
  NetworkInfo,
  PaymentRequiredV2,
  PaymentRequirementsV2,
  Receive,
  ReceiveRequest,
  ResourceInfo,
  RpcBody,
  SendRequest,
  SendResult,
  SettlementResponse,
  SwapExecuteRequest,
  SwapExecution,
  SwapQuote,
  SwapQuoteRequest,
  Trc20Balance,
  Watch,
  WatchRequest,
  X402Account,
  X402PriceEntry,
} from '../schemas/x402.js';
import type { JsonSchema } from './json-schema.js';

// ---- account API: requests (strict, as the SDK and the mock validate them) ----

/** Body of `broadcastTransaction`: not shown by the spec; the mock takes a signed transaction. */
export const BroadcastRequest = z.strictObject({ signed_tx: SignedTransaction });

/** Request bodies of the account API, converted with io 'input'. */
export const ACCOUNT_REQUESTS = [
  ['CreateKeyRequest', CreateKeyRequest],
  ['CreateOrderRequest', CreateOrderRequest],
  ['PrepareDepositRequest', PrepareDepositRequest],
  ['SignedTransaction', SignedTransaction],
  ['SubmitDepositRequest', SubmitDepositRequest],
  ['CreateWithdrawalRequest', CreateWithdrawalRequest],
  ['CreateWebhookRequest', CreateWebhookRequest],
  ['BroadcastRequest', BroadcastRequest],
] as const satisfies ReadonlyArray<readonly [string, z.ZodType]>;

// ---- account API: responses (the spec's shapes) ----

/** `createKey`: the key with its secret (`sk_live_`…), shown only here. */
export const ApiKeyCreated = ApiKey.required({ key: true });
/** `revokeKey`: `revoked` is always true. */
export const KeyRevoked = z.looseObject({ revoked: z.literal(true) });

/** A fill inside an order: the spec's eight fields (the live service's delegation_tx is not in the spec). */
export const OrderFill = Fill.omit({ delegation_tx: true });

/** The order as `createOrder` returns it. */
export const OrderCreated = Order.pick({
  id: true,
  status: true,
  resource_type: true,
  order_type: true,
  amount: true,
  duration_sec: true,
  target_address: true,
  max_price_sun: true,
  created_at: true,
});
/** An item of `listOrders`: the create shape plus `filled_at`. */
export const OrderListItem = Order.pick({
  id: true,
  status: true,
  resource_type: true,
  order_type: true,
  amount: true,
  duration_sec: true,
  target_address: true,
  max_price_sun: true,
  created_at: true,
  filled_at: true,
}).required({ filled_at: true });
/** `getOrder`: the full order with its cost, fee and fills. */
export const FullOrder = Order.pick({
  id: true,
  status: true,
  resource_type: true,
  order_type: true,
  amount: true,
  duration_sec: true,
  target_address: true,
  max_price_sun: true,
  total_cost_sun: true,
  total_fee_sun: true,
  fills: true,
  created_at: true,
  filled_at: true,
})
  .extend({ fills: z.array(OrderFill) })
  .required({ filled_at: true, total_cost_sun: true, total_fee_sun: true });
/** `listOrders` */
export const OrderListResponse = z.looseObject({ orders: z.array(OrderListItem), total: Order.shape.amount });

/** A fill in `listHistory`: every field of the spec's table, confirmed_at included. */
export const HistoryEntry = HistoryFill.extend({ confirmed_at: HistoryFill.shape.created_at });

/** `createWebhook`: the webhook with its signing secret, shown only here. */
export const WebhookCreated = Webhook.required({ secret: true });
/** An item of `listWebhooks`: no secret. */
export const WebhookListItem = Webhook.omit({ secret: true });
/** `deleteWebhook` */
export const WebhookDeleted = z.looseObject({ deleted: z.literal(true) });

/** `broadcastTransaction`: not shown by the spec; the same answer as deposit submit. */
export const BroadcastResult = BroadcastResponse;

/** Response bodies of the account API, converted with io 'output'. */
export const ACCOUNT_RESPONSES = [
  ['ApiKeyCreated', ApiKeyCreated],
  ['KeyRevoked', KeyRevoked],
  ['PricePoint', PricePoint],
  ['ProviderPrice', ProviderPrice],
  ['PriceEntry', PriceEntry],
  ['PriceStats', PriceStats],
  ['PreviewOption', PreviewOption],
  ['Preview', Preview],
  ['Fill', OrderFill],
  ['OrderCreated', OrderCreated],
  ['OrderListItem', OrderListItem],
  ['OrderList', OrderListResponse],
  ['Order', FullOrder],
  ['Balance', Balance],
  ['HistoryFill', HistoryEntry],
  ['HistorySummary', HistorySummary],
  ['DepositInfo', DepositInfo],
  ['PreparedDeposit', PreparedDeposit],
  ['SubmittedDeposit', SubmitDepositResponse],
  ['BroadcastResult', BroadcastResult],
  ['Withdrawal', Withdrawal],
  ['WebhookCreated', WebhookCreated],
  ['Webhook', WebhookListItem],
  ['WebhookDeleted', WebhookDeleted],
] as const satisfies ReadonlyArray<readonly [string, z.ZodType]>;

/** Replacements for response fields whose shared schema is wider than the spec's type. */
export const ACCOUNT_RESPONSE_REPLACE = new Map<z.ZodType, JsonSchema>([
  // Spec: cost_trx is a number (total cost in TRX); the live service sends a string, the SDK takes both.
  [PreviewOption.shape.cost_trx, { type: 'number', description: 'Total cost in TRX.' }],
]);

// ---- errors ----

/** The error envelope with any code. */
export const ErrorResponse = ErrorEnvelope;

/** The error envelope restricted to some codes (one response status of one endpoint). */
export function errorWithCodes(codes: readonly [string, ...string[]]) {
  return z.looseObject({ error: ErrorEnvelope.shape.error.extend({ code: z.enum(codes) }) });
}

/** Codes the spec's Errors table gives a status of 422. */
export const UNPROCESSABLE_CODES = ERROR_CODES.filter((c) => ERROR_STATUS[c] === 422) as unknown as readonly [string, ...string[]];

/** Error bodies shared by many operations (components), converted with io 'output'. */
export const ERROR_RESPONSES = [
  ['Error', ErrorResponse],
  ['UnauthorizedError', errorWithCodes(['UNAUTHORIZED'])],
  ['ForbiddenError', errorWithCodes(['FORBIDDEN'])],
  ['NotFoundError', errorWithCodes(['NOT_FOUND'])],
  ['DuplicateRequestError', errorWithCodes(['DUPLICATE_REQUEST'])],
  ['UnprocessableError', errorWithCodes(UNPROCESSABLE_CODES)],
  ['RateLimitedError', errorWithCodes(['RATE_LIMITED'])],
] as const satisfies ReadonlyArray<readonly [string, z.ZodType]>;

// ---- pay-per-call API ----

/** `x402Rpc`: a JSON object that varies by method. */
export const RpcRequest = RpcBody;

/** Request bodies of the paid API, converted with io 'input'. */
export const X402_REQUESTS = [
  ['X402EstimateRequest', EstimateRequest],
  ['X402SwapQuoteRequest', SwapQuoteRequest],
  ['X402InvoiceRequest', InvoiceRequest],
  ['X402WatchRequest', WatchRequest],
  ['X402ReceiveRequest', ReceiveRequest],
  ['X402SendRequest', SendRequest],
  ['X402BatchTransfer', BatchTransfer],
  ['X402BatchSendRequest', BatchSendRequest],
  ['X402SwapExecuteRequest', SwapExecuteRequest],
  ['X402RpcRequest', RpcRequest],
] as const satisfies ReadonlyArray<readonly [string, z.ZodType]>;

/** Spec defaults of optional request fields (the schemas leave defaults to the service). */
export const X402_REQUEST_AUGMENT = new Map<z.ZodType, JsonSchema>([
  [InvoiceRequest.shape.expires_in_seconds.unwrap(), { default: 3600 }],
  [ReceiveRequest.shape.tolerance_pct.unwrap(), { default: 0 }],
  [ReceiveRequest.shape.timeout_seconds.unwrap(), { default: 300 }],
  [SwapExecuteRequest.shape.slippage_pct.unwrap(), { default: 0.5 }],
]);

/** `x402Rpc`: the spec's 200 is a JSON object that varies by method. */
export const RpcResponse = z.record(z.string(), z.unknown());

/** The x402 v2 challenge: body of a 402 and (base64) its PAYMENT-REQUIRED header. */
export const PaymentRequired = PaymentRequiredV2.extend({ accepts: z.array(PaymentRequirementsV2).min(1) });

/** Result schemas of the paid API (inside `{ data }`), converted with io 'output'. */
export const X402_RESPONSES = [
  ['X402PriceEntry', X402PriceEntry],
  ['X402Trc20Balance', Trc20Balance],
  ['X402Account', X402Account],
  ['X402Estimate', Estimate],
  ['X402SwapQuote', SwapQuote],
  ['X402NetworkInfo', NetworkInfo],
  ['X402Invoice', Invoice],
  ['X402Watch', Watch],
  ['X402Receive', Receive],
  ['X402SendResult', SendResult],
  ['X402BatchSendResult', BatchSendResult],
  ['X402SwapExecution', SwapExecution],
  ['X402RpcResult', RpcResponse],
  ['X402ResourceInfo', ResourceInfo],
  ['X402PaymentRequirements', PaymentRequirementsV2],
  ['X402PaymentRequired', PaymentRequired],
  ['X402SettlementResponse', SettlementResponse],
] as const satisfies ReadonlyArray<readonly [string, z.ZodType]>;

/** Replacements in the paid API's results where the shared schema is wider than the spec. */
export const X402_RESPONSE_REPLACE = new Map<z.ZodType, JsonSchema>([
  // Decimal amounts are strings on the wire (the SDK also takes numbers).
  [Estimate.shape.cost_trx, { type: 'string' }],
  // Spec: "Allowed status values: not shown".
  [Watch.shape.status, { type: 'string' }],
  // Not shown by the spec (the field name itself is the mock's); decimal string or number.
  [Trc20Balance.shape.balance, { type: 'string' }],
]);

// ---- documentation ----

const ORDER_FIELDS = {
  id: 'Order UUID.',
  status: 'PENDING, EXECUTING, FILLED or FAILED.',
  resource_type: 'ENERGY or BANDWIDTH.',
  order_type: 'MARKET, LIMIT, PERIODIC or BROADCAST.',
  amount: 'Requested resource units.',
  duration_sec: 'Rental duration in seconds.',
  target_address: 'Receiving TRON address (base58).',
  max_price_sun: 'Max price per unit in SUN, when given.',
  created_at: 'ISO 8601.',
};
const LIST_FIELDS = { ...ORDER_FIELDS, filled_at: 'Completion time (ISO 8601); null until filled.' };

/** Descriptions of response fields, from the spec's resource tables (component -> property -> text). */
export const FIELD_DESCRIPTIONS: Record<string, Record<string, string>> = {
  ApiKeyCreated: {
    id: 'Key identifier.',
    name: 'Label given at creation.',
    key: 'Full secret key, prefix `sk_live_`; returned only in the creation response.',
    permissions: 'Subset of create_orders, view_orders, view_balance, broadcast.',
    created_at: 'ISO 8601.',
  },
  KeyRevoked: { revoked: 'Always true: the key is invalid at once and irreversibly.' },
  PricePoint: { duration_sec: 'Seconds.', price_sun: 'SUN per unit of resource for that duration.' },
  ProviderPrice: {
    provider: 'Provider identifier.',
    is_market: 'True if the provider runs a marketplace model.',
    energy_prices: 'Price tiers per duration.',
    bandwidth_prices: 'Price tiers per duration; may be empty.',
    available_energy: 'Units currently available.',
    available_bandwidth: 'Units currently available.',
    fetched_at: 'Time of the last successful fetch (ISO 8601).',
  },
  PreviewOption: { price_sun: 'SUN per unit.', duration_sec: 'The matched duration, seconds.' },
  Preview: {
    best: 'The cheapest matching provider; null when none can fulfil the request.',
    fallbacks: 'The other matching providers, sorted by price.',
    no_providers: 'True when no provider can fulfil the request.',
  },
  Fill: {
    provider: 'Provider that executed the fill.',
    amount: 'Units delivered.',
    price_sun: 'Price per unit in SUN.',
    cost_sun: 'Total cost of the fill in SUN.',
    tx_id: 'On-chain transaction hash.',
    status: 'CONFIRMED or FAILED.',
    verified: 'True once a verifier has confirmed the delegation on-chain; may be false briefly after the fill.',
    tronscan_url: 'Link to the transaction in a block explorer.',
  },
  OrderCreated: ORDER_FIELDS,
  OrderListItem: LIST_FIELDS,
  OrderList: { orders: 'Orders in list shape.', total: 'Number of orders matching the filter.' },
  Order: {
    ...LIST_FIELDS,
    total_cost_sun: 'Total cost in SUN; set after fill.',
    total_fee_sun: 'Fee in SUN; currently 0 (0% commission).',
    fills: 'Provider executions; a BROADCAST order may have several.',
  },
  Balance: {
    trx: 'Available TRX in SUN.',
    usdt: 'Available USDT in SUN-equivalent units (6 decimals).',
    trx_locked: 'TRX locked in pending operations, in SUN.',
  },
  HistoryFill: {
    id: 'Fill identifier.',
    order_id: 'Parent order.',
    amount: 'Resource units.',
    price_sun: 'Per unit, SUN.',
    cost_sun: 'Total, SUN.',
    tx_id: 'On-chain hash.',
    created_at: 'ISO 8601.',
    confirmed_at: 'On-chain confirmation time (ISO 8601).',
  },
  HistorySummary: { total_energy: 'Energy units.', total_spent_sun: 'SUN.', avg_price_sun: 'SUN per energy unit.' },
  PreparedDeposit: {
    address: 'Platform deposit address.',
    memo: 'Unique user memo.',
    amount_sun: 'SUN.',
    memo_hex: 'The memo as hex, for the transaction’s data field.',
    note: 'Signing instructions.',
  },
  SubmittedDeposit: { status: '`pending` until the deposit is credited.' },
  Withdrawal: { status: 'PENDING, COMPLETED or FAILED.', amount: 'SUN.', currency: 'TRX or USDT.', address: 'Destination TRON address.' },
  WebhookCreated: {
    user_id: 'Owner.',
    url: 'Registered HTTPS endpoint.',
    events: 'Subscribed event types.',
    secret: '64 hex characters: the HMAC-SHA256 signing secret; returned only at creation.',
  },
  Webhook: { user_id: 'Owner.', url: 'Registered HTTPS endpoint.', events: 'Subscribed event types.' },
  X402PriceEntry: { price_sun: 'SUN per unit.', available: 'Units available.' },
  X402Account: { balance: 'TRX balance in SUN.', trc20_balances: 'TRC-20 balances (the field’s name is not shown by the spec).' },
  X402Estimate: { cost_trx: 'Decimal TRX.' },
  X402Watch: { expires_at: 'End of the watch, 24 hours after creation.' },
};
