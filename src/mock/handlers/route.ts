import type { z } from 'zod';
import type { ErrorCode } from '../../errors/index.js';
import { issuesToErrorData } from '../../schemas/issues.js';
import { LIMITS } from '../../schemas/common.js';
import type { Permission } from '../../schemas/keys.js';
import { MockApiError, tableStatus } from '../errors.js';
import type { Chaos } from '../rules/chaos.js';
import type { RateLimitGroup, RateLimiter } from '../rules/ratelimit.js';
import type { AuthContext, MockAccount } from '../state/accounts.js';
import { canonicalJson } from '../state/idempotency.js';
import type { MockState } from '../state/index.js';

/**
 * One pipeline for every endpoint, in this order:
 *   run due work -> chaos draw -> rate limit (per IP and group) -> auth (401) -> permission
 *   (403) -> body (malformed JSON -> VALIDATION_ERROR) -> idempotency -> handler -> envelope.
 * Errors leave as `{ error: { code, message, details? } }` with the status the spec gives for
 * that code on that endpoint; anything unexpected is a 500 INTERNAL_ERROR envelope.
 */

export interface RouteResult {
  status: number;
  body: unknown;
  /** The body already serialised (hot paths cache it); used instead of JSON.stringify(body). */
  json?: string;
  headers?: Record<string, string>;
}

export interface RouteContext {
  state: MockState;
  request: Request;
  url: URL;
  params: Record<string, string>;
  /** Query string as a flat object (a repeated name keeps its last value). */
  query: Record<string, string>;
  /** Parsed JSON body (an empty body reads as {}), for routes with `body: true`. */
  body: unknown;
  auth: AuthContext | undefined;
  /** The caller's account; only on authenticated routes. */
  account: MockAccount;
  /** Validate with a shared schema; a failure names the field exactly as the SDK does. */
  parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S>;
}

export interface RouteDef {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path from the origin, e.g. `/api/v1/orders/:id` (matched on any origin). */
  path: string;
  /** Rate-limit group; null for helpers. */
  group: RateLimitGroup | null;
  /** 'public', any authenticated caller ('account'), or a permission the key must hold. */
  auth: 'public' | 'account' | Permission;
  body?: boolean;
  /** Reject a body whose Content-Type is not JSON (POST /orders: the spec requires it). */
  requireJson?: boolean;
  /** Endpoint-specific statuses where the spec gives them (e.g. VALIDATION_ERROR 400). */
  statuses?: Partial<Record<ErrorCode, number>>;
  /** Honours Idempotency-Key. */
  idempotent?: boolean;
  /** /__mock/ helper: no chaos, no rate limit, no envelope. */
  helper?: boolean;
  handle(ctx: RouteContext): RouteResult | Promise<RouteResult>;
}

export interface Runtime {
  state: MockState;
  envelope: boolean;
  chaos: Chaos;
  limiter: RateLimiter | undefined;
}

/** The server adapter records each request's socket address here. */
const CLIENT_IPS = new WeakMap<Request, string>();

export function setClientIp(request: Request, ip: string): void {
  CLIENT_IPS.set(request, ip);
}

/** Socket address (HTTP server), else the first X-Forwarded-For entry (in-process), else loopback. */
export function clientIp(request: Request): string {
  return CLIENT_IPS.get(request) ?? request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() ?? '127.0.0.1';
}

const JSON_HEADERS = { 'content-type': 'application/json' };
/** The text of each JSON response, so the HTTP adapter can write it without reading the stream back. */
const BODY_TEXT = new WeakMap<Response, string>();

export function jsonResponse(status: number, text: string, headers?: Record<string, string>): Response {
  const response = new Response(text, { status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS });
  BODY_TEXT.set(response, text);
  return response;
}

/** The body text of a response made by jsonResponse (undefined for any other response). */
export function responseText(response: Response): string | undefined {
  return BODY_TEXT.get(response);
}

export function errorBody(code: ErrorCode | string, message: string, details?: Record<string, unknown>): string {
  return JSON.stringify({ error: details ? { code, message, details } : { code, message } });
}

export function errorResponse(
  status: number,
  code: ErrorCode | string,
  message: string,
  details?: Record<string, unknown>,
  headers?: Record<string, string>,
): Response {
  return jsonResponse(status, errorBody(code, message, details), headers);
}

function toErrorResponse(error: unknown, route: RouteDef, headers: Record<string, string>): Response {
  if (error instanceof MockApiError) {
    const status = error.status ?? route.statuses?.[error.code] ?? tableStatus(error.code);
    return errorResponse(status, error.code, error.message, error.details, headers);
  }
  return errorResponse(500, 'INTERNAL_ERROR', 'Unexpected error in the mock server', undefined, headers);
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const error = issuesToErrorData(result.error.issues);
  throw new MockApiError(error.code, error.message, error.details);
}

