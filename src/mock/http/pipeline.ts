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
import type * as z from 'zod/mini';
import { LIMITS } from '../../schemas/limits.js';
import { Chaos, type ChaosHit, type ChaosKind, type ChaosOptions } from './chaos.js';
import { MockApiError, tableStatus } from '../shared/errors.js';
import { type RateLimitOptions, RateLimiter } from './ratelimit.js';
import { type Match, RouteTable } from './route-table.js';
import { type MockRequest, type MockResponse, type RouteContext, type RouteDef, type RouteResult, errorResult, jsonResult, parseWith } from './route.js';
import type { AuthContext, MockAccount } from '../state/accounts.js';
import { canonicalJson } from '../../internal/json.js';
import { exactShape } from '../../internal/exact.js';
import type { MockState } from '../state/index.js';
import type { PaywallOptions } from '../x402/paywall-terms.js';
import { type Settled, payStage } from './pay-stage.js';

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

/** The Idempotency-Key a request holds while its handler runs. */
type Idem = { scope: string; key: string };

const CONTENT_JSON = 'application/json';
const SLOW_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'x-mock-chaos': 'slow' });

/**
 * What a route's stages see. A class, so `account` is one getter on the prototype: an object
 * literal with a getter built a new accessor (and its closure) for every request.
 */
class Context implements RouteContext {
  input: unknown = undefined;
  payer = '';

  constructor(
    public state: MockState,
    public request: MockRequest,
    public params: Record<string, string>,
    public query: Record<string, string>,
    public body: unknown,
    public auth: AuthContext | undefined,
    public parse: RouteContext['parse'],
  ) {}

  get account(): MockAccount {
    if (!this.auth) throw new MockApiError('UNAUTHORIZED', 'Authentication required');
    return this.auth.account;
  }
}

/** Compile a pipeline for these routes over one state. */
export function createPipeline(state: MockState, routes: readonly RouteDef[], options: PipelineOptions = {}): MockPipeline {
  const table = new RouteTable(routes);
  const envelope = options.envelope ?? false;
  const chaos = new Chaos(options.chaos, state.seed);
  const limiter = options.rateLimits === false ? undefined : new RateLimiter(options.rateLimits ?? {}, () => state.now());
  if (options.x402) state.paid.paywall.configure(options.x402);
  const exact = options.exactResponses ?? exactFromEnv();

  // Stages run synchronously as far as they can: most routes never wait (no payment to verify,
  // no slow fault, a handler that answers at once), and three nested async functions cost each
  // request their promises and turns of the microtask queue. Only a stage that waits goes async.
  function handle(request: MockRequest): Promise<MockResponse | null> {
    let match: Match | undefined;
    try {
      match = table.match(request.method, request.path);
    } catch (error) {
      return Promise.resolve(toError(error, undefined, {}));
    }
    if (!match) return Promise.resolve(null);
    const route = match.route;
    const scratch: Scratch = { headers: {}, fault: undefined };
    let answer: MockResponse | Promise<MockResponse>;
    try {
      answer = run(route, match.params, request, scratch);
    } catch (error) {
      answer = toError(error, route, scratch.headers);
    }
    if (answer instanceof Promise) {
      return answer.then(
        (response) => dropped(response, scratch),
        (error: unknown) => dropped(toError(error, route, scratch.headers), scratch),
      );
    }
    return Promise.resolve(dropped(answer, scratch));
  }

  /** Chaos "drop": whatever the request did is done; the client sees the connection die. */
  function dropped(response: MockResponse, scratch: Scratch): MockResponse {
    if (scratch.fault === 'drop' || scratch.fault === 'reset') response.drop = true;
    return response;
  }

  function run(route: RouteDef, params: Record<string, string>, request: MockRequest, limited: Scratch): MockResponse | Promise<MockResponse> {
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

    const query = request.query === '' ? {} : Object.fromEntries(new URLSearchParams(request.query));
    // A helper's malformed input is a 400; its business rules (e.g. an overflowing credit) stay 422.
    const ctx = new Context(state, request, params, query, body, auth, route.helper ? parseHelperInput : parseWith);
    if (route.input) ctx.input = route.input(ctx);

    if (route.price) return paid(route, ctx, headers, hit);
    return respond(route, ctx, headers, hit, undefined);
  }

  /** A paid route: the x402 exchange (its verification may wait), then the handler. */
  async function paid(route: RouteDef, ctx: Context, headers: Record<string, string>, hit: ChaosHit | undefined): Promise<MockResponse> {
    const answer = await payStage(state.paid.paywall, route, ctx);
    if ('status' in answer) {
      Object.assign(answer.headers, headers);
      return answer;
    }
    return respond(route, ctx, headers, hit, answer.settle);
  }

  /** Idempotency, the handler (waiting only when it, or a slow fault, makes it wait), then the answer. */
  function respond(
    route: RouteDef,
    ctx: Context,
    headers: Record<string, string>,
    hit: ChaosHit | undefined,
    settle: (() => Settled) | undefined,
  ): MockResponse | Promise<MockResponse> {
    const { auth, request } = ctx;
    let idem: Idem | undefined;
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
        const begun = state.idempotency.begin(scope, key, `${route.method} ${route.path} ${canonicalJson(ctx.body)}`);
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
    const fault = hit?.kind;
    let handled: RouteResult | Promise<RouteResult>;
    try {
      // Most handlers answer at once: awaiting a plain value would still cost a turn of the microtask queue.
      handled = fault === 'slow' ? sleep(chaos.holdMs(hit)).then(() => route.handle(ctx)) : route.handle(ctx);
    } catch (error) {
      if (idem) state.idempotency.abandon(idem.scope, idem.key);
      throw error;
    }
    if (handled instanceof Promise) {
      const held = idem;
      return handled.then(
        (result) => answer(route, result, headers, fault, settle, held),
        (error: unknown) => {
          if (held) state.idempotency.abandon(held.scope, held.key);
          throw error;
        },
      );
    }
    return answer(route, handled, headers, fault, settle, idem);
  }

  /** The handler's result as the response: checked, remembered for its Idempotency-Key, settled (x402), with its headers. */
  function answer(
    route: RouteDef,
    result: RouteResult,
    headers: Record<string, string>,
    fault: ChaosKind | undefined,
    settle: (() => Settled) | undefined,
    idem: Idem | undefined,
  ): MockResponse {
    try {
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
      const extra = fault === 'slow' ? SLOW_HEADERS : undefined;
      // Object.assign, not `{ ...headers, ...result.headers, … }`: spreads into a literal that
      // gains keys cost microseconds each on Node 20. The same keys, in the same order.
      return {
        status: result.status,
        headers: Object.assign({ 'content-type': CONTENT_JSON }, headers, result.headers, paidHeaders, extra),
        body: wrap(route, text),
      };
    } finally {
      if (idem) state.idempotency.abandon(idem.scope, idem.key);
    }
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
