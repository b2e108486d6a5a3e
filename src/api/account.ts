/**
 * The account API (`/api/v1`): one entry per operation. See `./types.ts` for what each field
 * means and `./endpoints.ts` for the combined table.
 *
 * Kept apart from the x402 table so `import 'trx-rent'` loads only these schemas.
 * @module
 */
import * as z from 'zod';
import { ApiKey, CreateKeyRequest, RevokeKeyResponse } from '../schemas/keys.js';
import { BestPriceQuery, PriceEntry, PriceHistory, PriceHistoryQuery, PriceList, PriceStats, Preview, PreviewQuery } from '../schemas/prices.js';
import { CreateOrderRequest, ListOrdersQuery, Order, OrderId, OrderList } from '../schemas/orders.js';
import { Balance } from '../schemas/balance.js';
import { HistoryList, HistoryQuery, HistorySummary } from '../schemas/history.js';
import { DepositInfo, PrepareDepositRequest, PreparedDeposit, SubmitDepositRequest, SubmitDepositResponse } from '../schemas/deposits.js';
import { CreateWithdrawalRequest, Withdrawal } from '../schemas/withdrawals.js';
import { CreateWebhookRequest, DeleteWebhookResponse, Webhook, WebhookList } from '../schemas/webhooks.js';
import { BroadcastRequest, BroadcastResponse } from '../schemas/transactions.js';
import { LIMITS } from '../schemas/limits.js';
import { type EndpointDef, withIds } from './types.js';

const IdParam = z.strictObject({ id: z.string().min(1, 'is required') });

const VALIDATION_422 = { code: 'VALIDATION_ERROR', status: 422, when: 'the request failed validation (the field is named in details)' } as const;
const NOT_FOUND = (what: string) => ({ code: 'NOT_FOUND', status: 404, when: `the ${what} does not exist` }) as const;

