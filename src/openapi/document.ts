/**
 * The service contract as an OpenAPI 3.1 document, generated from the shared zod schemas: every
 * route of the account API (`/api/v1`) and of the pay-per-call API (`/x402/tron`), with their
 * parameters, request bodies, success responses, the error envelope for the statuses the spec
 * gives, the security schemes (X-API-Key, Bearer JWT, the x402 payment header) and the x402
 * challenge (402 with PAYMENT-REQUIRED) on paid routes.
 *
 * Where the spec says "not shown" and the live service's official clients show the endpoint
 * (production notes), the operation carries `x-trx-rent-source: live-service`; where only
 * trx-rent's mock defines the shape, `x-trx-rent-source: mock`.
 *
 * `scripts/openapi.mjs` writes it to `dist/openapi.json` (shipped as `trx-rent/openapi.json`).
 *
 * @module
 */
import * as z from 'zod';
import { ENDPOINTS } from '../api/endpoints.js';
import { LIMITS } from '../schemas/limits.js';
import { OrderId, ListOrdersQuery } from '../schemas/orders.js';
import { BestPriceQuery, PriceHistoryQuery, PreviewQuery } from '../schemas/prices.js';
import { HistoryQuery } from '../schemas/history.js';
import { NetworkQuery, RpcMethodSchema, X402AccountParams, X402PricesQuery, X402_LIMITS } from '../schemas/x402.js';
import type { Permission } from '../schemas/keys.js';
import { ErrorCodeSchema } from '../schemas/errors.js';
import { HEADERS } from '../protocol/codec.js';
import {
  ACCOUNT_REQUESTS,
  ACCOUNT_RESPONSES,
  ACCOUNT_RESPONSE_REPLACE,
  ERROR_RESPONSES,
  X402_REQUESTS,
  X402_REQUEST_AUGMENT,
  X402_RESPONSES,
  X402_RESPONSE_REPLACE,
  FIELD_DESCRIPTIONS,
  errorWithCodes,
} from './components.js';
import { COMPONENT_PREFIX, type JsonSchema, convertComponents, convertSchema } from './json-schema.js';

/** An OpenAPI 3.1 document as plain JSON data. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: JsonSchema;
  servers: JsonSchema[];
  tags: JsonSchema[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, JsonSchema>;
    parameters: Record<string, JsonSchema>;
    headers: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
  [extension: `x-${string}`]: unknown;
}

/** Options of {@link buildOpenApiDocument}. */
export interface OpenApiDocumentOptions {
  /** `info.version`: the package version that generated the document. @default '0.0.0' */
  version?: string;
  /** Default of the `base_url` server variable. @default 'http://127.0.0.1:8787' (the mock) */
  serverUrl?: string;
}

type Method = 'get' | 'post' | 'delete';
/** Who may call: no credentials, optional credentials, any account credential, a key permission, or an x402 payment. */
type Auth = 'public' | 'optional' | 'account' | Permission | 'paid';

interface ParamInfo {
  description?: string;
  default?: unknown;
}

interface ResponseSpec {
  description: string;
  /** A component schema name, or an inline JSON Schema. */
  schema?: string | JsonSchema;
  headers?: Record<string, JsonSchema>;
}

interface OperationSpec {
  method: Method;
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  source?: 'live-service' | 'mock';
  auth: Auth;
  pathParams?: z.ZodObject;
  query?: z.ZodType;
  params?: Record<string, ParamInfo>;
  idempotent?: boolean;
  /** Component name of the JSON request body. */
  body?: string;
  /** Success responses by status. */
  ok: Record<number, ResponseSpec>;
  /** Error responses by status: a components/responses name or an inline spec. */
  errors?: Record<number, string | ResponseSpec>;
  /** x402 price: a fixed USD amount or a dynamic range. */
  price?: { usd: string } | { min_usd: string; max_usd: string };
}

