/**
 * What the document needs besides the endpoint table: the names of its component schemas (each
 * schema's export name in `src/schemas`), the error envelope narrowed to some codes, the x402
 * challenge, and the few response fields whose wire type is narrower than the SDK's lenient
 * schema. No path and no per-endpoint fact lives here: those are in `src/api`.
 *
 * @module
 */
import * as z from 'zod';
import { extend } from 'zod/mini';
import * as accountSchemas from '../schemas/index.js';
import { ErrorEnvelope } from '../schemas/errors.js';
import { PreviewOption } from '../schemas/prices.js';
import * as x402Schemas from '../schemas/x402.js';
import type { JsonSchema } from './json-schema.js';

/**
 * Component names by schema: the export name in `src/schemas` (prefixed `X402` for the
 * pay-per-call API's, as they share names like `Estimate` with nothing but read better so).
 */
export function schemaNames(): Map<z.core.$ZodType, string> {
  const names = new Map<z.core.$ZodType, string>();
  const add = (module: Record<string, unknown>, prefix: string) => {
    for (const [name, value] of Object.entries(module)) {
      if (!(value instanceof z.core.$ZodType) || !/^[A-Z]/.test(name) || names.has(value)) continue;
      names.set(value, name.startsWith(prefix) ? name : `${prefix}${name}`);
    }
  };
  add(accountSchemas, '');
  add(x402Schemas, 'X402');
  return names;
}

/** The error envelope restricted to some codes (one response status of one endpoint). */
export function errorWithCodes(codes: readonly [string, ...string[]]) {
  return z.looseObject({ error: extend(ErrorEnvelope.shape.error, { code: z.enum(codes) }) });
}

/** The x402 v2 challenge: body of a 402 and (base64) its PAYMENT-REQUIRED header. */
export const PaymentRequired = x402Schemas.PaymentRequiredV2.extend({ accepts: z.array(x402Schemas.PaymentRequirementsV2).min(1) });

/** Response fields of the account API whose shared schema is wider than the spec's type. */
export const ACCOUNT_RESPONSE_REPLACE = new Map<z.core.$ZodType, JsonSchema>([
  // Spec: cost_trx is a number (total cost in TRX); the live service sends a string, the SDK takes both.
  [PreviewOption.shape.cost_trx, { type: 'number', description: 'Total cost in TRX.' }],
]);

/** Fields of the paid API's results where the shared schema is wider than the spec. */
export const X402_RESPONSE_REPLACE = new Map<z.core.$ZodType, JsonSchema>([
  // Decimal amounts are strings on the wire (the SDK also takes numbers). One schema serves every
  // decimal result (cost_trx, amount_out, price_impact, rate); described copies resolve to it.
  [x402Schemas.SwapQuote.shape.amount_out, { type: 'string' }],
  // Spec: "Allowed status values: not shown".
  [x402Schemas.Watch.shape.status, { type: 'string' }],
  // Not shown by the spec (the field name itself is the mock's); decimal string or number.
  [x402Schemas.Trc20Balance.shape.balance, { type: 'string' }],
]);
