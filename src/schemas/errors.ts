import { z } from 'zod';
import { lenientEnum } from './common.js';

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

/** Status each code has in the spec's Errors table (endpoint rows may use another; see below). */
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

export const ErrorCodeSchema = lenientEnum(ERROR_CODES);

/** `{ error: { code, message, details? } }` */
export const ErrorEnvelope = z.looseObject({
  error: z.looseObject({
    code: ErrorCodeSchema,
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
