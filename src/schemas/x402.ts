/**
 * Schemas of the pay-per-call API (`/x402/tron/*`) and of the x402 wire format (challenges,
 * payment payloads, settlement responses). Requests are strict, responses lenient, as for the
 * account API (unknown keys kept). Each result schema declares exactly the fields of the spec's
 * "Resources and their fields" table (plus the account's `trc20_balances`), so its strict reading
 * (`src/internal/exact.ts`) is the exact shape the mock must send. Amounts are decimal
 * strings, never floats.
 * @module
 */
import * as z from 'zod';
import type { Known } from './known.js';
import { ResourceType, lenientEnum, looseNumber, looseTimestamp, sunAmount, tronAddress } from './common.js';
import { ESTIMATE_OPERATIONS, WATCH_EVENT_TYPES, RPC_METHODS } from './enums.js';
export { ESTIMATE_OPERATIONS, WATCH_EVENT_TYPES, RPC_METHODS } from './enums.js';
import { X402_LIMITS } from './limits.js';
import { described } from './meta.js';
export { X402_LIMITS } from './limits.js';


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
  expires_in_seconds: z.number().int().positive().max(30 * 24 * 3600).optional().meta({ description: 'Seconds until the invoice expires.', default: 3600 }),
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
  timeout_seconds: z.number().int().positive().max(7 * 24 * 3600).optional().meta({ description: 'Seconds the watch lasts.', default: 300 }),
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

// ---- results (lenient) ----

/** One provider's price, an item of `x402Prices`. */
export const X402PriceEntry = z.looseObject({
  /** Provider identifier. */
  provider: z.string(),
  /** Price per unit of resource, in SUN: the x402 spec types it as an integer (the account API as a number). */
  price_sun: described(sunAmount, 'SUN per unit.'),
  /** Units available. */
  available: described(looseNumber, 'Units available.'),
});
export type X402PriceEntry = Known<z.infer<typeof X402PriceEntry>>;
/** Result of `x402Prices`: entries from several providers, updated every 30 seconds. */
export const X402PriceList = z.array(X402PriceEntry);

/** One TRC-20 token balance of an account (the spec does not show this shape; the mock's). */
export const Trc20Balance = z.looseObject({
  /** Token symbol, when known. */
  symbol: z.string().optional(),
  /** Token contract (base58). */
  contract: z.string(),
  /** Balance; the mock sends a decimal string in token units. */
  balance: z.union([z.string(), z.number()]),
  /** The token's decimals, when given. */
  decimals: z.optional(looseNumber),
});

/** Result of `x402Account`. */
export const X402Account = z.looseObject({
  /** The account's address (base58). */
  address: z.string(),
  /** TRX balance, in SUN. */
  balance: described(sunAmount, 'TRX balance in SUN.'),
  /** Energy the account can use. */
  energy_limit: looseNumber,
  /** Bandwidth the account can use. */
  bandwidth_limit: looseNumber,
  /**
   * TRC-20 token balances. The spec says the result carries them but does not name the field:
   * `trc20_balances` is the mock's name (the only field beyond the spec's four).
   */
  trc20_balances: z.array(Trc20Balance).optional().describe('TRC-20 balances (the field’s name is not shown by the spec).'),
});
export type X402Account = Known<z.infer<typeof X402Account>>;

const decimalOut = z.union([z.string(), z.number().transform(String)]);

/** Result of `x402Estimate`, from a simulation. */
export const Estimate = z.looseObject({
  /** Energy the transaction would use. */
  energy_needed: looseNumber,
  /** Bandwidth the transaction would use. */
  bandwidth_needed: looseNumber,
  /** Estimated cost in TRX (not SUN), a decimal string. */
  cost_trx: decimalOut.describe('Decimal TRX.'),
});
export type Estimate = Known<z.infer<typeof Estimate>>;

/** Result of `x402SwapQuote`, from a decentralized exchange. Decimal strings. */
export const SwapQuote = z.looseObject({
  /** Amount of the bought token, in token units. */
  amount_out: decimalOut,
  /** Price impact of the trade. */
  price_impact: decimalOut,
  /** Exchange rate. */
  rate: decimalOut,
});
export type SwapQuote = Known<z.infer<typeof SwapQuote>>;

/**
 * Result of `x402Network`: chain parameters. The spec does not show the fields, so any
 * object is accepted (an object schema with no declared key: exact-shape checks leave it open).
 */
