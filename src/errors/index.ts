/**
 * Typed errors. The class follows the `code` in the error envelope, whatever the HTTP status
 * (the spec lists two statuses for some codes); unknown codes keep their code on TrxRentError.
 * @module
 */
import { nameClass } from './name.js';

/**
 * Codes trx-rent itself raises (no response behind them, or a response it could not use), and
 * names older material of the live service uses.
 */
export type LocalErrorCode =
  | 'CONNECTION_ERROR'
  | 'TIMEOUT'
  | 'REDIRECT_REFUSED'
  | 'INSECURE_TRANSPORT'
  | 'RESPONSE_TOO_LARGE'
  | 'PAGINATION_LIMIT'
  | 'ORDER_FAILED'
  | 'MISSING_PEER_DEPENDENCY'
  | 'CONFIGURATION_ERROR'
  | 'INVALID_RESPONSE'
  | 'INVALID_TRANSACTION'
  | 'PAYMENT_REFUSED'
  | 'PAYMENT_FAILED'
  | 'PAYMENT_SIGNING_FAILED'
  | 'INVALID_PAYMENT_CHALLENGE'
  | 'NO_WALLET'
  | 'ORDER_NOT_FOUND'
  | 'INSUFFICIENT_FUNDS'
  | 'INVALID_AMOUNT'
  | 'UNKNOWN'
  // transfers and ensure (src/tron)
  | 'CANCELLED'
  | 'SPENDING_CAP_EXCEEDED'
  | 'INSUFFICIENT_TRX'
  | 'INSUFFICIENT_TOKEN_BALANCE'
  | 'NODE_ERROR'
  | 'SIMULATION_FAILED'
  | 'SENDER_NOT_ACTIVATED'
  | 'TRANSFER_FAILED'
  | `HTTP_${number}`;

/**
 * The `code` of a {@link TrxRentError}: a spec code ({@link ErrorCode}) or one of
 * {@link LocalErrorCode}. Typed as this union so a misspelt comparison
 * (`e.code === 'INSUFICIENT_BALANCE'`) does not compile. At run time a code the service adds
 * later is kept as it arrives (never replaced): handle it in a `default` branch, e.g.
 * `String(e.code)`.
 */
export type TrxRentErrorCode = ErrorCode | LocalErrorCode;

/** What a {@link TrxRentError} is built from. */
export interface TrxRentErrorInit {
  /** Any code: the service's codes are kept as sent, known or not. */
  code: string;
  message: string;
  status?: number | undefined;
  details?: Record<string, unknown> | undefined;
  headers?: Headers | undefined;
  /** The server's id for the request (`x-request-id` header or `request_id` in the body). */
  requestId?: string | undefined;
  cause?: unknown;
}

/**
 * The brand every TrxRentError carries. A registered symbol is the same in every copy of this
 * package loaded in one process (the ESM and the CJS build, two versions side by side, a
 * bundled copy), where each copy has its own TrxRentError class and `instanceof` fails.
 */
const BRAND = Symbol.for('trx-rent.error');

/**
 * True for any error thrown by trx-rent, whichever copy of the package threw it (ESM or CJS
 * build, another realm): checks the brand, not the class.
 */
export function isTrxRentError(value: unknown): value is TrxRentError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/**
 * Base of every error trx-rent throws. `code` is the error envelope's code (or a local one such
 * as `CONNECTION_ERROR`); check it, or the subclass, rather than the message.
 */
export class TrxRentError extends Error {
  /**
   * Machine-readable code from the error envelope (e.g. `INSUFFICIENT_BALANCE`), typed as the
   * known codes ({@link TrxRentErrorCode}); an unknown code from the service is kept at run time.
   */
  readonly code: TrxRentErrorCode;
  /** HTTP status, when the error came from a response. */
  readonly status: number | undefined;
  /** The envelope's `details` (e.g. `{ field, min }`), or local validation details. */
  readonly details: Record<string, unknown> | undefined;
  /** Response headers, when the error came from a response. */
  readonly headers: Headers | undefined;
  /** The server's id for the request (`x-request-id` header or `request_id` in the body), for support. */
  readonly requestId: string | undefined;
  /**
   * On the final error of a keyed POST (`orders.create`, `withdrawals.create`): the
   * Idempotency-Key every attempt carried, the one the SDK generated when none was given. Pass it
   * back as `{ idempotencyKey }` to retry safely: the service answers with what the first request
   * created instead of acting twice. Always set on a ConnectionError or TimeoutError of a keyed POST.
   */
  declare readonly idempotencyKey?: string;
  /**
   * On the final error of a keyed POST: true when some attempt got no answer (connection lost,
   * timeout), so the request may have been carried out even if a later attempt got a 4xx such as
   * RATE_LIMITED. Retry with `idempotencyKey`, or look for the order, before counting it as not
   * done.
   */
  declare readonly outcomeUnknown?: boolean;

