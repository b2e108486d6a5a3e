/**
 * Schemas of the pay-per-call API (`/x402/tron/*`) and of the x402 wire format: the requests
 * (strict, as for the account API) here, the results in `x402-results.ts` and the wire format
 * (challenges, payment payloads, settlement responses) in `x402-wire.ts`, both re-exported so
 * this stays the one module of x402 schemas. Amounts are decimal strings, never floats.
 * @module
 */
import * as z from 'zod';
import { ResourceType, tronAddress } from './common.js';
import { ESTIMATE_OPERATIONS, WATCH_EVENT_TYPES, RPC_METHODS } from './enums.js';
export { ESTIMATE_OPERATIONS, WATCH_EVENT_TYPES, RPC_METHODS } from './enums.js';
import { X402_LIMITS } from './limits.js';
import { described } from './meta.js';
export { X402_LIMITS } from './limits.js';
export * from './x402-results.js';
export * from './x402-wire.js';

/** A positive decimal amount as a string ('1.5'); exact, no exponent, no sign. */
export const decimalAmount = z
  .string()
  .regex(/^(\d+)(\.\d+)?$/, 'must be a decimal number as a string, like "1.5"')
  .refine((s) => /[1-9]/.test(s), 'must be greater than 0');

const httpUrl = z
  .string()
  .url('must be a URL')
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');

/** Token symbol (USDT, TRX, …) or TRC-20 contract address. */
const tokenRef = z.string().min(1).max(64);

// ---- requests (strict) ----

/** Query of `x402Prices`. */
export const X402PricesQuery = z.strictObject({
  /** Only this resource. Omitted: both energy and bandwidth. */
  resource: z.optional(ResourceType).describe('ENERGY or BANDWIDTH; all when absent.'),
});
export type X402PricesQuery = z.input<typeof X402PricesQuery>;

/** Path of `x402Account`: a base58 TRON address. */
export const X402AccountParams = z.strictObject({ address: described(tronAddress, 'TRON address (base58).') });

/** Body of `x402Estimate`: the transaction to simulate. */
export const EstimateRequest = z.strictObject({
  /** What kind of transaction, one of {@link ESTIMATE_OPERATIONS}. */
  operation: z.enum(ESTIMATE_OPERATIONS),
  /** Receiver (base58). */
  to: z.optional(tronAddress),
  /** Amount as a decimal string in token units (`"1.5"`), not atomic units. */
  amount: decimalAmount.optional(),
  /** Contract called, e.g. a TRC-20 token (base58). */
  contract: z.optional(tronAddress),
});
export type EstimateRequest = z.input<typeof EstimateRequest>;

/** Body of `x402SwapQuote`. */
export const SwapQuoteRequest = z.strictObject({
  /** Token sold: symbol (`USDT`, `TRX`, …) or TRC-20 contract address. */
  from: tokenRef,
  /** Token bought: symbol or TRC-20 contract address. */
  to: tokenRef,
  /** Amount of `from`, as a decimal string in token units (`"1.5"`). */
  amount: decimalAmount,
});
export type SwapQuoteRequest = z.input<typeof SwapQuoteRequest>;

/** Query of `x402Network`. */
export const NetworkQuery = z.strictObject({
  /**
   * `full` or `summary`. Omitted: the service uses `full`.
   * @default 'full'
   */
  format: z.enum(['full', 'summary']).optional().meta({ description: 'full or summary.', default: 'full' }),
});
export type NetworkQuery = z.input<typeof NetworkQuery>;

/** Body of `x402Invoice`; payments to the invoice are detected automatically. */
export const InvoiceRequest = z.strictObject({
  /** Amount due, in USDT, as a decimal string (`"12.5"`). */
  amount_usdt: decimalAmount,
  /** Free text, at most 500 characters. */
  description: z.string().max(500).optional(),
  /** Address to be paid (base58). Omitted: the service picks one (the mock does). */
  pay_to_address: z.optional(tronAddress),
  /**
   * Lifetime of the invoice, in whole seconds, at most 30 days. Omitted: the service uses 3600.
   * @default 3600
   */
  expires_in_seconds: z
    .number()
    .int()
    .positive()
    .max(30 * 24 * 3600)
    .optional()
    .meta({ description: 'Seconds until the invoice expires.', default: 3600 }),
});
export type InvoiceRequest = z.input<typeof InvoiceRequest>;

