/**
 * The mock's one pipeline: a plain function from a {@link MockRequest} to a {@link MockResponse}
 * over a route table compiled once. Every route runs the same stages, in this order:
 *
 *   match -> run due work -> chaos draw -> rate limit (per IP and group) -> auth (401/403)
 *   -> body (malformed JSON 400) -> input (validation 400, free) -> price (x402: 402 challenge
 *   or verified payment) -> idempotency -> handler -> settle (x402) -> envelope.
 *
 * Errors leave as `{ error: { code, message, details? } }` with the status the spec gives for
 * that code on that endpoint; anything unexpected is a 500 INTERNAL_ERROR that names nothing
 * internal. No web `Request`/`Response` objects are built here: adapters translate.
 *
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import type * as z from 'zod/mini';
import { LIMITS } from '../../schemas/limits.js';
import { HEADERS, decodeBase64Json } from '../../protocol/codec.js';
import { Chaos, type ChaosKind, type ChaosOptions } from './chaos.js';
import { MockApiError, tableStatus } from '../shared/errors.js';
import { type RateLimitOptions, RateLimiter } from './ratelimit.js';
import { type Match, RouteTable } from './route-table.js';
import { type MockRequest, type MockResponse, type RouteContext, type RouteDef, errorResult, jsonResult, parseWith } from './route.js';
import type { AuthContext, MockAccount } from '../state/accounts.js';
import { canonicalJson } from '../../internal/json.js';
import { exactShape } from '../../internal/exact.js';
import type { MockState } from '../state/index.js';
import type { PaywallOptions, PriceRequest } from '../x402/paywall-terms.js';

/** Options of one pipeline over one state. */
export interface PipelineOptions {
  /** Wrap successful account-API bodies in `{ data }` as the live service does (errors never are). @default false */
  envelope?: boolean;
  /** Seeded fault injection on every route but the helpers. @default false (off) */
  chaos?: ChaosOptions | false;
  /** The spec's per-IP limits (default), other numbers (e.g. `{ orders: 2, windowMs: 1000 }`), or false for none. */
  rateLimits?: false | RateLimitOptions;
  /** The paid side's challenge: `{ version: 1 }` for v1-only clients (x402-fetch), schemes, networks. */
  x402?: PaywallOptions;
  /**
   * Hold every success body to its table entry's response schema with no extra keys
   * (`exactShape`); a body that fails is answered 500 INTERNAL_ERROR naming the keys.
   * `'account'`: the account API's responses; `'all'`: the x402 results too; false: off.
   * @default process.env.TRX_RENT_MOCK_EXACT ('all' in this repository's tests), else false
   */
  exactResponses?: false | 'account' | 'all';
}

/** A compiled pipeline: `handle` answers a request, or null when no route has that path. */
export interface MockPipeline {
  readonly state: MockState;
  /** Its fault injection (`setRules` to aim faults at routes mid-test; `log` of what was injected). */
  readonly chaos: Chaos;
  /** Answer one request. Never throws; null when no route matches (adapters answer 404 or pass it on). */
  handle(request: MockRequest): Promise<MockResponse | null>;
}

/** Per-request notes the error path needs: rate-limit headers, the chaos draw. */
interface Scratch {
  headers: Record<string, string>;
  fault: ChaosKind | undefined;
}

/** A settlement: the payment response headers, or a 402 when the payment could not settle. */
type Settled = { headers: Record<string, string> } | { refused: MockResponse };