export const NetworkInfo = z.looseObject({});
export type NetworkInfo = Known<z.infer<typeof NetworkInfo>>;

/** Result of `x402Invoice`. */
export const Invoice = z.looseObject({
  /** Invoice identifier. */
  invoice_id: z.string(),
  /** Page where the invoice can be paid. */
  payment_url: z.string(),
  /** Address to pay (base58). */
  pay_to_address: z.string(),
  /** Text to encode as a QR code for wallets. */
  qr_data: z.string(),
});
export type Invoice = Known<z.infer<typeof Invoice>>;

/** Result of `x402Watch`. */
export const Watch = z.looseObject({
  /** Watch identifier. */
  watch_id: z.string(),
  /** End of the watch, 24 hours after creation. */
  expires_at: described(looseTimestamp, 'End of the watch, 24 hours after creation.'),
  /** `active` or `expired` (the spec shows no values; others are kept). */
  status: lenientEnum(['active', 'expired']),
});
export type Watch = Known<z.infer<typeof Watch>>;

/** Result of `x402Receive`. */
export const Receive = z.looseObject({
  /** Identifier of the expected payment. */
  payment_id: z.string(),
  /** Address the payer should send to. */
  watch_address: z.string(),
  /** When the one-time watch ends (`timeout_seconds` after creation). */
  expires_at: looseTimestamp,
});
export type Receive = Known<z.infer<typeof Receive>>;

/** Result of `x402Send`. */
export const SendResult = z.looseObject({
  /** Hash of the broadcast transaction. */
  txid: z.string(),
  /** Transaction status (the spec shows no values; the mock sends `confirmed` or `reverted`). */
  status: z.string(),
  /** Energy bought and resources used for the transfer; fields not shown by the spec (the mock sends e.g. `energy_used`, `energy_purchased`, `trx_burnt`). */
  resources: z.record(z.string(), z.unknown()),
});
export type SendResult = Known<z.infer<typeof SendResult>>;

/** Result of `x402SendBatch`. */
export const BatchSendResult = z.looseObject({
  /** Transfers in the batch. */
  total: looseNumber,
  /** Transfers that went through. */
  succeeded: looseNumber,
  /** Transfers that did not. */
  failed: looseNumber,
  /** One entry per transfer; the spec does not show their shape. */
  results: z.array(z.unknown()),
});
export type BatchSendResult = Known<z.infer<typeof BatchSendResult>>;

/** Result of `x402SwapExecute`. */
export const SwapExecution = z.looseObject({
  /** Hash of the swap transaction. */
  txid: z.string(),
  /** Amount of the bought token received, a decimal string in token units. */
  amount_out: decimalOut,
});
export type SwapExecution = Known<z.infer<typeof SwapExecution>>;

/** Result of `x402Rpc`: the node's JSON, object or array, as returned. */
export const RpcResult = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]);
export type RpcResult = Known<z.infer<typeof RpcResult>>;

// ---- x402 wire format ----

/** x402 v2: the resource a challenge or payload is about. */
export const ResourceInfo = z.looseObject({
  /** URL of the resource. */
  url: z.string(),
  /** What the payment buys. */
  description: z.string().optional(),
  /** Media type of the resource's response. */
  mimeType: z.string().optional(),
});

const atomic = z.string().regex(/^\d+$/, 'must be an integer amount in atomic units');

/** x402 v2: one way to pay that a challenge accepts (an item of `accepts`). */
export const PaymentRequirementsV2 = z.looseObject({
  /** Settlement scheme, e.g. `exact`, `exact_permit`, `exact_gasfree`. */
  scheme: z.string().min(1),
  /** CAIP-2 network id, e.g. `eip155:8453`, `tron:728126428` (TRON has several spellings). */
  network: z.string().min(1),
  /** Amount to pay, in the token's atomic units, as an integer string. */
  amount: atomic,
  /** Token contract (0x address on EVM, base58 on TRON). */
  asset: z.string().min(1),
  /** Recipient address. */
  payTo: z.string().min(1),
  /** How long the payment may take, in seconds. */
  maxTimeoutSeconds: z.number().int().nonnegative(),
  /** Scheme-specific data, e.g. the token's EIP-712 `{ name, version }`. */
  extra: z.record(z.string(), z.unknown()).optional(),
});
export type PaymentRequirementsV2 = Known<z.infer<typeof PaymentRequirementsV2>>;