  constructor(init: TrxRentErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = init.code as TrxRentErrorCode;
    this.status = init.status;
    this.details = init.details;
    this.headers = init.headers;
    this.requestId = init.requestId ?? readRequestId(init.headers, undefined);
  }

  /**
   * `error instanceof TrxRentError` holds for errors of every copy of the package (ESM and CJS
   * builds): the base class checks the brand. Subclasses keep the ordinary prototype check.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return this === TrxRentError ? isTrxRentError(value) : Function.prototype[Symbol.hasInstance].call(this, value);
  }

  /** The field a validation error is about, when known. */
  get field(): string | undefined {
    const field = this.details?.field;
    return typeof field === 'string' ? field : undefined;
  }
}

Object.defineProperty(TrxRentError.prototype, BRAND, { value: true });
// The bundler renames a class that refers to itself (`class _TrxRentError`, see hasInstance
// above), and a minifier renames every class; `err.name`, stack traces and `TrxRentError.name`
// must show the real name.
nameClass(TrxRentError, 'TrxRentError');

/**
 * Marks the final error of a keyed POST with its Idempotency-Key and whether its outcome is
 * unknown (some attempt got no answer).
 * @internal The HTTP client's; callers read `idempotencyKey` and `outcomeUnknown`.
 */
export function markKeyed(error: TrxRentError, idempotencyKey: string, outcomeUnknown: boolean): TrxRentError {
  Object.defineProperty(error, 'idempotencyKey', { value: idempotencyKey, enumerable: true, configurable: true });
  Object.defineProperty(error, 'outcomeUnknown', { value: outcomeUnknown, enumerable: true, configurable: true });
  return error;
}

/** The request id of a response: the `x-request-id` header, else `request_id` in the body or its error envelope. */
export function readRequestId(headers: Headers | undefined, body: unknown): string | undefined {
  const header = headers?.get('x-request-id');
  if (header) return header;
  if (body === null || typeof body !== 'object') return undefined;
  const top = (body as { request_id?: unknown }).request_id;
  if (typeof top === 'string' && top) return top;
  const inner = (body as { error?: { request_id?: unknown } }).error?.request_id;
  return typeof inner === 'string' && inner ? inner : undefined;
}

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

/**
 * Why a connection failed, from the system error under fetch's own: `refused` (nothing
 * listening), `dns` (host not found), `tls` (certificate or handshake), `timeout`, `reset`
 * (dropped), `unreachable` (no route), or `network` (anything else).
 */
export type ConnectionFailure = 'refused' | 'dns' | 'tls' | 'timeout' | 'reset' | 'unreachable' | 'network';

/** What a ConnectionError or a transport TimeoutError carries in `details`. */
export interface ConnectionDetails {
  /** The kind of failure. */
  cause: ConnectionFailure;
  /** The system error code when there was one (`ECONNREFUSED`, `ENOTFOUND`, `CERT_HAS_EXPIRED` …). */
  syscode?: string | undefined;
  /** Where the request went: origin and path, no query. */
  url?: string | undefined;
}

/**
 * The request did not get an answer: the connection was refused, the host not found, TLS
 * failed, it was dropped … `details.cause` says which (see ConnectionDetails). For a keyed POST
 * (an order, a withdrawal) `idempotencyKey` holds the key that was sent and `outcomeUnknown` is
 * true: the request may have been carried out, so retry with `{ idempotencyKey: error.idempotencyKey }`
 * (never a new key) to learn its result without acting twice.
 */