const ref = (name: string) => ({ $ref: `${COMPONENT_PREFIX}${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
/** Component name of PAYMENT-RESPONSE on a paid 200, where it is required. */
const SETTLED = `${HEADERS.PAYMENT_RESPONSE}-settled`;

/** An inline error body allowing only `codes`. */
function errorsOf(description: string, codes: readonly [string, ...string[]]): ResponseSpec {
  return { description, schema: convertSchema(errorWithCodes(codes), { io: 'output' }) };
}

const FIXED = { usd: X402_LIMITS.FIXED_PRICE_USD };
const DYNAMIC = { min_usd: X402_LIMITS.DYNAMIC_MIN_USD, max_usd: X402_LIMITS.DYNAMIC_MAX_USD };

/** Every operation of the contract, in document order. */
const OPERATIONS: OperationSpec[] = [
  // ---- keys ----
  {
    method: 'post',
    path: ENDPOINTS.createKey.path,
    operationId: 'createKey',
    tag: 'Keys',
    summary: 'Create an API key',
    description: 'The full key (prefix `sk_live_`) appears only in this response. A key can grant only permissions its creator holds.',
    auth: 'account',
    body: 'CreateKeyRequest',
    ok: { 201: { description: 'The new key, with its secret.', schema: 'ApiKeyCreated' } },
    errors: { 403: 'Forbidden', 422: 'Unprocessable' },
  },
  {
    method: 'delete',
    path: ENDPOINTS.revokeKey.path,
    operationId: 'revokeKey',
    tag: 'Keys',
    summary: 'Revoke an API key',
    description: 'The key is invalid at once and irreversibly; later requests with it return 401.',
    auth: 'account',
    pathParams: z.object({ id: OrderId }),
    params: { id: { description: 'The key identifier.' } },
    ok: { 200: { description: 'Revoked.', schema: 'KeyRevoked' } },
    errors: { 404: 'NotFound' },
  },
  // ---- prices ----
  {
    method: 'get',
    path: ENDPOINTS.listPrices.path,
    operationId: 'listPrices',
    tag: 'Prices',
    summary: 'Prices of every active provider',
    description: 'Refreshed every 30 seconds.',
    auth: 'public',
    ok: { 200: { description: 'One entry per provider.', schema: { type: 'array', items: ref('ProviderPrice') } } },
  },
  {
    method: 'get',
    path: ENDPOINTS.getBestPrice.path,
    operationId: 'getBestPrice',
    tag: 'Prices',
    summary: 'The best current price',
    description: 'Not shown by the spec; follows the live service.',
    source: 'live-service',
    auth: 'public',
    query: BestPriceQuery,
    params: { resource: { description: 'ENERGY or BANDWIDTH.' }, amount: { description: 'Units wanted; providers that cannot deliver them are skipped.' } },
    ok: { 200: { description: 'The cheapest online provider.', schema: 'PriceEntry' } },
    errors: { 422: 'Unprocessable', 503: errorsOf('No online provider offers the resource, or platform maintenance.', ['PROVIDER_UNAVAILABLE', 'MAINTENANCE']) },
  },
  {
    method: 'get',
    path: ENDPOINTS.getPriceHistory.path,
    operationId: 'getPriceHistory',
    tag: 'Prices',
    summary: 'Price history',
    description: 'Not shown by the spec; follows the live service.',
    source: 'live-service',
    auth: 'public',
    query: PriceHistoryQuery,
    params: { provider: { description: 'One provider only.' }, resource: { description: 'ENERGY or BANDWIDTH.' }, period: { description: 'How far back.' } },
    ok: { 200: { description: 'Polled prices, one entry per provider and poll.', schema: { type: 'array', items: ref('PriceEntry') } } },
    errors: { 422: 'Unprocessable' },
  },
  {
    method: 'get',
    path: ENDPOINTS.getPriceStats.path,
    operationId: 'getPriceStats',
    tag: 'Prices',
    summary: 'Market statistics',
    description: 'Not shown by the spec; follows the live service.',
    source: 'live-service',
    auth: 'public',
    ok: { 200: { description: 'Statistics over the providers.', schema: 'PriceStats' } },
  },
  // ---- orders ----
  {
    method: 'get',
    path: ENDPOINTS.previewOrder.path,
    operationId: 'previewOrder',
    tag: 'Orders',
    summary: 'Preview an order',
    description:
      'Uses the same provider selection as POST /orders and places no order. Whether authentication is required is not shown by the spec: credentials are accepted, not required.',
    auth: 'optional',
    query: PreviewQuery,
    params: {
      resource: { description: 'ENERGY or BANDWIDTH.' },
      amount: { description: `Resource units; at least ${LIMITS.MIN_ENERGY_AMOUNT} for energy.` },
      duration: { description: 'Rental duration in seconds.' },
      max_price_sun: { description: 'Providers above this price per unit (SUN) are excluded.' },
    },
    ok: { 200: { description: 'The best offer and the fallbacks, sorted by price.', schema: 'Preview' } },
    errors: { 422: 'Unprocessable' },
  },
  {
    method: 'post',
    path: ENDPOINTS.createOrder.path,
    operationId: 'createOrder',
    tag: 'Orders',
    summary: 'Create an order',
    description:
      'MARKET executes at once at the best price; LIMIT waits for a price at or below max_price_sun; PERIODIC re-executes at an interval; BROADCAST fills across several providers.',
    auth: 'create_orders',
    idempotent: true,
    body: 'CreateOrderRequest',
    ok: {
      201: { description: 'The order, status PENDING.', schema: 'OrderCreated' },
      200: {
        description: 'A replay of an earlier request with the same Idempotency-Key and body: the original response.',
        schema: 'OrderCreated',
        headers: { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') },
      },
    },
    errors: {
      400: errorsOf('The request failed validation (e.g. details {field, min} when an energy amount is below 65000).', ['VALIDATION_ERROR']),
      402: errorsOf('The balance is too low.', ['INSUFFICIENT_BALANCE']),
      403: 'Forbidden',
      409: 'DuplicateRequest',
      422: 'Unprocessable',
      503: errorsOf('No provider can fulfil the request, or platform maintenance.', ['PROVIDER_UNAVAILABLE', 'MAINTENANCE']),
    },
  },
  {
    method: 'get',
    path: ENDPOINTS.listOrders.path,
    operationId: 'listOrders',
    tag: 'Orders',
    summary: 'List orders',
    auth: 'view_orders',
    query: ListOrdersQuery,
    params: {
      status: { description: 'Only orders in this status.' },
      limit: { description: 'Page size.', default: LIMITS.ORDER_LIST_DEFAULT_LIMIT },
      offset: { description: 'Orders to skip.', default: 0 },
    },
    ok: { 200: { description: 'A page of orders and the number matching the filter.', schema: 'OrderList' } },
    errors: { 403: 'Forbidden', 422: 'Unprocessable' },
  },
  {
    method: 'get',
    path: ENDPOINTS.getOrder.path,
    operationId: 'getOrder',
    tag: 'Orders',
    summary: 'Get an order',
    auth: 'view_orders',
    pathParams: z.object({ id: OrderId }),
    params: { id: { description: 'The order UUID.' } },
    ok: { 200: { description: 'The full order, with its cost, fee and fills.', schema: 'Order' } },
    errors: { 403: 'Forbidden', 404: 'NotFound' },
  },
  // ---- account ----
  {
    method: 'get',
    path: ENDPOINTS.getBalance.path,
    operationId: 'getBalance',
    tag: 'Account',
    summary: 'Balances',
    auth: 'view_balance',
    ok: { 200: { description: 'Available and locked amounts (SUN).', schema: 'Balance' } },
    errors: { 403: 'Forbidden' },
  },
  {
    method: 'get',
    path: ENDPOINTS.listHistory.path,
    operationId: 'listHistory',
    tag: 'Account',
    summary: 'Fills in a period',
    auth: 'view_balance',
    query: HistoryQuery,
    params: { period: { description: 'How far back.', default: '7D' } },
    ok: { 200: { description: 'Fills, newest created_at first.', schema: { type: 'array', items: ref('HistoryFill') } } },
    errors: { 403: 'Forbidden', 422: 'Unprocessable' },
  },
  {
    method: 'get',
    path: ENDPOINTS.getHistorySummary.path,
    operationId: 'getHistorySummary',
    tag: 'Account',
    summary: 'Totals over the whole account',
    auth: 'account',
    ok: { 200: { description: 'Totals.', schema: 'HistorySummary' } },
  },
  // ---- deposits ----
  {
    method: 'get',
    path: ENDPOINTS.getDepositInfo.path,
    operationId: 'getDepositInfo',
    tag: 'Deposits',
    summary: 'Manual TRX deposit details',
    description: 'Not shown by the spec; follows the live service.',
    source: 'live-service',
    auth: 'account',
    ok: { 200: { description: 'Where to send TRX and the memo to put in the transfer.', schema: 'DepositInfo' } },
  },
  {
    method: 'post',
    path: ENDPOINTS.prepareDeposit.path,
    operationId: 'prepareDeposit',
    tag: 'Deposits',
    summary: 'Prepare a deposit',
    auth: 'account',
    body: 'PrepareDepositRequest',
    ok: { 200: { description: 'The deposit address and the memo to sign into the transfer.', schema: 'PreparedDeposit' } },
    errors: { 422: 'Unprocessable' },
  },
  {
    method: 'post',
    path: ENDPOINTS.submitDeposit.path,
    operationId: 'submitDeposit',
    tag: 'Deposits',
    summary: 'Submit a signed deposit transaction',
    description:
      'Checked before broadcast: destination is the platform deposit address, the data field holds a valid memo of a registered user, and the transaction is a valid signed TRX transfer.',
    auth: 'public',
    body: 'SubmitDepositRequest',
    ok: { 200: { description: 'Broadcast; status pending until credited.', schema: 'SubmittedDeposit' } },
    errors: {
      400: errorsOf('Missing memo, wrong destination or invalid format.', ['VALIDATION_ERROR']),
      502: errorsOf('The network rejected the transaction.', ['BROADCAST_FAILED']),
    },
  },
  // ---- withdrawals ----
  {
    method: 'post',
    path: ENDPOINTS.createWithdrawal.path,
    operationId: 'createWithdrawal',
    tag: 'Withdrawals',
    summary: 'Withdraw',
    description: `Amount in SUN, at least ${LIMITS.MIN_WITHDRAWAL_SUN}. Limited to 5 requests per minute per IP.`,
    auth: 'account',
    idempotent: true,
    body: 'CreateWithdrawalRequest',
    ok: {
      200: {
        description: 'The withdrawal, status PENDING (also the replay of an earlier request with the same Idempotency-Key and body).',
        schema: 'Withdrawal',
        headers: { 'Idempotent-Replayed': headerRef('Idempotent-Replayed') },
      },
    },
    errors: {
      400: errorsOf('The available balance is below the amount, or the address is invalid.', ['INSUFFICIENT_BALANCE']),
      409: 'DuplicateRequest',
      422: 'Unprocessable',
    },
  },
  // ---- webhooks ----
  {
    method: 'post',
    path: ENDPOINTS.createWebhook.path,
    operationId: 'createWebhook',
    tag: 'Webhooks',
    summary: 'Register a webhook',
    description: 'Deliveries carry `X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body, keyed with the secret>`.',
    auth: 'account',
    body: 'CreateWebhookRequest',
    ok: { 201: { description: 'The webhook with its secret (64 hex characters), shown only here.', schema: 'WebhookCreated' } },
    errors: { 422: 'Unprocessable' },
  },
  {
    method: 'get',
    path: ENDPOINTS.listWebhooks.path,
    operationId: 'listWebhooks',
    tag: 'Webhooks',
    summary: 'List webhooks',
    description: 'Not shown by the spec; follows the live service. Secrets are not included.',
    source: 'live-service',
    auth: 'account',
    ok: { 200: { description: 'The account’s webhooks.', schema: { type: 'array', items: ref('Webhook') } } },
  },
  {
    method: 'delete',
    path: ENDPOINTS.deleteWebhook.path,
    operationId: 'deleteWebhook',
    tag: 'Webhooks',
    summary: 'Delete a webhook',
    description: 'Not shown by the spec; follows the live service.',
    source: 'live-service',
    auth: 'account',
    pathParams: z.object({ id: OrderId }),
    params: { id: { description: 'The webhook identifier.' } },
    ok: { 200: { description: 'Deleted.', schema: 'WebhookDeleted' } },
    errors: { 404: 'NotFound' },
  },
  // ---- broadcast ----
  {
    method: 'post',
    path: ENDPOINTS.broadcastTransaction.path,
    operationId: 'broadcastTransaction',
    tag: 'Broadcast',
    summary: 'Broadcast a signed transaction',
    description:
      'The spec names the endpoint and its permission but shows neither request nor response; this is a natural design after deposit submit. Broadcasting the same transaction again answers the same tx_id, so a retry is safe.',
    source: 'mock',
    auth: 'broadcast',
    body: 'BroadcastRequest',
    ok: { 200: { description: 'Broadcast.', schema: 'BroadcastResult' } },
    errors: {
      400: errorsOf('A malformed transaction, or a signature that does not verify.', ['VALIDATION_ERROR']),
      403: 'Forbidden',
      502: errorsOf('The network rejected the transaction.', ['BROADCAST_FAILED']),
    },
  },
  // ---- pay-per-call ----
  paid('get', ENDPOINTS.x402Prices.path, 'x402Prices', 'Live energy and bandwidth prices', FIXED, {
    query: X402PricesQuery,
    params: { resource: { description: 'ENERGY or BANDWIDTH; all when absent.' } },
    result: { type: 'array', items: ref('X402PriceEntry') },
    description: 'Aggregated from several providers, updated every 30 seconds.',
  }),
  paid('get', ENDPOINTS.x402Account.path, 'x402Account', 'Account balances and resources', FIXED, {
    pathParams: X402AccountParams,
    params: { address: { description: 'TRON address (base58).' } },
    result: ref('X402Account'),
  }),
  paid('post', ENDPOINTS.x402Estimate.path, 'x402Estimate', 'Estimate energy and bandwidth of a transaction', FIXED, { body: 'X402EstimateRequest', result: ref('X402Estimate') }),
  paid('post', ENDPOINTS.x402SwapQuote.path, 'x402SwapQuote', 'Token swap quote', FIXED, { body: 'X402SwapQuoteRequest', result: ref('X402SwapQuote') }),
  paid('get', ENDPOINTS.x402Network.path, 'x402Network', 'Chain parameters', FIXED, {
    query: NetworkQuery,
    params: { format: { description: 'full or summary.', default: 'full' } },
    result: ref('X402NetworkInfo'),
    description: 'Energy price, bandwidth cost, maintenance schedule; the individual fields are not shown by the spec.',
  }),
  paid('post', ENDPOINTS.x402Invoice.path, 'x402Invoice', 'Create a USDT invoice', FIXED, {
    body: 'X402InvoiceRequest',
    result: ref('X402Invoice'),
    description: 'Payments to the invoice are detected automatically.',
  }),
  paid('post', ENDPOINTS.x402Watch.path, 'x402Watch', 'Watch an address for incoming TRC-20 transfers', FIXED, {
    body: 'X402WatchRequest',
    result: ref('X402Watch'),
    description: 'A webhook fires on each matching transfer during the 24 hours the watch lasts.',
  }),
  paid('post', ENDPOINTS.x402Receive.path, 'x402Receive', 'Wait for one expected payment', FIXED, {
    body: 'X402ReceiveRequest',
    result: ref('X402Receive'),
    description: 'A one-time watch; the webhook fires when the payment is detected.',
  }),
  paid('post', ENDPOINTS.x402Send.path, 'x402Send', 'Broadcast a pre-signed USDT transfer', DYNAMIC, {
    body: 'X402SendRequest',
    result: ref('X402SendResult'),
    description: 'Estimates energy and bandwidth, buys the missing amount from the cheapest provider, and broadcasts.',
  }),
  paid('post', ENDPOINTS.x402SendBatch.path, 'x402SendBatch', 'Broadcast up to 50 pre-signed transfers', DYNAMIC, {
    body: 'X402BatchSendRequest',
    result: ref('X402BatchSendResult'),
  }),
  paid('post', ENDPOINTS.x402SwapExecute.path, 'x402SwapExecute', 'Execute a token swap', DYNAMIC, {
    body: 'X402SwapExecuteRequest',
    result: ref('X402SwapExecution'),
    description: 'Energy is provided automatically.',
  }),
  paid('post', ENDPOINTS.x402Rpc.path, 'x402Rpc', 'Whitelisted TRON node call', FIXED, {
    pathParams: z.object({ method: RpcMethodSchema }),
    params: {
      method: {
        description:
          'The node method. Its slash may be sent as is (`/x402/tron/rpc/wallet/getnowblock`) or percent-encoded (`wallet%2Fgetnowblock`).',
      },
    },
    body: 'X402RpcRequest',
    result: ref('X402RpcResult'),
    description: 'Request and response bodies vary by method (not shown by the spec).',
  }),
];

function paid(
  method: Method,
  path: string,
  operationId: string,
  summary: string,
  price: NonNullable<OperationSpec['price']>,
  spec: { query?: z.ZodType; pathParams?: z.ZodObject; params?: Record<string, ParamInfo>; body?: string; result: JsonSchema; description?: string },
): OperationSpec {
  const priceText = 'usd' in price ? `${price.usd} USD per call` : `${price.min_usd} to ${price.max_usd} USD per call, by the work the request causes`;
  return {
    method,
    path,
    operationId,
    tag: 'Pay-per-call',
    summary,
    description: `${spec.description ? `${spec.description} ` : ''}Price: ${priceText}. A call without a valid payment answers 402 with the challenge.`,
    auth: 'paid',
    ...(spec.query ? { query: spec.query } : {}),
    ...(spec.pathParams ? { pathParams: spec.pathParams } : {}),
    ...(spec.params ? { params: spec.params } : {}),
    ...(spec.body ? { body: spec.body } : {}),
    price,
    ok: {
      200: {
        description: 'The result in `{ data }`, with the settlement in PAYMENT-RESPONSE.',
        schema: { type: 'object', properties: { data: spec.result }, required: ['data'], additionalProperties: false },
        headers: { [HEADERS.PAYMENT_RESPONSE]: headerRef(SETTLED) },
      },
    },
  };
}

const TAGS: JsonSchema[] = [
  { name: 'Keys', description: 'API keys and their permissions.' },
  { name: 'Prices', description: 'Provider prices, polled every 30 seconds.' },
  { name: 'Orders', description: 'Renting energy and bandwidth.' },
  { name: 'Account', description: 'Balances and spending history.' },
  { name: 'Deposits', description: 'TRX deposits by on-chain transfer with a per-user memo.' },
  { name: 'Withdrawals', description: 'Withdrawals to a TRON address.' },
  { name: 'Webhooks', description: 'Order, deposit and withdrawal events.' },
  { name: 'Broadcast', description: 'Broadcasting signed transactions (permission broadcast).' },
  { name: 'Pay-per-call', description: 'The x402 API under /x402/tron: each call is paid with a stablecoin payment, no account.' },
];

const base64Json = (schema: string, description: string): JsonSchema => ({
  description,
  schema: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/json', contentSchema: ref(schema) },
});

function headers(): Record<string, JsonSchema> {
  const integer = (description: string, required = false): JsonSchema => ({ description, required, schema: { type: 'integer', minimum: 0 } });
  return {
    'RateLimit-Limit': integer('Requests allowed per window in this endpoint group.'),
    'RateLimit-Remaining': integer('Requests left in the current window.'),
    'RateLimit-Reset': integer('Seconds until the window resets.'),
    'Retry-After': integer('Seconds to wait before retrying.', true),
    'Idempotent-Replayed': { description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key.', schema: { type: 'string', enum: ['true'] } },
    [HEADERS.PAYMENT_REQUIRED]: { ...base64Json('X402PaymentRequired', 'The x402 v2 challenge, base64 JSON: the same object as the body.'), required: true },
    [HEADERS.PAYMENT_RESPONSE]: base64Json('X402SettlementResponse', 'Why the payment failed, base64 JSON (`success: false`, `errorReason`).'),
    [SETTLED]: { ...base64Json('X402SettlementResponse', 'The settlement of the payment, base64 JSON (x402 v2; a v1 payment gets X-PAYMENT-RESPONSE instead).'), required: true },
  };
}

const RATE_HEADERS = { 'RateLimit-Limit': headerRef('RateLimit-Limit'), 'RateLimit-Remaining': headerRef('RateLimit-Remaining'), 'RateLimit-Reset': headerRef('RateLimit-Reset') };

function errorResponse(description: string, schema: string, extraHeaders?: Record<string, JsonSchema>): JsonSchema {
  return {
    description,
    ...(extraHeaders ? { headers: extraHeaders } : {}),
    content: { 'application/json': { schema: ref(schema) } },
  };
}

function sharedResponses(): Record<string, JsonSchema> {
  return {
    Unauthorized: errorResponse('Missing or invalid API key or JWT.', 'UnauthorizedError'),
    Forbidden: errorResponse('The API key lacks the permission.', 'ForbiddenError'),
    NotFound: errorResponse('The resource does not exist.', 'NotFoundError'),
    DuplicateRequest: errorResponse('The Idempotency-Key was already used with different parameters, or its first request is still in flight.', 'DuplicateRequestError'),
    Unprocessable: errorResponse(
      'The request failed validation or a business rule (the status the spec’s Errors table gives these codes; some endpoints use 400 or 402 instead).',
      'UnprocessableError',
    ),
    RateLimited: errorResponse('Too many requests from this IP address in the endpoint group.', 'RateLimitedError', { 'Retry-After': headerRef('Retry-After') }),
    Error: errorResponse('Any other error (500 INTERNAL_ERROR, 503 MAINTENANCE or PROVIDER_UNAVAILABLE, …) in the error envelope.', 'Error'),
    PaymentRequired: {
      description: 'Payment required: the x402 challenge (also the answer to a payment that did not verify, with PAYMENT-RESPONSE naming the reason).',
      headers: { [HEADERS.PAYMENT_REQUIRED]: headerRef(HEADERS.PAYMENT_REQUIRED), [HEADERS.PAYMENT_RESPONSE]: headerRef(HEADERS.PAYMENT_RESPONSE) },
      content: { 'application/json': { schema: ref('X402PaymentRequired') } },
    },
    PaidBadRequest: {
      description: 'The request failed validation (nothing is charged), or the payment header is malformed (INVALID_PAYMENT).',
      content: { 'application/json': { schema: convertSchema(errorWithCodes(['VALIDATION_ERROR', 'INVALID_ADDRESS', 'INVALID_PAYMENT']), { io: 'output' }) } },
    },
  };
}

function parameters(op: OperationSpec): JsonSchema[] {
  const out: JsonSchema[] = [];
  const add = (where: 'path' | 'query', schema: z.ZodType) => {
    const json = convertSchema(schema, { io: 'output' });
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, propertySchema] of Object.entries(properties)) {
      const info = op.params?.[name] ?? {};
      const schemaOut = info.default === undefined ? propertySchema : { ...propertySchema, default: info.default };
      out.push({
        name,
        in: where,
        required: where === 'path' ? true : required.has(name),
        ...(info.description ? { description: info.description } : {}),
        schema: schemaOut,
      });
    }
  };
  if (op.pathParams) add('path', op.pathParams);
  if (op.query) add('query', op.query);
  if (op.idempotent) out.push({ $ref: '#/components/parameters/IdempotencyKey' });
  return out;
}

function response(spec: ResponseSpec, extraHeaders: Record<string, JsonSchema>): JsonSchema {
  const allHeaders = { ...extraHeaders, ...spec.headers };
  return {
    description: spec.description,
    ...(Object.keys(allHeaders).length ? { headers: allHeaders } : {}),
    ...(spec.schema ? { content: { 'application/json': { schema: typeof spec.schema === 'string' ? ref(spec.schema) : spec.schema } } } : {}),
  };
}

function security(auth: Auth): JsonSchema[] {
  if (auth === 'public') return [];
  if (auth === 'paid') return [{ X402Payment: [] }, { X402PaymentV1: [] }];
  const credentials = [{ ApiKeyAuth: [] }, { BearerAuth: [] }];
  return auth === 'optional' ? [{}, ...credentials] : credentials;
}

function operation(op: OperationSpec): JsonSchema {
  const account = op.auth !== 'paid';
  const responses: Record<string, JsonSchema> = {};
  for (const [status, spec] of Object.entries(op.ok)) responses[status] = response(spec, account ? RATE_HEADERS : {});
  const errors: Record<string, JsonSchema> = {};
  if (op.auth === 'paid') {
    errors['400'] = responseRef('PaidBadRequest');
    errors['402'] = responseRef('PaymentRequired');
  } else if (op.auth !== 'public' && op.auth !== 'optional') {
    errors['401'] = responseRef('Unauthorized');
  }
  for (const [status, spec] of Object.entries(op.errors ?? {})) errors[status] = typeof spec === 'string' ? responseRef(spec) : response(spec, {});
  if (account) errors['429'] = responseRef('RateLimited');
  const sorted = Object.fromEntries(Object.entries({ ...responses, ...errors }).sort(([a], [b]) => Number(a) - Number(b)));
  const permission = op.auth !== 'public' && op.auth !== 'optional' && op.auth !== 'account' && op.auth !== 'paid' ? op.auth : undefined;
  const params = parameters(op);
  return {
    operationId: op.operationId,
    tags: [op.tag],
    summary: op.summary,
    ...(op.description || permission
      ? { description: [op.description, permission ? `API keys need the \`${permission}\` permission.` : undefined].filter(Boolean).join(' ') }
      : {}),
    security: security(op.auth),
    ...(params.length ? { parameters: params } : {}),
    ...(op.body ? { requestBody: { required: true, content: { 'application/json': { schema: ref(op.body) } } } } : {}),
    responses: { ...sorted, default: responseRef('Error') },
    ...(permission ? { 'x-permission': permission } : {}),
    ...(op.source ? { 'x-trx-rent-source': op.source } : {}),
    ...(op.price ? { 'x-x402-price': op.price } : {}),
  };
}

