/**
 * The errors trx-rent raises itself, with no usable response behind them: the connection and
 * deadline failures, a refused redirect or insecure transport, an oversized body, the pagination
 * limit, a failed order wait and a missing optional peer.
 * @module
 */
import { TrxRentError } from './base.js';
import { nameClass } from './name.js';

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
