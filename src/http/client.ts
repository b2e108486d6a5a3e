import ky, { type KyInstance, type Options as KyOptions } from 'ky';
import type { z } from 'zod';
import { ConnectionError, TimeoutError, TrxRentError, errorFromBody } from '../errors/index.js';
import { isErrorEnvelope, unwrapEnvelope } from '../schemas/common.js';
import type { WithResponse } from './api-promise.js';
import { type Logger, type LogLevel, redactText, stderrLogger } from './log.js';
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

export interface Hooks {
  /** Runs before every attempt; may return a replacement Request. */
  beforeRequest?: Array<(request: Request) => Request | Response | void | Promise<Request | Response | void>>;
  /** Runs after every response (including error statuses); may return a replacement Response. */
  afterResponse?: Array<(request: Request, response: Response) => Response | void | Promise<Response | void>>;
}

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
  readonly #ky: KyInstance;
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
    // Hooks are passed to ky only when given: ky merges option objects on every request, and
    // empty hook arrays still cost time on the hot path (measured in bench/sdk.mjs).
    const hooks: KyOptions['hooks'] = {};
    if (options.hooks?.beforeRequest?.length) {
      hooks.beforeRequest = options.hooks.beforeRequest.map((hook) => (request: Request) => hook(request));
    }
    if (options.hooks?.afterResponse?.length) {
      hooks.afterResponse = options.hooks.afterResponse.map(
        (hook) => (request: Request, _options: unknown, response: Response) => hook(request, response),
      );
    }
    this.#ky = ky.create({
      retry: 0,
      throwHttpErrors: false,
      ...(hooks.beforeRequest || hooks.afterResponse ? { hooks } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
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
    const init: KyOptions = { method, headers, timeout, ...(options.signal ? { signal: options.signal } : {}) };
    if (req.body !== undefined) init.json = req.body;

    for (let attempt = 0; ; attempt++) {
      const started = this.#logger ? Date.now() : 0;
      this.#log(`→ ${method} ${req.path}${attempt ? ` (retry ${attempt}/${maxRetries})` : ''}`);
      let response: Response;
      try {
        response = await this.#ky(url, init);
      } catch (cause) {
        if (options.signal?.aborted) throw cause; // the caller cancelled: not ours to retry
        const error =
          (cause as Error)?.name === 'TimeoutError'
            ? new TimeoutError(`${method} ${req.path} timed out after ${timeout} ms`, cause)
            : new ConnectionError(`${method} ${req.path} failed: ${redactText(String((cause as Error)?.message ?? cause))}`, cause);
        if (canRetry && attempt < maxRetries) {
          const delay = backoffDelay(attempt, this.#policy);
          this.#log(`  ${error.code}; retrying in ${delay} ms`);
          await sleep(delay, options.signal);
          continue;
        }
        throw error;
      }
      this.#log(`← ${response.status} ${method} ${req.path} ${this.#logger ? `${Date.now() - started} ms` : ''}`);
      const body = await readBody(response);

      if (response.ok && !isErrorEnvelope(body)) {
        if (body === INVALID_JSON) {
          throw new TrxRentError({
            code: 'INVALID_RESPONSE',
            message: `${method} ${req.path} answered ${response.status} with a body that is not JSON`,
            status: response.status,
            headers: response.headers,
          });
        }
        const parsed = req.schema.safeParse(unwrapEnvelope(body));
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
      const error = errorFromBody(response.status, body === INVALID_JSON ? undefined : body, response.headers, retryAfterMs);
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

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return INVALID_JSON;
  }
}
