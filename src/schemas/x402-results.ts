/**
 * Results of the pay-per-call API (`/x402/tron/*`), lenient as for the account API (unknown
 * keys kept). Each declares exactly the fields of the spec's "Resources and their fields" table
 * (plus the account's `trc20_balances`), so its strict reading (`src/internal/exact.ts`) is the
 * exact shape the mock must send. Amounts are decimal strings, never floats.
 * @module
 */
import * as z from 'zod';
import type { Known } from './known.js';
import { lenientEnum, looseNumber, looseTimestamp, sunAmount } from './common.js';
import { described } from './meta.js';

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
