import { z } from 'zod';
import { ResourceType, lenientEnum, looseNumber, looseTimestamp, tronAddress } from './common.js';

/**
 * Schemas of the pay-per-call API (`/x402/tron/*`) and of the x402 wire format (challenges,
 * payment payloads, settlement responses). Requests are strict, responses lenient, as for the
 * account API. Amounts are decimal strings, never floats.
 */

export const X402_LIMITS = {
  MAX_BATCH_TRANSFERS: 50,
  WATCH_DURATION_MS: 24 * 60 * 60 * 1000,
  INVOICE_EXPIRES_DEFAULT_S: 3600,
  RECEIVE_TIMEOUT_DEFAULT_S: 300,
  SWAP_SLIPPAGE_DEFAULT_PCT: 0.5,
  FIXED_PRICE_USD: '0.01',
  DYNAMIC_MIN_USD: '0.001',
  DYNAMIC_MAX_USD: '0.01',
} as const;

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

export const X402PricesQuery = z.strictObject({ resource: ResourceType.optional() });
export type X402PricesQuery = z.input<typeof X402PricesQuery>;

export const X402AccountParams = z.strictObject({ address: tronAddress });

export const ESTIMATE_OPERATIONS = ['trc20_transfer', 'trx_transfer', 'custom'] as const;
export const EstimateRequest = z.strictObject({
  operation: z.enum(ESTIMATE_OPERATIONS),
  to: tronAddress.optional(),
  amount: decimalAmount.optional(),
  contract: tronAddress.optional(),
});
export type EstimateRequest = z.input<typeof EstimateRequest>;

export const SwapQuoteRequest = z.strictObject({ from: tokenRef, to: tokenRef, amount: decimalAmount });
export type SwapQuoteRequest = z.input<typeof SwapQuoteRequest>;

export const NetworkQuery = z.strictObject({ format: z.enum(['full', 'summary']).optional() });
export type NetworkQuery = z.input<typeof NetworkQuery>;

export const InvoiceRequest = z.strictObject({
  amount_usdt: decimalAmount,
  description: z.string().max(500).optional(),
  pay_to_address: tronAddress.optional(),
  expires_in_seconds: z.number().int().positive().max(30 * 24 * 3600).optional(),
});
export type InvoiceRequest = z.input<typeof InvoiceRequest>;

export const WATCH_EVENT_TYPES = ['usdt_incoming', 'usdc_incoming', 'usdd_incoming', 'trc20_incoming'] as const;
export const WatchRequest = z.strictObject({
  address: tronAddress,
  webhook_url: httpUrl,
  event_types: z.array(z.enum(WATCH_EVENT_TYPES)).min(1).optional(),
  token_contract: tronAddress.optional(),
  min_amount: decimalAmount.optional(),
});
export type WatchRequest = z.input<typeof WatchRequest>;

export const ReceiveRequest = z.strictObject({
  expected_amount: decimalAmount,
  token_contract: tronAddress.optional(),
  tolerance_pct: z.number().min(0).max(100).optional(),
  timeout_seconds: z.number().int().positive().max(7 * 24 * 3600).optional(),
  webhook_url: httpUrl.optional(),
});
export type ReceiveRequest = z.input<typeof ReceiveRequest>;

export const SendRequest = z.strictObject({
  to: tronAddress,
  amount_usdt: decimalAmount,
  signed_tx: z.string().min(1, 'signed_tx is required'),
  memo: z.string().max(200).optional(),
});
export type SendRequest = z.input<typeof SendRequest>;

export const BatchTransfer = z.strictObject({
  to: tronAddress,
  amount: decimalAmount,
  signed_tx: z.string().min(1, 'signed_tx is required'),
});
export type BatchTransfer = z.input<typeof BatchTransfer>;

export const BatchSendRequest = z.strictObject({
  transfers: z
    .array(BatchTransfer)
    .min(1, 'needs at least one transfer')
    .max(X402_LIMITS.MAX_BATCH_TRANSFERS, `at most ${X402_LIMITS.MAX_BATCH_TRANSFERS} transfers per batch`),
});
export type BatchSendRequest = z.input<typeof BatchSendRequest>;

export const SwapExecuteRequest = z.strictObject({
  from_token: tokenRef,
  to_token: tokenRef,
  amount: decimalAmount,
  slippage_pct: z.number().min(0).max(50).optional(),
});
export type SwapExecuteRequest = z.input<typeof SwapExecuteRequest>;

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
export type RpcMethod = (typeof RPC_METHODS)[number];
export const RpcMethodSchema = z.enum(RPC_METHODS);
export const RpcBody = z.record(z.string(), z.unknown());

// ---- results (lenient) ----

export const X402PriceEntry = z.looseObject({
  provider: z.string(),
  price_sun: looseNumber,
  available: looseNumber,
});
export type X402PriceEntry = z.infer<typeof X402PriceEntry>;
export const X402PriceList = z.array(X402PriceEntry);

