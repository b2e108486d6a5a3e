import type { z } from 'zod';
import { TrxRentError, errorFromBody } from '../errors/index.js';
import { isErrorEnvelope, unwrapEnvelope } from '../schemas/common.js';
import type { WithResponse } from './api-promise.js';
import { type Logger, type LogLevel, stderrLogger } from './log.js';
import { type Hooks, sendOnce } from './transport.js';
import { buildUrl } from './url.js';
import {
  DEFAULT_RETRY_POLICY,
  RETRYABLE_STATUSES,
  type RetryPolicy,
  backoffDelay,
  isRetryableMethod,
  parseRetryAfter,
  sleep,
} from './retry.js';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export type { Hooks } from './transport.js';

export interface HttpClientOptions {
  /** Account API key (`sk_live_…`), sent as X-API-Key. */
  apiKey?: string | undefined;
  /** JWT for web sessions, sent as `Authorization: Bearer …`. */
  jwt?: string | undefined;
  /** Service origin, e.g. `https://api.example.com`; defaults to TRX_RENT_BASE_URL. */
  baseUrl?: string | undefined;
  /** Per-attempt timeout. Default 30 000 ms. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt. Default 2. */
  maxRetries?: number | undefined;
  /** Backoff tuning (full jitter); mostly for tests. */
  retry?: Partial<Omit<RetryPolicy, 'maxRetries'>> | undefined;
  /** A fetch implementation (e.g. msw's, undici's, a test double). */
  fetch?: typeof fetch | undefined;
  hooks?: Hooks | undefined;
  /** Headers added to every request. */
  headers?: Record<string, string> | undefined;
  /** `debug` prints one line per attempt, response and retry (secrets redacted). Also TRX_RENT_LOG=debug. */
  logLevel?: LogLevel | undefined;
  logger?: Logger | undefined;
}

/** Per-call options accepted by every resource method. */
export interface RequestOptions {
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  signal?: AbortSignal | undefined;
  headers?: Record<string, string> | undefined;
  /** For POST /orders and POST /withdraw; generated when not given. */
  idempotencyKey?: string | undefined;
}

export interface HttpRequest<S extends z.ZodType> {
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | boolean | undefined> | undefined;
  body?: unknown;
  schema: S;
  /** Needs credentials; fails locally, before sending, when none are configured. */
  auth?: boolean;
  idempotencyKey?: string | undefined;
  options?: RequestOptions | undefined;
}

function env(name: string): string | undefined {
  return typeof process !== 'undefined' && process.env ? process.env[name] || undefined : undefined;
}

/**
 * The one request loop every resource goes through: auth headers, timeout, retries with
 * backoff, the error envelope to a typed error, the `{data}` envelope to the bare result, and
 * response validation with the resource's schema.
 */
export class HttpClient {
  readonly baseUrl: string;
  readonly #apiKey: string | undefined;
  readonly #jwt: string | undefined;
  readonly #timeoutMs: number;
  readonly #policy: RetryPolicy;
  readonly #fetch: typeof fetch;
  readonly #hooks: Hooks | undefined;
  readonly #headers: Record<string, string>;
  readonly #logger: Logger | undefined;

  constructor(options: HttpClientOptions = {}) {
    const baseUrl = options.baseUrl ?? env('TRX_RENT_BASE_URL');
    if (!baseUrl) {
      throw new TrxRentError({
        code: 'CONFIGURATION_ERROR',
        message: 'No base URL: pass { baseUrl } or set TRX_RENT_BASE_URL (there is no default host).',
      });
    }
    let url: URL;
    try {
      url = new URL(baseUrl);
    } catch {
      throw new TrxRentError({ code: 'CONFIGURATION_ERROR', message: `baseUrl is not a URL: ${baseUrl}` });
    }
    // Accept a base that already ends in /api/v1 (a common copy-paste) without doubling it.
    this.baseUrl = url.href.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
    this.#apiKey = options.apiKey ?? (options.jwt ? undefined : env('TRX_RENT_API_KEY'));
    this.#jwt = options.jwt;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#policy = { ...DEFAULT_RETRY_POLICY, ...options.retry, maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries };
    this.#headers = { accept: 'application/json', ...options.headers };
    const level = options.logLevel ?? (env('TRX_RENT_LOG') === 'debug' ? 'debug' : 'off');
    this.#logger = level === 'debug' ? (options.logger ?? stderrLogger) : undefined;
    // globalThis.fetch is looked up per call, so fetch patched later (msw, undici mocks) is used.
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#hooks = options.hooks?.beforeRequest?.length || options.hooks?.afterResponse?.length ? options.hooks : undefined;
  }