/** Compile a pipeline for these routes over one state. */
export function createPipeline(state: MockState, routes: readonly RouteDef[], options: PipelineOptions = {}): MockPipeline {
  const table = new RouteTable(routes);
  const envelope = options.envelope ?? false;
  const chaos = new Chaos(options.chaos, state.seed);
  const limiter = options.rateLimits === false ? undefined : new RateLimiter(options.rateLimits ?? {}, () => state.now());
  if (options.x402) state.paid.paywall.configure(options.x402);
  const exact = options.exactResponses ?? exactFromEnv();

  async function handle(request: MockRequest): Promise<MockResponse | null> {
    let match: Match | undefined;
    try {
      match = table.match(request.method, request.path);
    } catch (error) {
      return toError(error, undefined, {});
    }
    if (!match) return null;
    const scratch: Scratch = { headers: {}, fault: undefined };
    let response: MockResponse;
    try {
      response = await run(match.route, match.params, request, scratch);
    } catch (error) {
      response = toError(error, match.route, scratch.headers);
    }
    // Chaos "drop": whatever the request did is done; the client sees the connection die.
    if (scratch.fault === 'drop' || scratch.fault === 'reset') response.drop = true;
    return response;
  }

  async function run(route: RouteDef, params: Record<string, string>, request: MockRequest, limited: Scratch): Promise<MockResponse> {
    state.tick();

    const hit = route.helper ? undefined : chaos.draw(request.headers.get('x-mock-chaos'), request.method, request.path);
    const fault = (limited.fault = hit?.kind);
    if (fault === 'reset') return errorResult(500, 'INTERNAL_ERROR', 'Connection reset (injected by chaos)'); // dropped unanswered
    if (fault === 429)
      return errorResult(429, 'RATE_LIMITED', 'Too many requests (injected by chaos)', undefined, { 'retry-after': '1', 'x-mock-chaos': '429' });
    if (fault === 500) return errorResult(500, 'INTERNAL_ERROR', 'Unexpected error (injected by chaos)', undefined, { 'x-mock-chaos': '500' });
    if (fault === 503) return errorResult(503, 'MAINTENANCE', 'Platform maintenance (injected by chaos)', undefined, { 'x-mock-chaos': '503' });

    if (route.group && limiter && !route.helper) {
      const decision = limiter.hit(request.ip, route.group);
      limited.headers = decision.headers;
      if (!decision.allowed) {
        throw new MockApiError('RATE_LIMITED', `Rate limit of ${decision.limit} requests per window exceeded; retry after ${decision.retryAfterSec} s`, {
          group: route.group,
          limit: decision.limit,
          retry_after_sec: decision.retryAfterSec,
        });
      }
    }
    const headers = limited.headers;

    let auth: AuthContext | undefined;
    if (route.auth !== 'public') {
      auth = state.authenticate(request.headers);
      if (!auth) {
        const sent = request.headers.has('x-api-key') || request.headers.has('authorization');
        throw new MockApiError(
          'UNAUTHORIZED',
          sent ? 'Invalid, revoked or expired API key or JWT' : 'Missing credentials: send X-API-Key or Authorization: Bearer <JWT>',
        );
      }
      if (route.auth !== 'account' && !auth.permissions.has(route.auth)) {
        throw new MockApiError('FORBIDDEN', `This API key lacks the ${route.auth} permission`, { permission: route.auth });
      }
    }

    // Every body must be declared JSON: a web page can send `text/plain` (or a form) to any
    // origin without a preflight, so a body of another type is refused before it is read.
    // (The simulated TRON node's /wallet/* routes read their body as java-tron does, whatever its type.)
    if (route.body && (request.body !== '' || route.requireJson) && !isJsonType(request.headers.get('content-type'))) {
      throw new MockApiError('VALIDATION_ERROR', 'Content-Type must be application/json', { field: 'Content-Type' }, route.helper ? 400 : undefined);
    }
    let body: unknown;
    if (route.body) body = parseJson(request.body, route.helper ? 400 : undefined);

    const ctx: RouteContext = {
      state,
      request,
      params,
      query: request.query === '' ? {} : Object.fromEntries(new URLSearchParams(request.query)),
      body,
      auth,
      get account(): MockAccount {
        if (!auth) throw new MockApiError('UNAUTHORIZED', 'Authentication required');
        return auth.account;
      },
      input: undefined,
      payer: '',
      // A helper's malformed input is a 400; its business rules (e.g. an overflowing credit) stay 422.
      parse: route.helper ? parseHelperInput : parseWith,
    };
    if (route.input) ctx.input = route.input(ctx);

    let settle: (() => Settled) | undefined;
    if (route.price) {
      const paid = await payStage(route, ctx);
      if ('status' in paid) {
        Object.assign(paid.headers, headers);
        return paid;
      }
      settle = paid.settle;
    }

    let idem: { scope: string; key: string } | undefined;
    if (route.idempotent && auth) {
      const key = request.headers.get('idempotency-key');
      if (key !== null) {
        if (key.length === 0 || key.length > LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH) {
          throw new MockApiError('VALIDATION_ERROR', `Idempotency-Key must be 1 to ${LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH} characters`, {
            field: 'Idempotency-Key',
            max: LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH,
          });
        }
        const scope = auth.account.id;
        const begun = state.idempotency.begin(scope, key, `${route.method} ${route.path} ${canonicalJson(body)}`);
        if (begun.kind === 'conflict') {
          throw new MockApiError(
            'DUPLICATE_REQUEST',
            begun.reason === 'in_flight'
              ? 'A request with this Idempotency-Key is still being processed'
              : 'This Idempotency-Key was already used with different parameters',
            { reason: begun.reason },
          );
        }
        if (begun.kind === 'replay') {
          const status = begun.response.status === 201 ? 200 : begun.response.status;
          return jsonResult(status, wrap(route, begun.response.body), { ...headers, 'idempotent-replayed': 'true' });
        }
        idem = { scope, key };
      }
    }

    try {
      if (fault === 'slow') await sleep(chaos.holdMs(hit));
      // Most handlers answer at once: awaiting a plain value would still cost a turn of the microtask queue.
      const handled = route.handle(ctx);
      const result = handled instanceof Promise ? await handled : handled;
      const text = result.json ?? JSON.stringify(result.body);
      if (exact && route.endpoint && (exact === 'all' || route.endpoint.api === 'account') && result.status < 300) checkExact(route.endpoint, text);
      if (idem) {
        if (result.status >= 200 && result.status < 300) state.idempotency.complete(idem.scope, idem.key, { status: result.status, body: text });
        else state.idempotency.abandon(idem.scope, idem.key);
        idem = undefined;
      }
      let paidHeaders: Record<string, string> | undefined;
      if (settle) {
        const settled = settle();
        if ('refused' in settled) return { ...settled.refused, headers: { ...settled.refused.headers, ...headers } };
        paidHeaders = settled.headers;
      }
      state.tick(); // work the request made due at once (e.g. a webhook's first attempt)
      const extra = fault === 'slow' ? { 'x-mock-chaos': 'slow' } : undefined;
      return jsonResult(result.status, wrap(route, text), { ...headers, ...result.headers, ...paidHeaders, ...extra });
    } finally {
      if (idem) state.idempotency.abandon(idem.scope, idem.key);
    }
  }

  /** x402: a 402 challenge, a payment refusal, or a verified payment to settle after the handler. */
  async function payStage(route: RouteDef, ctx: RouteContext): Promise<MockResponse | { settle: () => Settled }> {
    const { paywall } = state.paid;
    const request = ctx.request;
    const target = `${request.path}${request.query ? `?${request.query}` : ''}`;
    const override = versionOverride(request);
    const req: PriceRequest = {
      method: request.method,
      url: `${request.origin}${target}`,
      key: bytesToHex(sha256(new TextEncoder().encode(`${request.method.toLowerCase()} ${target} ${request.method === 'GET' ? '' : request.body}`))),
      priceMicroUsd: route.price!(ctx),
      description: route.description ?? route.path,
      ...(override ? { version: override } : {}),
    };
    const paying = request.headers.has(HEADERS.PAYMENT_SIGNATURE) || request.headers.has(HEADERS.X_PAYMENT);
    if (!paying) {
      const challenge = paywall.challenge(req);
      return jsonResult(402, JSON.stringify(challenge.body), challenge.headers);
    }
    const verification = await paywall.verify(request.headers, req);
    const version = payloadVersion(request) ?? req.version ?? paywall.options.version;
    if (!verification.ok) {
      const challenge = paywall.challenge({ ...req, version }, verification.reason);
      return jsonResult(402, JSON.stringify(challenge.body), { ...challenge.headers, ...paywall.failureHeader(verification, version) });
    }
    ctx.payer = verification.payer;
    return {
      settle() {
        const settled = verification.settle();
        if ('ok' in settled && settled.ok === false) {
          const challenge = paywall.challenge({ ...req, version }, settled.reason);
          return { refused: jsonResult(402, JSON.stringify(challenge.body), { ...challenge.headers, ...paywall.failureHeader(settled, version) }) };
        }
        const ok = settled as { header: string; headerName: string };
        return { headers: { [ok.headerName]: ok.header, 'access-control-expose-headers': 'PAYMENT-RESPONSE, X-PAYMENT-RESPONSE' } };
      },
    };
  }

  function wrap(route: RouteDef, text: string): string {
    return envelope && !route.raw && !route.helper ? `{"data":${text}}` : text;
  }

  return { state, chaos, handle };
}