/** Body of `x402Watch`: report TRC-20 transfers to `address` for 24 hours. */
export const WatchRequest = z.strictObject({
  /** Address to watch (base58). */
  address: tronAddress,
  /** Where each matching transfer is posted: an http(s) URL. */
  webhook_url: httpUrl,
  /** Which transfers to report; at least one when given. Omitted: the service decides (the mock uses `trc20_incoming`). */
  event_types: z.array(z.enum(WATCH_EVENT_TYPES)).min(1).optional(),
  /** Only this token contract (base58). */
  token_contract: z.optional(tronAddress),
  /** Ignore transfers below this amount, a decimal string in token units. */
  min_amount: decimalAmount.optional(),
});
export type WatchRequest = z.input<typeof WatchRequest>;

/** Body of `x402Receive`: a one-time watch for one expected payment. */
export const ReceiveRequest = z.strictObject({
  /** Amount expected, a decimal string in token units. */
  expected_amount: decimalAmount,
  /** Token expected (base58 contract). Omitted: the mock expects USDT. */
  token_contract: z.optional(tronAddress),
  /**
   * Accepted deviation from `expected_amount`, in percent (0 to 100). Omitted: the service uses 0.
   * @default 0
   */
  tolerance_pct: z.number().min(0).max(X402_LIMITS.RECEIVE_TOLERANCE_MAX_PCT).optional().meta({ description: 'Accepted shortfall, percent.', default: 0 }),
  /**
   * How long to wait, in whole seconds, at most 7 days. Omitted: the service uses 300.
   * @default 300
   */
  timeout_seconds: z
    .number()
    .int()
    .positive()
    .max(7 * 24 * 3600)
    .optional()
    .meta({ description: 'Seconds the watch lasts.', default: 300 }),
  /** Called once when the payment is detected: an http(s) URL. */
  webhook_url: httpUrl.optional(),
});
export type ReceiveRequest = z.input<typeof ReceiveRequest>;

/**
 * Body of `x402Send`: broadcast a pre-signed USDT transfer; the service buys the
 * energy it needs first.
 */
export const SendRequest = z.strictObject({
  /** Receiver (base58); must match the signed transfer. */
  to: tronAddress,
  /** Amount in USDT, a decimal string (`"1.5"`); must match the signed transfer. */
  amount_usdt: decimalAmount,
  /** The signed transaction as a string: the JSON `signTrc20Transfer` returns as `signed_tx`. */
  signed_tx: z.string().min(1, 'signed_tx is required'),
  /** Free text, at most 200 characters. */
  memo: z.string().max(200).optional(),
});
export type SendRequest = z.input<typeof SendRequest>;

/** One item of `x402SendBatch`. */
export const BatchTransfer = z.strictObject({
  /** Receiver (base58); must match the signed transfer. */
  to: tronAddress,
  /** Amount, a decimal string in token units; must match the signed transfer. */
  amount: decimalAmount,
  /** The signed transaction as a string (JSON of the signed transaction). */
  signed_tx: z.string().min(1, 'signed_tx is required'),
});
export type BatchTransfer = z.input<typeof BatchTransfer>;

/** Body of `x402SendBatch`. */
export const BatchSendRequest = z.strictObject({
  /** 1 to 50 pre-signed transfers. */
  transfers: z
    .array(BatchTransfer)
    .min(1, 'needs at least one transfer')
    .max(X402_LIMITS.MAX_BATCH_TRANSFERS, `at most ${X402_LIMITS.MAX_BATCH_TRANSFERS} transfers per batch`),
});
export type BatchSendRequest = z.input<typeof BatchSendRequest>;

/** Body of `x402SwapExecute`; the energy the swap needs is provided. */
export const SwapExecuteRequest = z.strictObject({
  /** Token sold: symbol or TRC-20 contract address. */
  from_token: tokenRef,
  /** Token bought: symbol or TRC-20 contract address. */
  to_token: tokenRef,
  /** Amount of `from_token`, a decimal string in token units. */
  amount: decimalAmount,
  /**
   * Largest accepted price movement, in percent (0 to 50). Omitted: the service uses 0.5.
   * @default 0.5
   */
  slippage_pct: z.number().min(0).max(X402_LIMITS.SWAP_SLIPPAGE_MAX_PCT).optional().meta({ description: 'Highest accepted slippage, percent.', default: 0.5 }),
});
export type SwapExecuteRequest = z.input<typeof SwapExecuteRequest>;

/** One of {@link RPC_METHODS}, e.g. `wallet/getnowblock`. */
export type RpcMethod = (typeof RPC_METHODS)[number];
/** Validates an RPC method name against {@link RPC_METHODS}. */
export const RpcMethodSchema = z.enum(RPC_METHODS).describe('The whitelisted node method, e.g. wallet/getnowblock.');
/** Body of `x402Rpc`: a JSON object, as the node method expects it. */
export const RpcBody = z.record(z.string(), z.unknown());