function componentSchemas(): Record<string, JsonSchema> {
  const parts: Record<string, JsonSchema>[] = [
    convertComponents(ACCOUNT_REQUESTS, { io: 'input' }),
    convertComponents(ACCOUNT_RESPONSES, { io: 'output', replace: ACCOUNT_RESPONSE_REPLACE }),
    convertComponents(ERROR_RESPONSES, { io: 'output', replace: new Map([[ErrorCodeSchema, { type: 'string' }]]) }),
    convertComponents(X402_REQUESTS, { io: 'input', augment: X402_REQUEST_AUGMENT }),
    convertComponents(X402_RESPONSES, { io: 'output', looseNumberAs: 'integer', replace: X402_RESPONSE_REPLACE }),
  ];
  const out: Record<string, JsonSchema> = {};
  for (const part of parts) {
    for (const [name, schema] of Object.entries(part)) {
      if (name in out) throw new Error(`OpenAPI component ${name} is defined twice`);
      out[name] = structuredClone(schema); // no object shared between places (descriptions are added below)
    }
  }
  for (const [name, fields] of Object.entries(FIELD_DESCRIPTIONS)) {
    const properties = out[name]?.properties as Record<string, JsonSchema> | undefined;
    for (const [field, text] of Object.entries(fields)) {
      const property = properties?.[field];
      if (!property) throw new Error(`OpenAPI: no field ${name}.${field} to describe`);
      property.description = text;
    }
  }
  return out;
}

