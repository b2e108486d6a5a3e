/**
 * The mock's request and response records and the shape of a route. Every route of the mock
 * (account API, paid x402 API, simulated TRON node, GasFree relayer, `/__mock/` helpers) is a
 * {@link RouteDef} run by the one pipeline in `pipeline.ts`; adapters (node:http, fetch, msw)
 * only translate to and from these records.
 *
 * @module
 */
import type * as z from 'zod/mini';
import { englishIssues, issuesToErrorData } from '../../schemas/issues.js';
import type { Permission } from '../../schemas/keys.js';
import type { EndpointDef } from '../../api/types.js';
import { type MockErrorCode, MockApiError } from '../shared/errors.js';
import type { RateLimitGroup } from './ratelimit.js';
import type { AuthContext, MockAccount } from '../state/accounts.js';
import type { MockState } from '../state/index.js';

import type { HeaderReader } from '../shared/headers.js';

export type { HeaderReader } from '../shared/headers.js';

/** One request as the pipeline sees it: plain data, no streams, no web `Request`. */
export interface MockRequest {
  /** Upper-case method. */
  method: string;
  /** The path as sent, percent-escapes intact, without the query string. */
  path: string;
  /** The query string without `?` ('' when there is none). */
  query: string;
  headers: HeaderReader;
  /** The body as text ('' when there is none). */
  body: string;
  /** The caller's address, for rate limits. */
  ip: string;
  /** The origin the caller used, e.g. `http://127.0.0.1:8787` (paid routes name it in their challenge). */
  origin: string;
}

/** One response: status, headers, body text; `drop` asks the adapter to kill the connection instead. */
export interface MockResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Chaos "drop": the work is done, but the client sees the connection die. */
  drop?: boolean;
}

/** What a route's handler returns. */
export interface RouteResult {
  status: number;
  body: unknown;
  /** The body already serialised (hot paths cache it); used instead of JSON.stringify(body). */
  json?: string;
  headers?: Record<string, string>;
}

/** What the pipeline hands a route's stages. */
export interface RouteContext {
  state: MockState;
  request: MockRequest;
  /** Path parameters, decoded. */
  params: Record<string, string>;
  /** Query string as a flat object (a repeated name keeps its last value). */
  query: Record<string, string>;
  /** Parsed JSON body (an empty body reads as {}), for routes with `body: true`. */
  body: unknown;
  auth: AuthContext | undefined;
  /** The caller's account; only on authenticated routes. */
  account: MockAccount;
  /** What the route's `input` stage returned (paid routes). */
  input: unknown;
  /** The paying address once a payment verified (paid routes). */
  payer: string;
  /** Validate with a shared schema; a failure names the field exactly as the SDK does. */
  parse<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S>;
}

/** One route: where it answers, which stages apply, and its handler. */
export interface RouteDef {
  method: 'GET' | 'POST' | 'DELETE';
  /**
   * The exact path, e.g. `/api/v1/things/:id` (built from a table template by `routePattern`). `:name` matches one segment; a last segment
   * `*name` matches the rest of the path (at least one segment). Params are percent-decoded.
   */
  path: string;
  /** Rate-limit group; null for routes that are never limited (helpers, the simulated node). */
  group: RateLimitGroup | null;
  /** 'public', any authenticated caller ('account'), or a permission the key must hold. */
  auth: 'public' | 'account' | Permission;
  /** Parse the body as JSON (malformed JSON is a 400 VALIDATION_ERROR). */
  body?: boolean;
  /**
   * Require a JSON Content-Type even when the body is empty (POST /orders: the spec requires it).
   * Every other route requires it whenever a body is sent.
   */
  requireJson?: boolean;
  /** Endpoint-specific statuses where the spec gives them (e.g. VALIDATION_ERROR 400). */
  statuses?: Partial<Record<MockErrorCode, number>>;
  /** Honours Idempotency-Key. */
  idempotent?: boolean;
  /** A `/__mock/` helper or the simulated relayer: no chaos, no rate limit. */
  helper?: boolean;
  /** The success body is sent as the handler built it, never wrapped in `{ data }` (paid, node, helpers). */
  raw?: boolean;
  /** Validate the request before anything is charged; the result is `ctx.input`. */
  input?(ctx: RouteContext): unknown;
  /** Paid routes: the price in micro-USD once the input is known; the pipeline runs the x402 exchange. */
  price?(ctx: RouteContext): bigint;
  /** One line for the 402 challenge's `description` (paid routes). */
  description?: string;
  /** The table entry the route was built from (routes of the simulated outside world have none). */
  endpoint?: EndpointDef & { id: string };
  /** The endpoint itself: read `ctx`, change the state, return the status and body. */
  handle(ctx: RouteContext): RouteResult | Promise<RouteResult>;
}

/** Validate with a shared schema; a failure is a VALIDATION_ERROR naming the field as the SDK does. */
export function parseWith<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const error = issuesToErrorData(englishIssues(schema, input));
  throw new MockApiError(error.code, error.message, error.details);
}

/** The spec's error envelope as text. */
export function errorBody(code: string, message: string, details?: Record<string, unknown>): string {
  return JSON.stringify({ error: details ? { code, message, details } : { code, message } });
}

const JSON_TYPE = 'application/json';

/** A JSON response record. */
export function jsonResult(status: number, body: string, headers?: Record<string, string>): MockResponse {
  // Object.assign rather than a spread into the literal (a spread that adds keys costs microseconds on Node 20).
  return { status, headers: headers ? Object.assign({ 'content-type': JSON_TYPE }, headers) : { 'content-type': JSON_TYPE }, body };
}

/** An error envelope response record. */
export function errorResult(status: number, code: string, message: string, details?: Record<string, unknown>, headers?: Record<string, string>): MockResponse {
  return jsonResult(status, errorBody(code, message, details), headers);
}
