/**
 * Typed errors. The class follows the `code` in the error envelope, whatever the HTTP status
 * (the spec lists two statuses for some codes); unknown codes keep their code on TrxRentError.
 */

export interface TrxRentErrorInit {
  code: string;
  message: string;
  status?: number | undefined;
  details?: Record<string, unknown> | undefined;
  headers?: Headers | undefined;
  cause?: unknown;
}

export class TrxRentError extends Error {
  /** Machine-readable code from the error envelope (e.g. `INSUFFICIENT_BALANCE`). */
  readonly code: string;
  /** HTTP status, when the error came from a response. */
  readonly status: number | undefined;
  /** The envelope's `details` (e.g. `{ field, min }`), or local validation details. */
  readonly details: Record<string, unknown> | undefined;
  /** Response headers, when the error came from a response. */
  readonly headers: Headers | undefined;

  constructor(init: TrxRentErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code;
    this.status = init.status;
    this.details = init.details;
    this.headers = init.headers;
  }

  /** The field a validation error is about, when known. */
  get field(): string | undefined {
    const field = this.details?.field;
    return typeof field === 'string' ? field : undefined;
  }
}

export class UnauthorizedError extends TrxRentError {}
export class ForbiddenError extends TrxRentError {}
export class NotFoundError extends TrxRentError {}
export class DuplicateRequestError extends TrxRentError {}
export class ValidationError extends TrxRentError {}
export class InsufficientBalanceError extends TrxRentError {}
export class BelowMinimumOrderError extends TrxRentError {}
export class InvalidAddressError extends TrxRentError {}
export class PriceExceededError extends TrxRentError {}
export class ProviderUnavailableError extends TrxRentError {}
export class MaintenanceError extends TrxRentError {}
export class InternalError extends TrxRentError {}
export class BroadcastFailedError extends TrxRentError {}

export class RateLimitedError extends TrxRentError {
  /** How long the server asked us to wait (from Retry-After), in milliseconds. */
  readonly retryAfterMs: number | undefined;
  constructor(init: TrxRentErrorInit & { retryAfterMs?: number | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** The request never got a response: DNS, refused or reset connection, aborted body. */
export class ConnectionError extends TrxRentError {
  constructor(message: string, cause?: unknown) {
    super({ code: 'CONNECTION_ERROR', message, cause });
  }
}

/** A request (or a wait such as `orders.waitFor`) ran past its deadline. */
export class TimeoutError extends TrxRentError {
  constructor(message: string, cause?: unknown) {
    super({ code: 'TIMEOUT', message, cause });
  }
}

/** `orders.waitFor` saw the order reach FAILED. */
export class OrderFailedError extends TrxRentError {
  readonly order: unknown;
  constructor(order: { id?: unknown; status?: unknown }) {
    super({ code: 'ORDER_FAILED', message: `Order ${String(order.id)} failed`, details: { order } });
    this.order = order;
  }
}

/** An optional peer dependency is not installed; the message names the `npm install` to run. */
export class MissingPeerDependencyError extends TrxRentError {
  readonly packages: string[];
  constructor(packages: string[], feature: string, cause?: unknown) {
    super({
      code: 'MISSING_PEER_DEPENDENCY',
      message: `${feature} needs ${packages.join(', ')}. Install with: npm install ${packages.join(' ')}`,
      cause,
    });
    this.packages = packages;
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
} as const satisfies Record<string, typeof TrxRentError>;

export type ErrorCode = keyof typeof ERROR_CLASSES;

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
export function errorFromBody(
  status: number | undefined,
  body: unknown,
  headers?: Headers,
  retryAfterMs?: number,
): TrxRentError {
  const envelope =
    body && typeof body === 'object' && 'error' in body ? (body as { error: unknown }).error : undefined;
  const e = envelope && typeof envelope === 'object' ? (envelope as Record<string, unknown>) : undefined;
  const code =
    typeof e?.code === 'string' && e.code
      ? e.code
      : (status !== undefined && CODE_BY_STATUS[status]) || (status !== undefined ? `HTTP_${status}` : 'UNKNOWN');
  const message =
    typeof e?.message === 'string' && e.message
      ? e.message
      : typeof envelope === 'string'
        ? envelope
        : `Request failed${status !== undefined ? ` with status ${status}` : ''}`;
  const details =
    e?.details && typeof e.details === 'object' ? (e.details as Record<string, unknown>) : undefined;
  const Class: typeof TrxRentError = (ERROR_CLASSES as Record<string, typeof TrxRentError>)[code] ?? TrxRentError;
  if (Class === RateLimitedError) {
    return new RateLimitedError({ code, message, status, details, headers, retryAfterMs });
  }
  return new Class({ code, message, status, details, headers });
}
