import * as z from 'zod/mini';
import type { Known } from './known.js';
import { lenientEnum } from './common.js';

/**
 * The error codes of the spec's Errors table. Responses may carry others (older material of the
 * live service uses e.g. `INSUFFICIENT_FUNDS`); {@link ErrorCodeSchema} keeps those as strings.
 */
export const ERROR_CODES = [
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'DUPLICATE_REQUEST',
  'VALIDATION_ERROR',
  'INSUFFICIENT_BALANCE',
  'BELOW_MINIMUM_ORDER',
  'INVALID_ADDRESS',
  'PRICE_EXCEEDED',
  'RATE_LIMITED',
  'PROVIDER_UNAVAILABLE',
  'MAINTENANCE',
  'INTERNAL_ERROR',
  'BROADCAST_FAILED',
] as const;

/**
 * HTTP status of each code in the spec's Errors table. Some endpoints answer with another status
 * for the same code: `VALIDATION_ERROR` as 400 (order creation, deposit submit),
 * `INSUFFICIENT_BALANCE` as 402 (order creation) and 400 (withdrawal). Both occur.
 */
export const ERROR_STATUS: Record<(typeof ERROR_CODES)[number], number> = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  DUPLICATE_REQUEST: 409,
  VALIDATION_ERROR: 422,
  INSUFFICIENT_BALANCE: 422,
  BELOW_MINIMUM_ORDER: 422,
  INVALID_ADDRESS: 422,
  PRICE_EXCEEDED: 422,
  RATE_LIMITED: 429,
  PROVIDER_UNAVAILABLE: 503,
  MAINTENANCE: 503,
  INTERNAL_ERROR: 500,
  BROADCAST_FAILED: 502,
};

/** An error `code` in a response: one of {@link ERROR_CODES}, or any other string the service sends. */
export const ErrorCodeSchema = lenientEnum(ERROR_CODES);

/**
 * The error body of the account API: `{ error: { code, message, details? } }`. `details` is
 * free-form, e.g. `{ field, min }` for an energy amount below 65000. The live service sends this
 * envelope with 2xx statuses too.
 */
export const ErrorEnvelope = z.looseObject({
  error: z.looseObject({
    /** Machine-readable code, e.g. `INSUFFICIENT_BALANCE`; unknown codes are kept. */
    code: ErrorCodeSchema,
    /** Human-readable explanation. */
    message: z.string(),
    /** Extra data, when the service gives any (e.g. `{ field, min }`). */
    details: z.optional(z.record(z.string(), z.unknown())),
  }),
});
export type ErrorEnvelope = Known<z.infer<typeof ErrorEnvelope>>;
