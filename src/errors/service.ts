/**
 * The service's errors: one `TrxRentError` subclass per spec code, the code-to-class table and
 * `errorFromBody`, which turns an error envelope (or a body without one) into the typed error.
 * The class follows the `code` in the envelope, whatever the HTTP status (the spec lists two
 * statuses for some codes); unknown codes keep their code on TrxRentError.
 * @module
 */
import { type ErrorCode, readRequestId, TrxRentError, type TrxRentErrorInit } from './base.js';
import { nameClass } from './name.js';

/** `UNAUTHORIZED` (401): the API key is missing, wrong or revoked. */
export class UnauthorizedError extends TrxRentError {
  static {
    nameClass(this, 'UnauthorizedError');
  }
}
/** `FORBIDDEN` (403): the key lacks the permission the endpoint needs. */
export class ForbiddenError extends TrxRentError {
  static {
    nameClass(this, 'ForbiddenError');
  }
}
/** `NOT_FOUND` (404): no such order, key, webhook or withdrawal. */
export class NotFoundError extends TrxRentError {
  static {
    nameClass(this, 'NotFoundError');
  }
}
/** `DUPLICATE_REQUEST` (409): the Idempotency-Key was already used with different parameters. */
export class DuplicateRequestError extends TrxRentError {
  static {
    nameClass(this, 'DuplicateRequestError');
  }
}
/** `VALIDATION_ERROR` (422, or raised locally before sending): the request failed validation; `field` names the field. */
export class ValidationError extends TrxRentError {
  static {
    nameClass(this, 'ValidationError');
  }
}
/** `INSUFFICIENT_BALANCE` (422): the balance does not cover the order or withdrawal. */
export class InsufficientBalanceError extends TrxRentError {
  static {
    nameClass(this, 'InsufficientBalanceError');
  }
}
/** `BELOW_MINIMUM_ORDER` (422): the amount is below the provider's minimum. */
export class BelowMinimumOrderError extends TrxRentError {
  static {
    nameClass(this, 'BelowMinimumOrderError');
  }
}
/** `INVALID_ADDRESS` (422): a TRON address failed validation. */
export class InvalidAddressError extends TrxRentError {
  static {
    nameClass(this, 'InvalidAddressError');
  }
}
/** `PRICE_EXCEEDED` (422): the current price is above `max_price_sun`. */
export class PriceExceededError extends TrxRentError {
  static {
    nameClass(this, 'PriceExceededError');
  }
}
/** `PROVIDER_UNAVAILABLE` (503): no provider can fill the request now. */
export class ProviderUnavailableError extends TrxRentError {
  static {
    nameClass(this, 'ProviderUnavailableError');
  }
}
/** `MAINTENANCE` (503): the platform is in maintenance; retried with backoff. */
export class MaintenanceError extends TrxRentError {
  static {
    nameClass(this, 'MaintenanceError');
  }
}
/** `INTERNAL_ERROR` (500): the service failed; retried with backoff when the request is safe to repeat. */
export class InternalError extends TrxRentError {
  static {
    nameClass(this, 'InternalError');
  }
}
/** `BROADCAST_FAILED` (502): the signed transaction could not be broadcast. */
export class BroadcastFailedError extends TrxRentError {
  static {
    nameClass(this, 'BroadcastFailedError');
  }
}

/** `RATE_LIMITED` (429): too many requests; `retryAfterMs` says how long to wait. Retried automatically. */
export class RateLimitedError extends TrxRentError {
  static {
    nameClass(this, 'RateLimitedError');
  }
  /** How long the server asked us to wait (from Retry-After), in milliseconds. */
  readonly retryAfterMs: number | undefined;
  constructor(init: TrxRentErrorInit & { retryAfterMs?: number | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** Spec error codes and the class each one maps to. */
export const ERROR_CLASSES = {
  UNAUTHORIZED: UnauthorizedError,
  FORBIDDEN: ForbiddenError,
  NOT_FOUND: NotFoundError,
  DUPLICATE_REQUEST: DuplicateRequestError,
  VALIDATION_ERROR: ValidationError,
  INSUFFICIENT_BALANCE: InsufficientBalanceError,
  BELOW_MINIMUM_ORDER: BelowMinimumOrderError,
  INVALID_ADDRESS: InvalidAddressError,
  PRICE_EXCEEDED: PriceExceededError,
  RATE_LIMITED: RateLimitedError,
  PROVIDER_UNAVAILABLE: ProviderUnavailableError,
  MAINTENANCE: MaintenanceError,
  INTERNAL_ERROR: InternalError,
  BROADCAST_FAILED: BroadcastFailedError,
} as const satisfies Record<ErrorCode, typeof TrxRentError>;

// Used when a body carries no usable code (an HTML 502 from a proxy, an empty 404).
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'DUPLICATE_REQUEST',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
};

/** Build the typed error for an error envelope (or a body without one). */
export function errorFromBody(status: number | undefined, body: unknown, headers?: Headers, retryAfterMs?: number): TrxRentError {
  const envelope = body && typeof body === 'object' && 'error' in body ? (body as { error: unknown }).error : undefined;
  const e = envelope && typeof envelope === 'object' ? (envelope as Record<string, unknown>) : undefined;
  const code =
    typeof e?.code === 'string' && e.code ? e.code : (status !== undefined && CODE_BY_STATUS[status]) || (status !== undefined ? `HTTP_${status}` : 'UNKNOWN');
  const message =
    typeof e?.message === 'string' && e.message
      ? e.message
      : typeof envelope === 'string'
        ? envelope
        : `Request failed${status !== undefined ? ` with status ${status}` : ''}`;
  const details = e?.details && typeof e.details === 'object' ? (e.details as Record<string, unknown>) : undefined;
  const requestId = readRequestId(headers, body);
  const Class: typeof TrxRentError = Object.hasOwn(ERROR_CLASSES, code) ? (ERROR_CLASSES as Record<string, typeof TrxRentError>)[code]! : TrxRentError;
  if (Class === RateLimitedError) {
    return new RateLimitedError({ code, message, status, details, headers, requestId, retryAfterMs });
  }
  return new Class({ code, message, status, details, headers, requestId });
}