/** Every operation of the account API, keyed by id. */
export const ACCOUNT_ENDPOINTS = withIds({
  // ---- keys ----
  createKey: {
    api: 'account',
    method: 'POST',
    path: '/api/v1/keys',
    summary: 'Create an API key; its secret is shown only in this response',
    auth: 'account',
    rateGroup: 'other',
    idempotent: false,
    body: CreateKeyRequest,
    response: ApiKey,
    status: 201,
    errors: [VALIDATION_422, { code: 'FORBIDDEN', status: 403, when: 'a key asks to grant a permission it does not hold' }],
    source: 'spec',
    sdk: 'keys.create',
  },
  revokeKey: {
    api: 'account',
    method: 'DELETE',
    path: '/api/v1/keys/{id}',
    summary: 'Revoke an API key, at once and irreversibly',
    auth: 'account',
    rateGroup: 'other',
    idempotent: false,
    params: IdParam,
    response: RevokeKeyResponse,
    status: 200,
    errors: [{ code: 'NOT_FOUND', status: 404, when: 'the key does not exist or is already revoked' }],
    source: 'spec',
    sdk: 'keys.revoke',
  },

  // ---- prices and preview ----
  listPrices: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/prices',
    summary: "Every provider's price tiers (refreshed every 30 s)",
    auth: 'public',
    rateGroup: 'prices',
    idempotent: false,
    response: PriceList,
    status: 200,
    errors: [],
    source: 'spec',
    sdk: 'prices.list',
  },
  getBestPrice: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/prices/best',
    summary: 'The cheapest online provider for a resource',
    auth: 'public',
    rateGroup: 'prices',
    idempotent: false,
    query: BestPriceQuery,
    response: PriceEntry,
    status: 200,
    errors: [VALIDATION_422, { code: 'PROVIDER_UNAVAILABLE', status: 503, when: 'no online provider offers the resource' }],
    source: 'live-service',
    sdk: 'prices.best',
  },
  getPriceHistory: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/prices/history',
    summary: 'Past provider prices over a period',
    auth: 'public',
    rateGroup: 'prices',
    idempotent: false,
    query: PriceHistoryQuery,
    response: PriceHistory,
    status: 200,
    errors: [VALIDATION_422],
    source: 'live-service',
    sdk: 'prices.history',
  },
  getPriceStats: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/prices/stats',
    summary: 'Market statistics: best and average price, providers, cheapest changes',
    auth: 'public',
    rateGroup: 'prices',
    idempotent: false,
    response: PriceStats,
    status: 200,
    errors: [],
    source: 'live-service',
    sdk: 'prices.stats',
  },
  previewOrder: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/orders/preview',
    // The spec does not say whether preview needs credentials; it places nothing, so it is public.
    summary: 'What an order would cost now; places nothing',
    auth: 'public',
    rateGroup: 'other',
    idempotent: false,
    query: PreviewQuery,
    response: Preview,
    status: 200,
    errors: [VALIDATION_422],
    source: 'spec',
    sdk: 'orders.preview',
  },

  // ---- orders ----
  createOrder: {
    api: 'account',
    method: 'POST',
    path: '/api/v1/orders',
    summary: 'Place an order for energy or bandwidth',
    auth: 'create_orders',
    rateGroup: 'orders',
    idempotent: true,
    requiresJsonContentType: true,
    body: CreateOrderRequest,
    response: Order,
    status: 201,
    errors: [
      { code: 'VALIDATION_ERROR', status: 400, when: 'the body failed validation, e.g. energy below 65000 (details {field, min})' },
      { code: 'INSUFFICIENT_BALANCE', status: 402, when: 'the balance is too low' },
      { code: 'INVALID_ADDRESS', status: 422, when: 'target_address is not a TRON address' },
      { code: 'BELOW_MINIMUM_ORDER', status: 422, when: "the amount is below every provider's minimum" },
      { code: 'PRICE_EXCEEDED', status: 422, when: 'the current price is above max_price_sun' },
      { code: 'DUPLICATE_REQUEST', status: 409, when: 'the Idempotency-Key was used with other parameters, or is in flight' },
      { code: 'PROVIDER_UNAVAILABLE', status: 503, when: 'no provider can fulfil the order' },
    ],
    source: 'spec',
    sdk: 'orders.create',
  },
  listOrders: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/orders',
    summary: 'One page of orders, newest first (offset pagination)',
    auth: 'view_orders',
    rateGroup: 'orders',
    idempotent: false,
    query: ListOrdersQuery,
    response: OrderList,
    status: 200,
    errors: [VALIDATION_422],
    pagination: {
      style: 'offset',
      items: 'orders',
      total: 'total',
      offset: 'offset',
      limit: 'limit',
      itemId: 'id',
      defaultLimit: LIMITS.ORDER_LIST_DEFAULT_LIMIT,
      maxLimit: LIMITS.ORDER_LIST_MAX_LIMIT,
    },
    source: 'spec',
    sdk: 'orders.list',
  },
  getOrder: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/orders/{id}',
    summary: 'The full order with its fills',
    auth: 'view_orders',
    // Only listOrders and createOrder share the orders group; this is one of "all other endpoints".
    rateGroup: 'other',
    idempotent: false,
    params: z.strictObject({ id: OrderId }),
    response: Order,
    status: 200,
    errors: [NOT_FOUND('order')],
    source: 'spec',
    sdk: 'orders.get',
  },

  // ---- account ----
  getBalance: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/balance',
    summary: 'Available TRX and USDT, and TRX locked in open orders (SUN)',
    auth: 'view_balance',
    rateGroup: 'balance',
    idempotent: false,
    response: Balance,
    status: 200,
    errors: [],
    source: 'spec',
    sdk: 'balance.get',
  },
  listHistory: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/history',
    summary: 'Fills in a period (default 7D), newest first',
    auth: 'view_balance',
    rateGroup: 'history',
    idempotent: false,
    query: HistoryQuery,
    response: HistoryList,
    status: 200,
    errors: [VALIDATION_422],
    source: 'spec',
    sdk: 'history.list',
  },
  getHistorySummary: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/history/summary',
    // The spec lists no permission for the summary: any authenticated caller.
    summary: 'Spending totals over the whole account',
    auth: 'account',
    rateGroup: 'history',
    idempotent: false,
    response: HistorySummary,
    status: 200,
    errors: [],
    source: 'spec',
    sdk: 'history.summary',
  },

  // ---- deposits ----
  getDepositInfo: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/deposit/info',
    summary: 'Address and memo for a manual TRX deposit',
    auth: 'account',
    rateGroup: 'other',
    idempotent: false,
    response: DepositInfo,
    status: 200,
    errors: [],
    source: 'live-service',
    sdk: 'deposits.info',
  },
  prepareDeposit: {
    api: 'account',
    method: 'POST',
    path: '/api/v1/deposit/prepare',
    summary: 'The platform address and your memo (and its hex) for a deposit transfer',
    auth: 'account',
    rateGroup: 'other',
    idempotent: false,
    body: PrepareDepositRequest,
    response: PreparedDeposit,
    status: 200,
    errors: [VALIDATION_422],
    source: 'spec',
    sdk: 'deposits.prepare',
  },
  submitDeposit: {
    api: 'account',
    method: 'POST',
    path: '/api/v1/deposit/submit',
    summary: 'Submit a signed TRX transfer carrying your memo',
    auth: 'public',
    rateGroup: 'other',
    idempotent: false,
    body: SubmitDepositRequest,
    response: SubmitDepositResponse,
    status: 200,
    errors: [
      { code: 'VALIDATION_ERROR', status: 400, when: 'missing memo, wrong destination or invalid format' },
      { code: 'BROADCAST_FAILED', status: 502, when: 'the network rejects the transaction' },
    ],
    source: 'spec',
    sdk: 'deposits.submit',
  },

  // ---- withdrawals ----
  createWithdrawal: {
    api: 'account',
    method: 'POST',
    path: '/api/v1/withdraw',
    summary: 'Withdraw TRX or USDT from the balance to an address',
    // The spec lists only authentication for withdrawals (no permission).
    auth: 'account',
    rateGroup: 'withdraw',
    idempotent: true,
    body: CreateWithdrawalRequest,
    response: Withdrawal,
    status: 200,
    errors: [
      // The spec gives INSUFFICIENT_BALANCE 400 both for a short balance and for an invalid address.
      { code: 'INSUFFICIENT_BALANCE', status: 400, when: 'the available balance is below the amount, or the address is invalid' },
      VALIDATION_422,
      { code: 'DUPLICATE_REQUEST', status: 409, when: 'the Idempotency-Key was used with other parameters, or is in flight' },
    ],
    source: 'spec',
    sdk: 'withdrawals.create',
  },

  // ---- webhooks ----
  createWebhook: {
    api: 'account',
    method: 'POST',
    path: '/api/v1/webhooks',
    summary: 'Register a webhook endpoint; its secret is shown only here',
    auth: 'account',
    rateGroup: 'other',
    idempotent: false,
    body: CreateWebhookRequest,
    response: Webhook,
    status: 201,
    errors: [VALIDATION_422],
    source: 'spec',
    sdk: 'webhooks.create',
  },
  listWebhooks: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/webhooks',
    summary: 'Registered webhooks (without secrets)',
    auth: 'account',
    rateGroup: 'other',
    idempotent: false,
    response: WebhookList,
    status: 200,
    errors: [],
    source: 'live-service',
    sdk: 'webhooks.list',
  },
  deleteWebhook: {
    api: 'account',
    method: 'DELETE',
    path: '/api/v1/webhooks/{id}',
    summary: 'Delete a webhook',
    auth: 'account',
    rateGroup: 'other',
    idempotent: false,
    params: IdParam,
    response: DeleteWebhookResponse,
    status: 200,
    errors: [NOT_FOUND('webhook')],
    source: 'live-service',
    sdk: 'webhooks.delete',
  },

  // ---- transactions ----
  broadcastTransaction: {
    api: 'account',
    method: 'POST',
    path: '/api/v1/broadcast',
    // The spec names the endpoint and its permission only; body and answer follow deposit submit.
    summary: 'Broadcast a signed TRON transaction',
    auth: 'broadcast',
    rateGroup: 'other',
    idempotent: false,
    body: BroadcastRequest,
    response: BroadcastResponse,
    status: 200,
    errors: [
      { code: 'VALIDATION_ERROR', status: 400, when: 'the transaction is malformed or its signature does not verify' },
      { code: 'BROADCAST_FAILED', status: 502, when: 'the network refuses the transaction (expired, unknown reference block, contract error)' },
    ],
    source: 'natural-design',
    sdk: 'transactions.broadcast',
  },
} satisfies Record<string, EndpointDef>);

/** Ids of the account API's operations. */
export type AccountEndpointId = keyof typeof ACCOUNT_ENDPOINTS;
