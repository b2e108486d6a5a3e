/**
 * The account API (`/api/v1`), text half: per operation its one-line summary, the error statuses
 * the spec gives it, where its shape comes from and the SDK method that implements it. Keyed by
 * the ids of `./account.ts` (a missing or extra id does not compile); `./endpoints.ts` joins the
 * halves into `ACCOUNT_ENDPOINTS`.
 * @module
 */
import { ACCOUNT_WIRE, type AccountEndpointId } from './account.js';
import { LIMITS } from '../schemas/limits.js';
import { type EndpointDocs, joinDocs } from './types.js';
const VALIDATION_422 = { code: 'VALIDATION_ERROR', status: 422, when: 'the request failed validation (the field is named in details)' } as const;
const NOT_FOUND = (what: string) => ({ code: 'NOT_FOUND', status: 404, when: `the ${what} does not exist` }) as const;

/** The text half of every account operation, keyed by id. */
export const ACCOUNT_DOCS = {
  // ---- keys ----
  createKey: {
    summary: 'Create an API key; its secret is shown only in this response',
    errors: [VALIDATION_422, { code: 'FORBIDDEN', status: 403, when: 'a key asks to grant a permission it does not hold' }],
    source: 'spec',
    sdk: 'keys.create',
    cli: 'keys create',
  },
  revokeKey: {
    summary: 'Revoke an API key, at once and irreversibly',
    errors: [{ code: 'NOT_FOUND', status: 404, when: 'the key does not exist or is already revoked' }],
    source: 'spec',
    sdk: 'keys.revoke',
    cli: 'keys revoke',
  },
  // ---- prices and preview ----
  listPrices: {
    summary: "Every provider's price tiers (refreshed every 30 s)",
    errors: [],
    source: 'spec',
    sdk: 'prices.list',
    cli: 'prices',
    mcp: {
      tool: 'get_prices',
      title: 'Provider prices',
      listKey: 'providers',
      units: 'price_sun is SUN per unit of resource for a rental of duration_sec seconds (1 TRX = 1,000,000 SUN).',
    },
  },
  getBestPrice: {
    summary: 'The cheapest online provider for a resource',
    errors: [VALIDATION_422, { code: 'PROVIDER_UNAVAILABLE', status: 503, when: 'no online provider offers the resource' }],
    source: 'live-service',
    sdk: 'prices.best',
    mcp: { tool: 'get_best_price', title: 'Best price', units: 'price_sun is SUN per unit; available is in resource units.' },
  },
  getPriceHistory: {
    summary: 'Past provider prices over a period',
    errors: [VALIDATION_422],
    source: 'live-service',
    sdk: 'prices.history',
    mcp: {
      tool: 'get_price_history',
      title: 'Price history',
      listKey: 'prices',
      units: 'price_sun is SUN per unit; available is in resource units.',
    },
  },
  getPriceStats: {
    summary: 'Market statistics: best and average price, providers, cheapest changes',
    errors: [],
    source: 'live-service',
    sdk: 'prices.stats',
    mcp: { tool: 'get_price_stats', title: 'Market statistics', units: 'Prices are SUN per unit of energy.' },
  },
  previewOrder: {
    // The spec does not say whether preview needs credentials; it places nothing, so it is public.
    summary: 'What an order would cost now; places nothing',
    errors: [VALIDATION_422],
    source: 'spec',
    sdk: 'orders.preview',
    cli: 'preview',
    mcp: {
      tool: 'preview_order',
      title: 'Preview an order',
      units: `amount is in resource units (at least ${LIMITS.MIN_ENERGY_AMOUNT} for ENERGY), duration in seconds. Returns the best provider (price_sun: SUN per unit; cost_trx: total in TRX, not SUN) and the fallbacks. Uses the same provider selection as create_order.`,
    },
  },
  // ---- orders ----
  createOrder: {
    summary: 'Place an order for energy or bandwidth',
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
    cli: 'buy',
    mcp: { tool: 'create_order' },
  },
  listOrders: {
    summary: 'One page of orders, newest first (offset pagination)',
    errors: [VALIDATION_422],
    source: 'spec',
    sdk: 'orders.list',
    cli: 'orders list',
    mcp: { tool: 'list_orders', title: 'List orders', units: 'Money fields are in SUN; amount is in resource units; offset skips orders.' },
  },
  getOrder: {
    summary: 'The full order with its fills',
    errors: [NOT_FOUND('order')],
    source: 'spec',
    sdk: 'orders.get',
    cli: 'orders get',
    mcp: {
      tool: 'get_order',
      title: 'Get an order',
      units: 'Money fields are in SUN (total_cost_sun, total_fee_sun, price_sun, cost_sun); amount is in resource units.',
    },
  },
  // ---- account ----
  getBalance: {
    summary: 'Available TRX and USDT, and TRX locked in open orders (SUN)',
    errors: [],
    source: 'spec',
    sdk: 'balance.get',
    cli: 'balance',
    mcp: {
      tool: 'get_balance',
      title: 'Account balance',
      units: 'Every amount is an integer in SUN (1 TRX = 1,000,000 SUN); usdt is in 6-decimal units (1 USDT = 1,000,000). Divide by 1,000,000 for TRX or USDT.',
    },
  },
  listHistory: {
    summary: 'Fills in a period (default 7D), newest first',
    errors: [VALIDATION_422],
    source: 'spec',
    sdk: 'history.list',
    cli: 'history',
    mcp: {
      tool: 'get_history',
      title: 'Spending history',
      listKey: 'fills',
      units: 'price_sun is SUN per unit, cost_sun the total in SUN; amount is in resource units.',
    },
  },
  getHistorySummary: {
    // The spec lists no permission for the summary: any authenticated caller.
    summary: 'Spending totals over the whole account',
    errors: [],
    source: 'spec',
    sdk: 'history.summary',
    cli: 'history summary',
    mcp: {
      tool: 'get_history_summary',
      title: 'Spending summary',
      units: 'total_energy is in energy units, total_spent_sun in SUN, avg_price_sun in SUN per energy unit.',
    },
  },
  // ---- deposits ----
  getDepositInfo: {
    summary: 'Address and memo for a manual TRX deposit',
    errors: [],
    source: 'live-service',
    sdk: 'deposits.info',
    cli: 'deposit info',
    mcp: { tool: 'get_deposit_info', title: 'Deposit details', units: 'Minimums are in TRX and USDT (not SUN).' },
  },
  prepareDeposit: {
    summary: 'The platform address and your memo (and its hex) for a deposit transfer',
    errors: [VALIDATION_422],
    source: 'spec',
    sdk: 'deposits.prepare',
    cli: 'deposit prepare',
    mcp: { tool: 'prepare_deposit' },
  },
  submitDeposit: {
    summary: 'Submit a signed TRX transfer carrying your memo',
    errors: [
      { code: 'VALIDATION_ERROR', status: 400, when: 'missing memo, wrong destination or invalid format' },
      { code: 'BROADCAST_FAILED', status: 502, when: 'the network rejects the transaction' },
    ],
    source: 'spec',
    sdk: 'deposits.submit',
    cli: 'deposit submit',
  },
  // ---- withdrawals ----
  createWithdrawal: {
    summary: 'Withdraw TRX or USDT from the balance to an address',
    errors: [
      // The spec gives INSUFFICIENT_BALANCE 400 both for a short balance and for an invalid address.
      { code: 'INSUFFICIENT_BALANCE', status: 400, when: 'the available balance is below the amount, or the address is invalid' },
      VALIDATION_422,
      { code: 'DUPLICATE_REQUEST', status: 409, when: 'the Idempotency-Key was used with other parameters, or is in flight' },
    ],
    source: 'spec',
    sdk: 'withdrawals.create',
    cli: 'withdraw',
    mcp: { tool: 'withdraw' },
  },
  // ---- webhooks ----
  createWebhook: {
    summary: 'Register a webhook endpoint; its secret is shown only here',
    errors: [VALIDATION_422],
    source: 'spec',
    sdk: 'webhooks.create',
    cli: 'webhooks create',
    mcp: { tool: 'create_webhook' },
  },
  listWebhooks: {
    summary: 'Registered webhooks (without secrets)',
    errors: [],
    source: 'live-service',
    sdk: 'webhooks.list',
    cli: 'webhooks list',
    mcp: { tool: 'list_webhooks', title: 'List webhooks', listKey: 'webhooks' },
  },
  deleteWebhook: {
    summary: 'Delete a webhook',
    errors: [NOT_FOUND('webhook')],
    source: 'live-service',
    sdk: 'webhooks.delete',
    cli: 'webhooks delete',
    mcp: { tool: 'delete_webhook' },
  },
  // ---- transactions ----
  broadcastTransaction: {
    // The spec names the endpoint and its permission only; body and answer follow deposit submit.
    summary: 'Broadcast a signed TRON transaction',
    errors: [
      { code: 'VALIDATION_ERROR', status: 400, when: 'the transaction is malformed or its signature does not verify' },
      { code: 'BROADCAST_FAILED', status: 502, when: 'the network refuses the transaction (expired, unknown reference block, contract error)' },
    ],
    source: 'natural-design',
    sdk: 'transactions.broadcast',
    cli: 'broadcast',
  },
} as const satisfies Record<AccountEndpointId, EndpointDocs>;

/** Every operation of the account API, both halves, keyed by id. */
export const ACCOUNT_ENDPOINTS = joinDocs(ACCOUNT_WIRE, ACCOUNT_DOCS);
