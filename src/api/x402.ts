/**
 * The pay-per-call API (`/x402/tron`): one entry per operation. Every call is paid (auth
 * `x402`), every result sits in `{ data }`, and the spec gives each one 402 Payment Required;
 * the other error statuses are this project's design (the spec does not show error bodies).
 * @module
 */
import * as z from 'zod';
import {
  BatchSendRequest,
  BatchSendResult,
  Estimate,
  EstimateRequest,
  Invoice,
  InvoiceRequest,
  NetworkInfo,
  NetworkQuery,
  Receive,
  ReceiveRequest,
  RpcBody,
  RpcMethodSchema,
  RpcResult,
  SendRequest,
  SendResult,
  SwapExecuteRequest,
  SwapExecution,
  SwapQuote,
  SwapQuoteRequest,
  Watch,
  WatchRequest,
  X402Account,
  X402AccountParams,
  X402PriceList,
  X402PricesQuery,
} from '../schemas/x402.js';
import { type EndpointDef, type EndpointError, type EndpointPrice, withIds } from './types.js';

const FIXED: EndpointPrice = { kind: 'fixed', usd: '0.01' };
const DYNAMIC: EndpointPrice = { kind: 'dynamic', minUsd: '0.001', maxUsd: '0.01' };

/** What every paid operation answers before any payment (the request is checked first, free). */
const INVALID: readonly EndpointError[] = [
  { code: 'VALIDATION_ERROR', status: 400, when: 'the request failed validation (free: before any challenge)' },
  { code: 'INVALID_ADDRESS', status: 400, when: 'an address is not a TRON address (free: before any challenge)' },
  { code: 'INVALID_PAYMENT', status: 400, when: 'the payment header is malformed' },
];

/** The fields every paid entry shares. */
const paid = { api: 'x402', auth: 'x402', rateGroup: 'x402', idempotent: false, status: 200, dataEnvelope: true, source: 'spec' } as const;

/** Every operation of the pay-per-call API, keyed by id. */
export const X402_ENDPOINTS = withIds({
  x402Prices: {
    ...paid,
    method: 'GET',
    path: '/x402/tron/prices',
    summary: 'Live TRON energy and bandwidth prices from several providers',
    price: FIXED,
    query: X402PricesQuery,
    response: X402PriceList,
    errors: INVALID,
    sdk: 'prices',
  },
  x402Account: {
    ...paid,
    method: 'GET',
    path: '/x402/tron/account/{address}',
    summary: 'TRON account balances and resources',
    price: FIXED,
    params: X402AccountParams,
    response: X402Account,
    errors: INVALID,
    sdk: 'account',
  },
  x402Estimate: {
    ...paid,
    method: 'POST',
    path: '/x402/tron/estimate',
    summary: 'Energy and bandwidth estimate for a TRON transaction',
    price: FIXED,
    body: EstimateRequest,
    response: Estimate,
    errors: INVALID,
    sdk: 'estimate',
  },
  x402SwapQuote: {
    ...paid,
    method: 'POST',
    path: '/x402/tron/swap/quote',
    summary: 'Token swap quote from a decentralized exchange',
    price: FIXED,
    body: SwapQuoteRequest,
    response: SwapQuote,
    errors: INVALID,
    sdk: 'swapQuote',
  },
  x402Network: {
    ...paid,
    method: 'GET',
    path: '/x402/tron/network',
    summary: 'TRON chain parameters',
    price: FIXED,
    query: NetworkQuery,
    response: NetworkInfo,
    errors: INVALID,
    sdk: 'network',
  },
  x402Invoice: {
    ...paid,
    method: 'POST',
    path: '/x402/tron/invoice',
    summary: 'Create a USDT invoice with automatic payment detection',
    price: FIXED,
    body: InvoiceRequest,
    response: Invoice,
    errors: INVALID,
    sdk: 'invoice',
  },
  x402Watch: {
    ...paid,
    method: 'POST',
    path: '/x402/tron/watch',
    summary: 'Watch an address for incoming TRC-20 transfers (24 hours)',
    price: FIXED,
    body: WatchRequest,
    response: Watch,
    errors: INVALID,
    sdk: 'watch',
  },
  x402Receive: {
    ...paid,
    method: 'POST',
    path: '/x402/tron/receive',
    summary: 'One-time watch for an expected incoming payment',
    price: FIXED,
    body: ReceiveRequest,
    response: Receive,
    errors: INVALID,
    sdk: 'receive',
  },
  x402Send: {
    ...paid,
    method: 'POST',
    path: '/x402/tron/send',
    summary: 'Broadcast a pre-signed USDT transfer, buying the energy it needs',
    price: DYNAMIC,
    body: SendRequest,
    response: SendResult,
    errors: [...INVALID, { code: 'BROADCAST_FAILED', status: 502, when: 'the network rejects the transfer (after payment)' }],
    sdk: 'send',
  },
  x402SendBatch: {
    ...paid,
    method: 'POST',
    path: '/x402/tron/send/batch',
    summary: 'Broadcast up to 50 pre-signed transfers, buying the energy they need',
    price: DYNAMIC,
    body: BatchSendRequest,
    response: BatchSendResult,
    errors: INVALID,
    sdk: 'sendBatch',
  },
  x402SwapExecute: {
    ...paid,
    method: 'POST',
    path: '/x402/tron/swap/execute',
    summary: 'Execute a token swap with energy provided',
    price: DYNAMIC,
    body: SwapExecuteRequest,
    response: SwapExecution,
    errors: [...INVALID, { code: 'SLIPPAGE_EXCEEDED', status: 409, when: 'the price moved beyond slippage_pct' }],
    sdk: 'swapExecute',
  },
  x402Rpc: {
    ...paid,
    method: 'POST',
    path: '/x402/tron/rpc/{method}',
    restParam: 'method',
    summary: 'Whitelisted TRON node call',
    price: FIXED,
    params: z.strictObject({ method: RpcMethodSchema }),
    body: RpcBody,
    response: RpcResult,
    errors: INVALID,
    sdk: 'rpc',
  },
} satisfies Record<string, EndpointDef>);

/** Ids of the pay-per-call API's operations. */
export type X402EndpointId = keyof typeof X402_ENDPOINTS;