export class ConnectionError extends TrxRentError {
  static {
    nameClass(this, 'ConnectionError');
  }
  constructor(message: string, cause?: unknown, details?: ConnectionDetails) {
    super({ code: 'CONNECTION_ERROR', message, cause, details: details as Record<string, unknown> | undefined });
  }
}

/**
 * A request (or a wait such as `orders.waitFor`) ran past its deadline. From the transport,
 * `details` is `{ cause: 'timeout', url }`. For a keyed POST (an order, a withdrawal)
 * `idempotencyKey` holds the key that was sent and `outcomeUnknown` is true: retry with
 * `{ idempotencyKey: error.idempotencyKey }` to learn its result without acting twice.
 */
export class TimeoutError extends TrxRentError {
  static {
    nameClass(this, 'TimeoutError');
  }
  constructor(message: string, cause?: unknown, details?: ConnectionDetails) {
    super({ code: 'TIMEOUT', message, cause, details: details as Record<string, unknown> | undefined });
  }
}

/**
 * The server answered with a redirect (3xx). Redirects are never followed: the API key, a
 * payment signature or the request body would go along to wherever `Location` points.
 * `details.location` is where the server wanted to send the request. Not retried.
 */
export class RedirectRefusedError extends TrxRentError {
  static {
    nameClass(this, 'RedirectRefusedError');
  }
  constructor(init: { message: string; status: number; location: string | null; headers?: Headers | undefined }) {
    super({ code: 'REDIRECT_REFUSED', message: init.message, status: init.status, headers: init.headers, details: { location: init.location } });
  }
}

/** Credentials would travel over plain `http://` to a host that is not loopback; nothing was sent. */
export class InsecureTransportError extends TrxRentError {
  static {
    nameClass(this, 'InsecureTransportError');
  }
  constructor(message: string) {
    super({ code: 'INSECURE_TRANSPORT', message });
  }
}

/** The response body is larger than `maxResponseBytes`; reading stopped there. Not retried. */
export class ResponseTooLargeError extends TrxRentError {
  static {
    nameClass(this, 'ResponseTooLargeError');
  }
  constructor(init: { message: string; status: number; limit: number; headers?: Headers | undefined }) {
    super({ code: 'RESPONSE_TOO_LARGE', message: init.message, status: init.status, headers: init.headers, details: { limit: init.limit } });
  }
}

/** Auto-pagination fetched `maxPages` pages and the server still had more to give. */
export class PaginationLimitError extends TrxRentError {
  static {
    nameClass(this, 'PaginationLimitError');
  }
  constructor(maxPages: number) {
    super({
      code: 'PAGINATION_LIMIT',
      message: `Stopped after ${maxPages} pages (maxPages); the server still reports more. Narrow the query or raise maxPages.`,
      details: { maxPages },
    });
  }
}

/** `orders.waitFor` saw the order end other than FILLED: FAILED, CANCELLED, PARTIALLY_FILLED or EXPIRED (`details.status`). */
export class OrderFailedError extends TrxRentError {
  static {
    nameClass(this, 'OrderFailedError');
  }
  readonly order: unknown;
  constructor(order: { id?: unknown; status?: unknown }) {
    const status = order.status === undefined ? 'FAILED' : String(order.status);
    super({
      code: 'ORDER_FAILED',
      message: status === 'FAILED' ? `Order ${String(order.id)} failed` : `Order ${String(order.id)} ended ${status}, not FILLED`,
      details: { order, status },
    });
    this.order = order;
  }
}

/** An optional peer dependency is not installed; the message names the `npm install` to run. */
export class MissingPeerDependencyError extends TrxRentError {
  static {
    nameClass(this, 'MissingPeerDependencyError');
  }
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

/** The spec's error codes (an error's `code` may also be one this version does not know). */
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
  const requestId = readRequestId(headers, body);
  const Class: typeof TrxRentError = Object.hasOwn(ERROR_CLASSES, code) ? (ERROR_CLASSES as Record<string, typeof TrxRentError>)[code]! : TrxRentError;
  if (Class === RateLimitedError) {
    return new RateLimitedError({ code, message, status, details, headers, requestId, retryAfterMs });
  }
  return new Class({ code, message, status, details, headers, requestId });
}