  get hasCredentials(): boolean {
    return Boolean(this.#apiKey || this.#jwt);
  }

  url(path: string, query?: HttpRequest<z.ZodType>['query']): string {
    return buildUrl(this.baseUrl, path, query);
  }

  async request<S extends z.ZodType>(req: HttpRequest<S>): Promise<WithResponse<z.output<S>>> {
    const { method, options = {} } = req;
    if (req.auth !== false && !this.hasCredentials) {
      throw errorFromBody(401, {
        error: {
          code: 'UNAUTHORIZED',
          message: 'No credentials: pass { apiKey } or { jwt }, or set TRX_RENT_API_KEY.',
        },
      });
    }
    const url = this.url(req.path, req.query);
    const headers: Record<string, string> = { ...this.#headers, ...options.headers };
    if (this.#apiKey) headers['x-api-key'] = this.#apiKey;
    else if (this.#jwt) headers.authorization = `Bearer ${this.#jwt}`;
    if (req.idempotencyKey) headers['idempotency-key'] = req.idempotencyKey;
    const maxRetries = options.maxRetries ?? this.#policy.maxRetries;
    const canRetry = isRetryableMethod(method, Boolean(req.idempotencyKey));
    const timeout = options.timeoutMs ?? this.#timeoutMs;
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const label = `${method} ${req.path}`;

    for (let attempt = 0; ; attempt++) {
      const started = this.#logger ? Date.now() : 0;
      this.#log(`→ ${label}${attempt ? ` (retry ${attempt}/${maxRetries})` : ''}`);
      let response: Response;
      let text: string;
      try {
        ({ response, text } = await sendOnce(this.#fetch, url, { method, headers, body, timeoutMs: timeout, signal: options.signal, hooks: this.#hooks, label }));
      } catch (error) {
        if (!(error instanceof TrxRentError)) throw error; // the caller's abort
        if (canRetry && attempt < maxRetries) {
          const delay = backoffDelay(attempt, this.#policy);
          this.#log(`  ${error.code}; retrying in ${delay} ms`);
          await sleep(delay, options.signal);
          continue;
        }
        throw error;
      }
      this.#log(`← ${response.status} ${label} ${this.#logger ? `${Date.now() - started} ms` : ''}`);
      const parsedBody = parseBody(text);

      if (response.ok && !isErrorEnvelope(parsedBody)) {
        if (parsedBody === INVALID_JSON) {
          throw new TrxRentError({
            code: 'INVALID_RESPONSE',
            message: `${method} ${req.path} answered ${response.status} with a body that is not JSON`,
            status: response.status,
            headers: response.headers,
          });
        }
        const parsed = req.schema.safeParse(unwrapEnvelope(parsedBody));
        if (!parsed.success) {
          const issue = parsed.error.issues[0];
          throw new TrxRentError({
            code: 'INVALID_RESPONSE',
            message: `${method} ${req.path}: unexpected response shape at ${issue?.path.join('.') || '(root)'}: ${issue?.message}`,
            status: response.status,
            headers: response.headers,
            details: { issues: parsed.error.issues },
          });
        }
        return { data: parsed.data, response };
      }

      const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
      const error = errorFromBody(response.status, parsedBody === INVALID_JSON ? undefined : parsedBody, response.headers, retryAfterMs);
      // A 409 on a *retry* of our own keyed POST means the earlier attempt (which we gave up on)
      // is still being processed: wait and ask again; the server then replays its result.
      const inFlight = response.status === 409 && attempt > 0 && Boolean(req.idempotencyKey) && error.code === 'DUPLICATE_REQUEST';
      if (canRetry && attempt < maxRetries && (RETRYABLE_STATUSES.has(response.status) || inFlight)) {
        if (retryAfterMs !== undefined && retryAfterMs > this.#policy.maxRetryAfterMs) throw error;
        const delay = retryAfterMs ?? backoffDelay(attempt, this.#policy);
        this.#log(`  ${error.code} (${response.status}); retrying in ${delay} ms`);
        await sleep(delay, options.signal);
        continue;
      }
      throw error;
    }
  }

  #log(message: string): void {
    this.#logger?.debug(`trx-rent ${message}`);
  }
}

const INVALID_JSON = Symbol('invalid-json');

function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return INVALID_JSON;
  }
}