/** 500 unless the body is exactly the entry's response shape (x402 bodies: what `data` holds). */
function checkExact(entry: NonNullable<RouteDef['endpoint']>, text: string): void {
  const parsed: unknown = JSON.parse(text);
  const body = entry.dataEnvelope ? (parsed as { data?: unknown }).data : parsed;
  const result = exactShape(entry.response, body);
  if (!result.ok)
    throw new MockApiError('INTERNAL_ERROR', `The mock's ${entry.id} response is not exactly its table shape: ${result.message}`, { endpoint: entry.id }, 500);
}

function exactFromEnv(): false | 'account' | 'all' {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.TRX_RENT_MOCK_EXACT;
  return value === 'all' || value === 'account' ? value : false;
}

function toError(error: unknown, route: RouteDef | undefined, headers: Record<string, string>): MockResponse {
  if (error instanceof MockApiError) {
    const status = error.status ?? route?.statuses?.[error.code] ?? tableStatus(error.code);
    return errorResult(status, error.code, error.message, error.details, headers);
  }
  // Never the internal message: it may name files, state or secrets.
  return errorResult(500, 'INTERNAL_ERROR', 'Unexpected error in the mock server', undefined, headers);
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** `application/json`, `application/problem+json`, with or without parameters. */
function isJsonType(type: string | null): boolean {
  return type !== null && JSON_TYPE.test(type.trim());
}

/** A JSON body; an empty body reads as {}. */
export function parseJson(text: string, status?: number): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new MockApiError('VALIDATION_ERROR', `Malformed JSON body: ${(error as Error).message}`, { field: 'body' }, status);
  }
}

function parseHelperInput<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  try {
    return parseWith(schema, input);
  } catch (error) {
    if (error instanceof MockApiError) throw new MockApiError(error.code, error.message, error.details, 400);
    throw error;
  }
}

function versionOverride(request: MockRequest): 1 | 2 | undefined {
  const v = request.headers.get('x-mock-x402-version');
  return v === '1' ? 1 : v === '2' ? 2 : undefined;
}

function payloadVersion(request: MockRequest): 1 | 2 | undefined {
  const raw = request.headers.get(HEADERS.PAYMENT_SIGNATURE) ?? request.headers.get(HEADERS.X_PAYMENT);
  if (!raw) return undefined;
  try {
    const v = (decodeBase64Json(raw) as { x402Version?: unknown }).x402Version;
    return v === 1 ? 1 : v === 2 ? 2 : undefined;
  } catch {
    return undefined;
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
