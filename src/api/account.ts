/**
 * The account API (`/api/v1`), machine half: one entry per operation with what a request and its
 * answer need (method, path, auth, rate-limit group, idempotency, schemas, pagination). The text
 * half (summary, error statuses, source, SDK method) is in `./account-docs.ts`, keyed by the same
 * ids; `./endpoints.ts` joins them. The split keeps `import 'trx-rent'` inside its byte budget:
 * the SDK loads this half only. See `./types.ts` for what each field means.
 * @module
 */
import * as z from 'zod/mini';
import { ApiKey, CreateKeyRequest, RevokeKeyResponse } from '../schemas/keys.js';
import { BestPriceQuery, PriceEntry, PriceHistory, PriceHistoryQuery, PriceList, PriceStats, Preview, PreviewQuery } from '../schemas/prices.js';
import { CreateOrderRequest, ListOrdersQuery, Order, OrderDetail, OrderId, OrderList } from '../schemas/orders.js';
import { Balance } from '../schemas/balance.js';
import { HistoryList, HistoryQuery, HistorySummary } from '../schemas/history.js';
import { DepositInfo, PrepareDepositRequest, PreparedDeposit, SubmitDepositRequest, SubmitDepositResponse } from '../schemas/deposits.js';
import { CreateWithdrawalRequest, Withdrawal } from '../schemas/withdrawals.js';
import { CreateWebhookRequest, DeleteWebhookResponse, WebhookCreated, WebhookList } from '../schemas/webhooks.js';
import { BroadcastRequest, BroadcastResponse } from '../schemas/transactions.js';
import { LIMITS } from '../schemas/limits.js';
import { described } from '../schemas/meta.js';
import { type EndpointWire, withIds } from './types.js';

const IdParam = z.strictObject({ id: described(z.string().check(z.minLength(1, 'is required')), 'The identifier (from the create or list response).') });

/** Every operation of the account API, keyed by id. */
/** Every operation of the account API (machine half), keyed by id. */
export const ACCOUNT_WIRE = withIds({
  // ---- keys ----
  createKey: {
    api: 'account',
    method: 'POST',
    path: '/api/v1/keys',
    auth: 'account',
    rateGroup: 'other',
    idempotent: false,
    body: CreateKeyRequest,
    response: ApiKey,
    status: 201,
  },
  revokeKey: {
    api: 'account',
    method: 'DELETE',
    path: '/api/v1/keys/{id}',
    auth: 'account',
    rateGroup: 'other',
    idempotent: false,
    params: IdParam,
    response: RevokeKeyResponse,
    status: 200,
  },
  // ---- prices and preview ----
  listPrices: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/prices',
    auth: 'public',
    rateGroup: 'prices',
    idempotent: false,
    response: PriceList,
    status: 200,
  },
  getBestPrice: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/prices/best',
    auth: 'public',
    rateGroup: 'prices',
    idempotent: false,
    query: BestPriceQuery,
    response: PriceEntry,
    status: 200,
  },
  getPriceHistory: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/prices/history',
    auth: 'public',
    rateGroup: 'prices',
    idempotent: false,
    query: PriceHistoryQuery,
    response: PriceHistory,
    status: 200,
  },
  getPriceStats: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/prices/stats',
    auth: 'public',
    rateGroup: 'prices',
    idempotent: false,
    response: PriceStats,
    status: 200,
  },
  previewOrder: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/orders/preview',
    auth: 'public',
    rateGroup: 'other',
    idempotent: false,
    query: PreviewQuery,
    response: Preview,
    status: 200,
  },
  // ---- orders ----
  createOrder: {
    api: 'account',
    method: 'POST',
    path: '/api/v1/orders',
    auth: 'create_orders',
    rateGroup: 'orders',
    idempotent: true,
    requiresJsonContentType: true,
    body: CreateOrderRequest,
    response: Order,
    status: 201,
  },
  listOrders: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/orders',
    auth: 'view_orders',
    rateGroup: 'orders',
    idempotent: false,
    query: ListOrdersQuery,
    response: OrderList,
    status: 200,
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
  },
  getOrder: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/orders/{id}',
    auth: 'view_orders',
    // Only listOrders and createOrder share the orders group; this is one of "all other endpoints".
    rateGroup: 'other',
    idempotent: false,
    params: z.strictObject({ id: OrderId }),
    response: OrderDetail,
    status: 200,
  },
  // ---- account ----
  getBalance: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/balance',
    auth: 'view_balance',
    rateGroup: 'balance',
    idempotent: false,
    response: Balance,
    status: 200,
  },
  listHistory: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/history',
    auth: 'view_balance',
    rateGroup: 'history',
    idempotent: false,
    query: HistoryQuery,
    response: HistoryList,
    status: 200,
  },
  getHistorySummary: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/history/summary',
    auth: 'account',
    rateGroup: 'history',
    idempotent: false,
    response: HistorySummary,
    status: 200,
  },
  // ---- deposits ----
  getDepositInfo: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/deposit/info',
    auth: 'account',
    rateGroup: 'other',
    idempotent: false,
    response: DepositInfo,
    status: 200,
  },
  prepareDeposit: {
    api: 'account',
    method: 'POST',
    path: '/api/v1/deposit/prepare',
    auth: 'account',
    rateGroup: 'other',
    idempotent: false,
    body: PrepareDepositRequest,
    response: PreparedDeposit,
    status: 200,
  },
  submitDeposit: {
    api: 'account',
    method: 'POST',
    path: '/api/v1/deposit/submit',
    auth: 'public',
    rateGroup: 'other',
    idempotent: false,
    body: SubmitDepositRequest,
    response: SubmitDepositResponse,
    status: 200,
  },
  // ---- withdrawals ----
  createWithdrawal: {
    api: 'account',
    method: 'POST',
    path: '/api/v1/withdraw',
    // The spec lists only authentication for withdrawals (no permission).
    auth: 'account',
    rateGroup: 'withdraw',
    idempotent: true,
    body: CreateWithdrawalRequest,
    response: Withdrawal,
    status: 200,
  },
  // ---- webhooks ----
  createWebhook: {
    api: 'account',
    method: 'POST',
    path: '/api/v1/webhooks',
    auth: 'account',
    rateGroup: 'other',
    idempotent: false,
    body: CreateWebhookRequest,
    response: WebhookCreated,
    status: 201,
  },
  listWebhooks: {
    api: 'account',
    method: 'GET',
    path: '/api/v1/webhooks',
    auth: 'account',
    rateGroup: 'other',
    idempotent: false,
    response: WebhookList,
    status: 200,
  },
  deleteWebhook: {
    api: 'account',
    method: 'DELETE',
    path: '/api/v1/webhooks/{id}',
    auth: 'account',
    rateGroup: 'other',
    idempotent: false,
    params: IdParam,
    response: DeleteWebhookResponse,
    status: 200,
  },
  // ---- transactions ----
  broadcastTransaction: {
    api: 'account',
    method: 'POST',
    path: '/api/v1/broadcast',
    auth: 'broadcast',
    rateGroup: 'other',
    idempotent: false,
    body: BroadcastRequest,
    response: BroadcastResponse,
    status: 200,
  },
} satisfies Record<string, EndpointWire>);

/** Ids of the account API's operations. */
export type AccountEndpointId = keyof typeof ACCOUNT_WIRE;
