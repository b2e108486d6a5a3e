import type * as z from 'zod/mini';
import { sha256 } from '../utils/base58check.js';
import { ConnectionError, TimeoutError, TrxRentError, errorFromBody, markKeyed } from '../errors/index.js';
import { type RetryListener, sendWithRetries } from './attempts.js';
import { type Clock, systemClock } from '../utils/clock.js';
import type { WithResponse } from './api-promise.js';
import { env } from './env.js';
import { type Logger, type LogLevel, resolveLogger } from './log.js';
import { scrubError } from '../internal/redact.js';
import { decodeResponse } from './response.js';
import type { FastCheck } from '../api/types.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy, isRetryableMethod } from './retry.js';
import { type Hooks, Transport } from './transport.js';
import { API_PREFIX } from '../api/prefixes.js';
import { baseString, buildUrl, insecureTransport, parseBaseUrl } from './url.js';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export type { Hooks } from './transport.js';

/** Default `maxPages`: how many pages `for await` over a list fetches at most. */
export const DEFAULT_MAX_PAGES = 1000;

/** Options of `new TrxRent(options)`; every one also has a default or an environment variable. */
export interface HttpClientOptions {
  /**
   * Account API key (`sk_live_…`), sent as X-API-Key.
   * @default process.env.TRX_RENT_API_KEY (unless `jwt` is given)
   */
  apiKey?: string | undefined;
  /**
   * JWT for web sessions, sent as `Authorization: Bearer …`.
   * @default undefined
   */
  jwt?: string | undefined;
  /**
   * Service origin, e.g. `https://api.example.com` (a trailing `/api/v1` is accepted).
   * There is no default host.
   * @default process.env.TRX_RENT_BASE_URL
   */
  baseUrl?: string | undefined;
  /**
   * Send the API key or JWT over plain `http://` to a host that is not loopback. Without it
   * such a request fails with INSECURE_TRANSPORT before anything is sent. Plain http to
   * `localhost`/`127.0.0.1`/`::1` (the mock, a local proxy) is always allowed.
   * @default false
   */
  allowInsecureHttp?: boolean | undefined;
  /**
   * Per-attempt timeout in milliseconds, covering the headers and the body.
   * @default 30000
   */
  timeoutMs?: number | undefined;
  /**
   * Retries after the first attempt (network errors, timeouts, 408, 429, 5xx; POST only with an
   * Idempotency-Key).
   * @default 2
   */
  maxRetries?: number | undefined;
  /**
   * Backoff tuning (full jitter); mostly for tests.
   * @default { baseDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60000 }
   */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>> | undefined;
  /**
   * Largest response body read, in bytes; a larger one fails with RESPONSE_TOO_LARGE as soon
   * as the cap is passed (and is not downloaded again by a retry).
   * @default 8388608 (8 MiB)
   */
  maxResponseBytes?: number | undefined;
  /**
   * Most pages `for await (… of client.orders.list())` fetches; past it the walk fails with
   * PAGINATION_LIMIT. The walk also ends on an empty page, a page of ids already seen, or an
   * offset past `total`.
   * @default 1000
   */
  maxPages?: number | undefined;
  /**
   * A fetch implementation (e.g. msw's, undici's, a test double).
   * @default globalThis.fetch, looked up on every request
   */
  fetch?: typeof fetch | undefined;
  /**
   * Whose time every wait and poll reads (retry backoff, `orders.waitFor`, the transfer
   * engine's waits): `virtualClock(mock.clock)` runs them on the mock's manual clock.
   * @default systemClock (wall time, real timers)
   */
  clock?: Clock | undefined;
  /**
   * Hooks run around every attempt with real Request/Response objects.
   * @default undefined
   */
  hooks?: Hooks | undefined;
  /**
   * Headers added to every request.
   * @default {}
   */
  headers?: Record<string, string> | undefined;
  /**
   * `debug` prints one line per attempt, response and retry (secrets redacted).
   * @default process.env.TRX_RENT_LOG === 'debug' ? 'debug' : 'off'
   */
  logLevel?: LogLevel | undefined;
  /**
   * Where debug lines go.
   * @default console.error
   */
  logger?: Logger | undefined;
  /**
   * Told before each retry waits (a 429 or 503 answer, a network fault, a timeout): the host,
   * the status, the retry's number and the wait (`RetryEvent`). For showing why a call is slow
   * (the CLI's status line); it cannot stop the retry, and without it nothing is computed.
   * `new TrxRent({ onRetry })` also hands it to the TRON node client.
   * @default undefined
   */
  onRetry?: RetryListener | undefined;
}