/** Every operation of the contract as `METHOD /path/{param}` (e.g. `GET /api/v1/things/{id}`). */
export const OPERATION_KEYS: readonly string[] = OPERATIONS.map((op) => `${op.method.toUpperCase()} ${op.path}`);

/** Build the OpenAPI 3.1 document of the service: `/api/v1` and `/x402/tron`. */
export function buildOpenApiDocument(options: OpenApiDocumentOptions = {}): OpenApiDocument {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const op of OPERATIONS) {
    const item = (paths[op.path] ??= {});
    if (item[op.method]) throw new Error(`OpenAPI: ${op.method.toUpperCase()} ${op.path} is defined twice`);
    item[op.method] = operation(op);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'TRON energy rental service (account API and pay-per-call API)',
      version: options.version ?? '0.0.0',
      summary: 'The service contract trx-rent implements, generated from its zod schemas.',
      description: [
        'Two APIs under one base URL. The account API (`/api/v1`) rents TRON energy and bandwidth against a TRX/USDT balance, authenticated by an API key (`X-API-Key`) or a JWT (`Authorization: Bearer`). The pay-per-call API (`/x402/tron`) needs no account: each call is paid through the x402 protocol (USDC on Base, or USDT/USDC/USDD on TRON).',
        'Amounts are in SUN (1 TRX = 1,000,000 SUN) unless a field says otherwise. Errors use the envelope `{ "error": { "code", "message", "details"? } }`. Account-API success bodies are bare, as the spec shows; the live service may wrap them in `{ "data": … }`. Pay-per-call results are always in `{ "data": … }`.',
        'Response objects list the spec’s fields; further fields may appear and must be kept by clients. Operations marked `x-trx-rent-source: live-service` are not shown by the spec and follow the live service; `mock` ones follow trx-rent’s mock.',
      ].join('\n\n'),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: '{base_url}',
        description: 'The service, or trx-rent’s mock (`trx-rent mock`).',
        variables: { base_url: { default: options.serverUrl ?? 'http://127.0.0.1:8787', description: 'Origin of the service, no trailing slash.' } },
      },
    ],
    tags: TAGS,
    paths,
    components: {
      schemas: componentSchemas(),
      responses: sharedResponses(),
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'The same key with identical parameters within 24 hours returns the original response and creates nothing new; with different parameters, 409 DUPLICATE_REQUEST.',
          schema: { type: 'string', minLength: 1, maxLength: LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH },
        },
      },
      headers: headers(),
      securitySchemes: {
        ApiKeyAuth: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key, prefix `sk_live_`. Keys carry permissions.' },
        BearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A web-session JWT.' },
        X402Payment: {
          type: 'apiKey',
          in: 'header',
          name: HEADERS.PAYMENT_SIGNATURE,
          description: 'An x402 v2 payment payload (base64 JSON) signed for one of the offers of the 402 challenge.',
        },
        X402PaymentV1: { type: 'apiKey', in: 'header', name: HEADERS.X_PAYMENT, description: 'An x402 v1 payment payload (base64 JSON).' },
      },
    },
  };
}