/** Run one request through the pipeline. Never throws. */
export async function runRoute(route: RouteDef, runtime: Runtime, request: Request, params: Record<string, string>): Promise<Response> {
  let headers: Record<string, string> = {};
  try {
    return await pipeline(route, runtime, request, params, (h) => (headers = h));
  } catch (error) {
    return toErrorResponse(error, route, headers);
  }
}

async function pipeline(
  route: RouteDef,
  runtime: Runtime,
  request: Request,
  params: Record<string, string>,
  setHeaders: (h: Record<string, string>) => void,
): Promise<Response> {
  const { state } = runtime;
  state.tick();

  const chaos = route.helper ? undefined : runtime.chaos.draw(request.headers.get('x-mock-chaos'));
  if (chaos === 429) return errorResponse(429, 'RATE_LIMITED', 'Too many requests (injected by chaos)', undefined, { 'retry-after': '1', 'x-mock-chaos': '429' });
  if (chaos === 500) return errorResponse(500, 'INTERNAL_ERROR', 'Unexpected error (injected by chaos)', undefined, { 'x-mock-chaos': '500' });
  if (chaos === 503) return errorResponse(503, 'MAINTENANCE', 'Platform maintenance (injected by chaos)', undefined, { 'x-mock-chaos': '503' });

  let headers: Record<string, string> = {};
  if (route.group && runtime.limiter) {
    const decision = runtime.limiter.hit(clientIp(request), route.group);
    headers = decision.headers;
    setHeaders(headers);
    if (!decision.allowed) {
      throw new MockApiError('RATE_LIMITED', `Rate limit of ${decision.limit} requests per window exceeded; retry after ${decision.retryAfterSec} s`, {
        group: route.group,
        limit: decision.limit,
        retry_after_sec: decision.retryAfterSec,
      });
    }
  }

  let auth: AuthContext | undefined;
  if (route.auth !== 'public') {
    auth = state.authenticate(request.headers);
    if (!auth) {
      const sent = request.headers.has('x-api-key') || request.headers.has('authorization');
      throw new MockApiError('UNAUTHORIZED', sent ? 'Invalid, revoked or expired API key or JWT' : 'Missing credentials: send X-API-Key or Authorization: Bearer <JWT>');
    }
    if (route.auth !== 'account' && !auth.permissions.has(route.auth)) {
      throw new MockApiError('FORBIDDEN', `This API key lacks the ${route.auth} permission`, { permission: route.auth });
    }
  }

  const url = new URL(request.url);
  let body: unknown;
  if (route.body) {
    const type = request.headers.get('content-type');
    if (route.requireJson && !(type && /^application\/(?:[\w.+-]+\+)?json\b/i.test(type.trim()))) {
      throw new MockApiError('VALIDATION_ERROR', 'Content-Type must be application/json', { field: 'Content-Type' });
    }
    const text = await request.text();
    if (text.trim() === '') body = {};
    else {
      try {
        body = JSON.parse(text);
      } catch (error) {
        throw new MockApiError('VALIDATION_ERROR', `Malformed JSON body: ${(error as Error).message}`, { field: 'body' });
      }
    }
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
        return jsonResponse(status, wrap(runtime, route, begun.response.body), { ...headers, 'idempotent-replayed': 'true' });
      }
      idem = { scope, key };
    }
  }

  try {
    if (chaos === 'slow') await sleep(runtime.chaos.slowMs);
    const ctx: RouteContext = {
      state,
      request,
      url,
      params,
      query: Object.fromEntries(url.searchParams),
      body,
      auth,
      get account(): MockAccount {
        if (!auth) throw new MockApiError('UNAUTHORIZED', 'Authentication required');
        return auth.account;
      },
      parse: parseWith,
    };
    const result = await route.handle(ctx);
    const text = result.json ?? JSON.stringify(result.body);
    if (idem) {
      if (result.status >= 200 && result.status < 300) state.idempotency.complete(idem.scope, idem.key, { status: result.status, body: text });
      else state.idempotency.abandon(idem.scope, idem.key);
      idem = undefined;
    }
    state.tick(); // work the request made due at once (e.g. a webhook's first attempt)
    if (chaos === 'drop') return Response.error(); // committed; the adapter destroys the socket
    const extra = chaos === 'slow' ? { 'x-mock-chaos': 'slow' } : undefined;
    return jsonResponse(result.status, wrap(runtime, route, text), { ...headers, ...result.headers, ...extra });
  } finally {
    if (idem) state.idempotency.abandon(idem.scope, idem.key);
  }
}

function wrap(runtime: Runtime, route: RouteDef, text: string): string {
  return runtime.envelope && !route.helper ? `{"data":${text}}` : text;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