export const Trc20Balance = z.looseObject({
  symbol: z.string().optional(),
  contract: z.string(),
  balance: z.union([z.string(), z.number()]),
  decimals: looseNumber.optional(),
});

export const X402Account = z.looseObject({
  address: z.string(),
  balance: looseNumber,
  energy_limit: looseNumber,
  bandwidth_limit: looseNumber,
  /** Not shown by the spec; the mock sends this name. */
  trc20_balances: z.array(Trc20Balance).optional(),
});
export type X402Account = z.infer<typeof X402Account>;

const decimalOut = z.union([z.string(), z.number().transform(String)]);

export const Estimate = z.looseObject({
  energy_needed: looseNumber,
  bandwidth_needed: looseNumber,
  cost_trx: decimalOut,
});
export type Estimate = z.infer<typeof Estimate>;

export const SwapQuote = z.looseObject({ amount_out: decimalOut, price_impact: decimalOut, rate: decimalOut });
export type SwapQuote = z.infer<typeof SwapQuote>;

/** Chain parameters; individual fields are not shown by the spec, so any object is accepted. */
export const NetworkInfo = z.looseObject({});
export type NetworkInfo = z.infer<typeof NetworkInfo>;

export const Invoice = z.looseObject({
  invoice_id: z.string(),
  payment_url: z.string(),
  pay_to_address: z.string(),
  qr_data: z.string(),
});
export type Invoice = z.infer<typeof Invoice>;

export const Watch = z.looseObject({ watch_id: z.string(), expires_at: looseTimestamp, status: lenientEnum(['active', 'expired']) });
export type Watch = z.infer<typeof Watch>;

export const Receive = z.looseObject({ payment_id: z.string(), watch_address: z.string(), expires_at: looseTimestamp });
export type Receive = z.infer<typeof Receive>;

export const SendResult = z.looseObject({
  txid: z.string(),
  status: z.string(),
  resources: z.record(z.string(), z.unknown()),
});
export type SendResult = z.infer<typeof SendResult>;

export const BatchSendResult = z.looseObject({
  total: looseNumber,
  succeeded: looseNumber,
  failed: looseNumber,
  results: z.array(z.unknown()),
});
export type BatchSendResult = z.infer<typeof BatchSendResult>;

export const SwapExecution = z.looseObject({ txid: z.string(), amount_out: decimalOut });
export type SwapExecution = z.infer<typeof SwapExecution>;

export const RpcResult = z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]);
export type RpcResult = z.infer<typeof RpcResult>;

// ---- x402 wire format ----

export const ResourceInfo = z.looseObject({
  url: z.string(),
  description: z.string().optional(),
  mimeType: z.string().optional(),
});

const atomic = z.string().regex(/^\d+$/, 'must be an integer amount in atomic units');

export const PaymentRequirementsV2 = z.looseObject({
  scheme: z.string().min(1),
  network: z.string().min(1),
  amount: atomic,
  asset: z.string().min(1),
  payTo: z.string().min(1),
  maxTimeoutSeconds: z.number().int().nonnegative(),
  extra: z.record(z.string(), z.unknown()).optional(),
});
export type PaymentRequirementsV2 = z.infer<typeof PaymentRequirementsV2>;

export const PaymentRequiredV2 = z.looseObject({
  x402Version: z.literal(2),
  error: z.string().optional(),
  resource: ResourceInfo.optional(),
  accepts: z.array(z.unknown()),
  extensions: z.record(z.string(), z.unknown()).optional(),
});

export const PaymentRequirementsV1 = z.looseObject({
  scheme: z.string().min(1),
  network: z.string().min(1),
  maxAmountRequired: atomic,
  asset: z.string().min(1),
  payTo: z.string().min(1),
  resource: z.string(),
  description: z.string(),
  mimeType: z.string().optional(),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  maxTimeoutSeconds: z.number().int().nonnegative(),
  extra: z.record(z.string(), z.unknown()).optional(),
});
export type PaymentRequirementsV1 = z.infer<typeof PaymentRequirementsV1>;

export const PaymentRequiredV1 = z.looseObject({
  x402Version: z.literal(1),
  error: z.string().optional(),
  accepts: z.array(z.unknown()),
});

export const PaymentPayloadV2 = z.looseObject({
  x402Version: z.literal(2),
  resource: ResourceInfo.optional(),
  accepted: PaymentRequirementsV2,
  payload: z.record(z.string(), z.unknown()),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type PaymentPayloadV2 = z.infer<typeof PaymentPayloadV2>;

export const PaymentPayloadV1 = z.looseObject({
  x402Version: z.literal(1),
  scheme: z.string(),
  network: z.string(),
  payload: z.record(z.string(), z.unknown()),
});
export type PaymentPayloadV1 = z.infer<typeof PaymentPayloadV1>;

export const SettlementResponse = z.looseObject({
  success: z.boolean(),
  errorReason: z.string().optional(),
  errorMessage: z.string().optional(),
  transaction: z.string(),
  network: z.string(),
  payer: z.string().optional(),
  amount: z.string().optional(),
});
export type SettlementResponse = z.infer<typeof SettlementResponse>;