/** Per-call options accepted by every resource method. */
export interface RequestOptions {
  /** Per-attempt timeout for this call. @default the client's `timeoutMs` */
  timeoutMs?: number | undefined;
  /** Retries for this call. @default the client's `maxRetries` */
  maxRetries?: number | undefined;
  /** Cancels the call (and its retries); the abort reason is thrown as is. */
  signal?: AbortSignal | undefined;
  /** Headers for this call only. */
  headers?: Record<string, string> | undefined;
  /** For an idempotent entry of the table (`idempotent: true`); generated when not given. */
  idempotencyKey?: string | undefined;
}

export interface HttpRequest<S extends z.ZodMiniType> {
  method: HttpMethod;
  /** Path below the origin, already encoded (build it with `path` from `api/segment.ts`). */
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  body?: unknown;
  schema: S;
  /** The schema's build-time fast check, if it has one (see `decodeResponse`). */
  check?: FastCheck | null | undefined;
  /** Needs credentials; fails locally, before sending, when none are configured. */
  auth?: boolean;
  idempotencyKey?: string | undefined;
  options?: RequestOptions | undefined;
}

/**
 * The one request loop every resource goes through: auth headers, retries with backoff, the
 * error envelope to a typed error, the `{data}` envelope to the bare result, and response
 * validation with the resource's schema. Each attempt goes through the shared Transport
 * (deadline, no redirects, bounded body), as do the x402 client's.
 */
export class HttpClient {
  readonly baseUrl: string;
  /** Most pages auto-pagination fetches (see `maxPages`). */
  readonly maxPages: number;
  /** The clock every wait and poll of this client reads ({@link HttpClientOptions.clock}). */
  readonly clock: Clock;
  readonly #credentials: boolean;
  readonly #timeoutMs: number;
  readonly #policy: RetryPolicy;
  readonly #transport: Transport;
  /** accept + the caller's headers + the auth header: shared by requests that add nothing. */
  readonly #headers: Record<string, string>;
  /** The same plus `content-type: application/json`, for requests with a body. */
  readonly #jsonHeaders: Record<string, string>;
  readonly #logger: Logger | undefined;
  readonly #onRetry: RetryListener | undefined;
  /** The key or JWT, masked in the messages of errors a server answers (it may echo them back). */
  readonly #secrets: readonly string[];
  /** Set when credentials would go over plain http to a host that is not loopback: refused per request. */
  readonly #insecure: (() => TrxRentError) | undefined;

