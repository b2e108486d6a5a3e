/**
 * The x402 wire format, v1 and v2: the challenge of a 402 and its offers, the payment payload of
 * the paid retry, and the settlement response, as the headers and bodies carry them (base64 JSON
 * or a JSON body). Lenient: unknown keys kept.
 * @module
 */
import * as z from 'zod';
import type { Known } from './known.js';

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