/** x402 v2 challenge: the base64 JSON in the `PAYMENT-REQUIRED` header of a 402. */
export const PaymentRequiredV2 = z.looseObject({
  x402Version: z.literal(2),
  /** Why payment is required (or why the last payment failed). */
  error: z.string().optional(),
  /** The resource being paid for. */
  resource: ResourceInfo.optional(),
  /** Offers, parsed one by one with {@link PaymentRequirementsV2} so one odd entry does not void the rest. */
  accepts: z.array(z.unknown()),
  /** Protocol extensions; a payer echoes what it received. */
  extensions: z.record(z.string(), z.unknown()).optional(),
});

/** x402 v1: one way to pay that a challenge accepts (an item of `accepts`). */
export const PaymentRequirementsV1 = z.looseObject({
  /** Settlement scheme; `exact` in v1. */
  scheme: z.string().min(1),
  /** v1 short network name, e.g. `base`, `base-sepolia`. */
  network: z.string().min(1),
  /** Amount to pay, in the token's atomic units, as an integer string. */
  maxAmountRequired: atomic,
  /** Token contract. */
  asset: z.string().min(1),
  /** Recipient address. */
  payTo: z.string().min(1),
  /** URL of the resource. */
  resource: z.string(),
  /** What the payment buys. */
  description: z.string(),
  /** Media type of the resource's response. */
  mimeType: z.string().optional(),
  /** JSON schema of the resource's response. */
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  /** How long the payment may take, in seconds. */
  maxTimeoutSeconds: z.number().int().nonnegative(),
  /** Scheme-specific data, e.g. the token's EIP-712 `{ name, version }`. */
  extra: z.record(z.string(), z.unknown()).optional(),
});
export type PaymentRequirementsV1 = Known<z.infer<typeof PaymentRequirementsV1>>;

/** x402 v1 challenge: the JSON body of a 402. */
export const PaymentRequiredV1 = z.looseObject({
  x402Version: z.literal(1),
  /** Why payment is required, e.g. "X-PAYMENT header is required". */
  error: z.string().optional(),
  /** Offers, parsed one by one with {@link PaymentRequirementsV1}. */
  accepts: z.array(z.unknown()),
});

/** x402 v2 payment: the base64 JSON in the `PAYMENT-SIGNATURE` header of the paid retry. */
export const PaymentPayloadV2 = z.looseObject({
  x402Version: z.literal(2),
  /** The resource being paid for, as the challenge gave it. */
  resource: ResourceInfo.optional(),
  /** A copy of the offer chosen from the challenge's `accepts`. */
  accepted: PaymentRequirementsV2,
  /** Scheme-specific signed data (e.g. `signature` and `authorization`). */
  payload: z.record(z.string(), z.unknown()),
  /** The challenge's extensions, echoed. */
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type PaymentPayloadV2 = Known<z.infer<typeof PaymentPayloadV2>>;

/** x402 v1 payment: the base64 JSON in the `X-PAYMENT` header of the paid retry. */
export const PaymentPayloadV1 = z.looseObject({
  x402Version: z.literal(1),
  /** Scheme of the chosen offer. */
  scheme: z.string(),
  /** v1 network name of the chosen offer. */
  network: z.string(),
  /** Scheme-specific signed data (e.g. `signature` and `authorization`). */
  payload: z.record(z.string(), z.unknown()),
});
export type PaymentPayloadV1 = Known<z.infer<typeof PaymentPayloadV1>>;

/**
 * x402 settlement result: the base64 JSON in the `PAYMENT-RESPONSE` (v2) or
 * `X-PAYMENT-RESPONSE` (v1) header of the paid response.
 */
export const SettlementResponse = z.looseObject({
  /** Whether the payment settled. */
  success: z.boolean(),
  /** Machine-readable failure reason, e.g. `insufficient_funds`; only on failure. */
  errorReason: z.string().optional(),
  /** Human-readable failure text; only on failure. */
  errorMessage: z.string().optional(),
  /** Settlement transaction hash; empty on failure. */
  transaction: z.string(),
  /** Network the payment settled on. */
  network: z.string(),
  /** Address that paid. */
  payer: z.string().optional(),
  /** Amount settled, in atomic units (v2). */
  amount: z.string().optional(),
});
export type SettlementResponse = Known<z.infer<typeof SettlementResponse>>;
