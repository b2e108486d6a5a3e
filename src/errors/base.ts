/**
 * The base of every error trx-rent throws: `TrxRentError`, its brand (so `instanceof` and
 * `isTrxRentError` hold across the ESM and CJS builds), the code unions it is typed by, and the
 * request-id and Idempotency-Key helpers the HTTP client fills it with.
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
  // signers that cannot authorise the transfer under the account's permission (src/tron/account-signers.ts)
  | 'PERMISSION_DENIED'
  // a rental's target the chain refuses a delegation to (src/tron/target.ts)
  | 'TARGET_NOT_ACTIVATED'
  | 'TARGET_IS_CONTRACT'
  | 'TRANSFER_FAILED'
  | `HTTP_${number}`;

/**
 * The spec's error codes (an error's `code` may also be one this version does not know);
 * `ERROR_CLASSES` maps each to its class.
 */
export type ErrorCode =
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'DUPLICATE_REQUEST'
  | 'VALIDATION_ERROR'
  | 'INSUFFICIENT_BALANCE'
  | 'BELOW_MINIMUM_ORDER'
  | 'INVALID_ADDRESS'
  | 'PRICE_EXCEEDED'
  | 'RATE_LIMITED'
  | 'PROVIDER_UNAVAILABLE'
  | 'MAINTENANCE'
  | 'INTERNAL_ERROR'
  | 'BROADCAST_FAILED';

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