  /**
   * Who this client spends as: the service's origin and a fingerprint of its credential (16 hex
   * of its sha256, never the credential), which long-running work binds its journal to.
   */
  account(): { origin: string; account: string } {
    const secret = this.#secrets[0];
    const account = secret ? [...sha256(new TextEncoder().encode(secret)).subarray(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('') : 'anonymous';
    return { origin: new URL(this.baseUrl).origin, account };
  }

  constructor(options: HttpClientOptions = {}) {
    const url = parseBaseUrl(options.baseUrl ?? env('TRX_RENT_BASE_URL'), API_PREFIX.account, 'pass { baseUrl } or set TRX_RENT_BASE_URL');
    this.baseUrl = baseString(url);
    const apiKey = options.apiKey ?? (options.jwt ? undefined : env('TRX_RENT_API_KEY'));
    const jwt = apiKey ? undefined : options.jwt;
    this.#credentials = Boolean(apiKey || jwt);
    this.#secrets = apiKey ? [apiKey] : jwt ? [jwt] : [];
    this.#headers = { accept: 'application/json', ...options.headers };
    if (apiKey) this.#headers['x-api-key'] = apiKey;
    else if (jwt) this.#headers.authorization = `Bearer ${jwt}`;
    this.#jsonHeaders = { ...this.#headers, 'content-type': 'application/json' };
    const what = apiKey ? 'the API key' : 'the JWT';
    this.#insecure = this.#credentials && insecureTransport(url, what, options.allowInsecureHttp) ? () => insecureTransport(url, what, false)! : undefined;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retry, maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries };
    this.maxPages = options.maxPages ?? DEFAULT_MAX_PAGES;
    if (!Number.isSafeInteger(this.maxPages) || this.maxPages < 1) throw new RangeError(`maxPages must be a positive integer, not ${String(options.maxPages)}`);
    this.#logger = resolveLogger(options);
    this.#onRetry = options.onRetry;
    this.clock = options.clock ?? systemClock;
    this.#transport = new Transport(options);
  }

  /** Whether an API key or JWT is configured. */
  get hasCredentials(): boolean {
    return this.#credentials;
  }

  /** The absolute URL of an API path (with its query), as requests are sent. */
  url(path: string, query?: HttpRequest<z.ZodMiniType>['query']): string {
    return buildUrl(this.baseUrl, path, query);
  }

  /**
   * Sends one request through the retry loop and parses it with `req.schema`.
   * @internal The resources' building block (and the CLI's `api` command); its shape may change.
   */
  async request<S extends z.ZodMiniType>(req: HttpRequest<S>): Promise<WithResponse<z.output<S>>> {
    const { method, options = {} } = req;
    if (req.auth !== false && !this.#credentials) {
      throw errorFromBody(401, {
        error: {
          code: 'UNAUTHORIZED',
          message: 'No credentials: pass { apiKey } or { jwt }, or set TRX_RENT_API_KEY.',
        },
      });
    }
    if (this.#insecure) throw this.#insecure();
    const url = req.query ? buildUrl(this.baseUrl, req.path, req.query) : this.baseUrl + req.path;
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    let headers: Record<string, string>;
    if (options.headers) {
      headers = { ...this.#headers, ...options.headers };
      if (body !== undefined) headers['content-type'] = 'application/json';
      if (req.idempotencyKey) headers['idempotency-key'] = req.idempotencyKey;
    } else {
      // Prebuilt, plus one literal for the key: a spread then property stores cost as much as
      // the body's JSON.stringify in a profile of POST /orders.
      headers = body === undefined ? this.#headers : this.#jsonHeaders;
      if (req.idempotencyKey) headers = { ...headers, 'idempotency-key': req.idempotencyKey };
    }
    const maxRetries = options.maxRetries ?? this.#policy.maxRetries;
    const label = `${method} ${req.path}`;
    const { idempotencyKey, schema, check } = req;
    return sendWithRetries({
      transport: this.#transport,
      url,
      init: { method, headers, body, timeoutMs: options.timeoutMs ?? this.#timeoutMs, signal: options.signal, label },
      policy: this.#policy,
      clock: this.clock,
      maxRetries,
      canRetry: isRetryableMethod(method, Boolean(idempotencyKey)),
      log: this.#logger && this.#logLine,
      onRetry: this.#onRetry,
      finish: ({ response, text }) => {
        try {
          return { data: decodeResponse(schema, response, text, label, undefined, check), response };
        } catch (error) {
          // A server that echoes our key or JWT back must not put it in an error message.
          throw scrubError(error, this.#secrets);
        }
      },
      // A 409 on a *retry* of our own keyed POST means the earlier attempt (which we gave up
      // on) is still being processed: wait and ask again; the server then replays its result.
      again: idempotencyKey ? inFlight : undefined,
      // A keyed POST's final error carries its key, and whether some attempt got no answer.
      fail: idempotencyKey
        ? (error, unanswered) =>
            error instanceof TrxRentError
              ? markKeyed(error, idempotencyKey, unanswered || error instanceof ConnectionError || error instanceof TimeoutError)
              : error
        : undefined,
    });
  }

  readonly #logLine = (message: string): void => this.#log(message);

  #log(message: string): void {
    this.#logger?.debug(`trx-rent ${message}`);
  }
}

/** A keyed POST's retry answered 409 DUPLICATE_REQUEST: the first attempt is still in flight. */
function inFlight(error: TrxRentError, response: Response, attempt: number): boolean {
  return response.status === 409 && attempt > 0 && error.code === 'DUPLICATE_REQUEST';
}
