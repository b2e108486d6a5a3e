/**
 * The shape of one entry of the endpoint table (`./endpoints.ts`): every fact about an
 * operation that the SDK, the mock, the OpenAPI document, the CLI's `api` command, the MCP
 * tools and the method index need, written once.
 *
 * Only types and zod-free helpers live here, so any layer can import them cheaply.
 * @module
 */
import type * as z from 'zod/mini';

/**
 * A build-time check of a schema (`./account-checks.gen.ts`): true only when zod would accept
 * the value and return it unchanged; false means "ask zod".
 */
export type FastCheck = (value: unknown) => boolean;

/** HTTP methods the two APIs use. */
export type HttpVerb = 'GET' | 'POST' | 'DELETE';

/** Which API an operation belongs to (`/api/v1`, `/x402/tron`) or the mock's own control routes. */
export type ApiName = 'account' | 'x402' | 'mock';

/**
 * Who may call it: `public` (no credentials), `account` (any API key or JWT), a permission the
 * key must hold (403 FORBIDDEN without it), or `x402` (no credentials: each call is paid).
 */
export type EndpointAuth = 'public' | 'account' | 'x402' | 'create_orders' | 'view_orders' | 'view_balance' | 'broadcast';

/** Per-IP rate-limit group (the spec's Limits table; `x402` is the paid API's own; null: never limited). */
export type RateGroup = 'prices' | 'balance' | 'history' | 'orders' | 'withdraw' | 'other' | 'x402';

/**
 * Where the operation's shape comes from: the spec (`spec`), the live service where the spec
 * says "not shown" (`live-service`, see production-notes), or a design of our own where neither
 * shows it (`natural-design`).
 */
export type EndpointSource = 'spec' | 'live-service' | 'natural-design';

/** An error the operation answers: its code, HTTP status on this endpoint, and when. */
export interface EndpointError {
  code: string;
  status: number;
  /** One line: when this error happens. */
  when: string;
}

/** x402 price of one call, in USD (decimal strings). */
export type EndpointPrice = { kind: 'fixed'; usd: string } | { kind: 'dynamic'; minUsd: string; maxUsd: string };

/**
 * Offset pagination: the page object holds the items under `items` and the count over all pages
 * under `total`; the next page is asked for with `offset` (and `limit` as page size). `itemId`
 * names each item's id, so a walk never yields an item twice.
 */
export interface OffsetPagination {
  style: 'offset';
  items: string;
  total: string;
  offset: string;
  limit: string;
  itemId: string;
  defaultLimit: number;
  maxLimit: number;
}

/**
 * The SDK method that implements the operation: a dotted path on the API's client
 * (`TrxRent` for `account`, `X402Client` for `x402`), e.g. `orders.create` or `swapQuote`; or
 * `{ none: 'why' }` when there deliberately is none (a test fails on an entry with neither).
 */
export type SdkBinding = string | { none: string };

/**
 * The MCP tool of an operation. The unpaid GETs of the account API are generated from their entry
 * (`src/mcp/tools/read.ts`: input from params+query, output from the response); the others are
 * hand-written under the spending rules (`src/mcp/tools/*`) and only named here.
 */
export interface McpBinding {
  /** The tool's name (snake_case), e.g. `get_prices`. */
  tool: string;
  /** Its title (generated tools). */
  title?: string;
  /** What the numbers mean (SUN or TRX, units), appended to the summary in the description (generated tools). */
  units?: string;
  /** The response is an array: MCP wants an object, so the result goes under this key (generated tools). */
  listKey?: string;
}

/** The machine half of an operation: what building, routing and checking a request needs. */
export interface EndpointWire {
  api: ApiName;
  method: HttpVerb;
  /**
   * Full path template below the origin, OpenAPI style (`/api/v1/…/{id}`). Each `{name}` is
   * one percent-encoded segment, except the one named by `restParam`, which may span several
   * (the x402 rpc entry's `{method}` holds `wallet/getnowblock`).
   */
  path: string;
  /** A path parameter that may hold `/` (matched to the end of the path). */
  restParam?: string;
  auth: EndpointAuth;
  /** Rate-limit group, or null when never limited (control routes). */
  rateGroup: RateGroup | null;
  /**
   * Honours an Idempotency-Key: the SDK generates one (reused on every retry) and so may retry
   * the POST; the mock replays the first answer for the same key and body.
   */
  idempotent: boolean;
  /** The spec requires `Content-Type: application/json` (else 400 VALIDATION_ERROR). */
  requiresJsonContentType?: boolean;
  /** x402 price per call. */
  price?: EndpointPrice;
  /** Path parameters (strict object, one key per `{name}`). */
  params?: z.ZodMiniType;
  /** Query parameters (strict object). */
  query?: z.ZodMiniType;
  /** JSON body (strict object). */
  body?: z.ZodMiniType;
  /** The success body (lenient schema; the mock and tests hold it exact with `exactShape`). */
  response: z.ZodMiniType;
  /** Success status. */
  status: 200 | 201;
  /** The success body sits in `{ data: … }` (every x402 result); account bodies are bare. */
  dataEnvelope?: boolean;
  pagination?: OffsetPagination;
}

/** The text half of an operation: for people, listings and checks. */
export interface EndpointDocs {
  /** One line for listings (OpenAPI summary, CLI help, MCP tool, method index). */
  summary: string;
  /**
   * Errors this endpoint gives, with the status the spec gives them here (e.g. VALIDATION_ERROR
   * 400 on order creation where the Errors table says 422). 401/403/402/429 follow from `auth`
   * and `rateGroup`; see {@link allErrors}.
   */
  errors: readonly EndpointError[];
  source: EndpointSource;
  sdk: SdkBinding;
  /** The CLI command that covers it (`orders list`); without one, `trx-rent api METHOD PATH` does. */
  cli?: string;
  /** The MCP tool that covers it, if any. */
  mcp?: McpBinding;
}

/** One operation, both halves. `id` is the entry's key in its table. */
export interface EndpointDef extends EndpointWire, EndpointDocs {}

/** A table: entries keyed by their id. */
export type EndpointTable = Record<string, EndpointWire>;

/** A table's entries with their key as `id`. */
export type WithIds<T extends EndpointTable> = { readonly [K in keyof T & string]: T[K] & { readonly id: K } };

/** Give every entry its key as `id` (the id is written once, as the key). */
export function withIds<const T extends EndpointTable>(table: T): WithIds<T> {
  const out: Record<string, EndpointWire & { id: string }> = {};
  for (const [id, entry] of Object.entries(table)) out[id] = Object.freeze({ ...entry, id });
  return Object.freeze(out) as unknown as WithIds<T>;
}

/** Join a table's machine half and its text half, entry by entry (the same ids on both sides). */
export function joinDocs<W extends Record<string, EndpointWire & { id: string }>, D extends { [K in keyof W]: EndpointDocs }>(
  wire: W,
  docs: D,
): { readonly [K in keyof W]: W[K] & D[K] } {
  const out: Record<string, unknown> = {};
  for (const id of Object.keys(wire)) out[id] = Object.freeze({ ...wire[id], ...docs[id] });
  return Object.freeze(out) as { readonly [K in keyof W]: W[K] & D[K] };
}

/** Every error an entry can answer: its own plus those that follow from auth and rate limits. */
export function allErrors(entry: EndpointDef): EndpointError[] {
  const out = [...entry.errors];
  const has = (code: string) => out.some((e) => e.code === code);
  if (entry.auth !== 'public' && entry.auth !== 'x402' && !has('UNAUTHORIZED')) {
    out.push({ code: 'UNAUTHORIZED', status: 401, when: 'missing or invalid key or JWT' });
  }
  if (entry.auth !== 'public' && entry.auth !== 'x402' && entry.auth !== 'account' && !has('FORBIDDEN')) {
    out.push({ code: 'FORBIDDEN', status: 403, when: `the key lacks the ${entry.auth} permission` });
  }
  if (entry.auth === 'x402' && !has('PAYMENT_REQUIRED')) {
    out.push({ code: 'PAYMENT_REQUIRED', status: 402, when: 'no valid x402 payment attached (the body is the challenge)' });
  }
  if (entry.rateGroup && !has('RATE_LIMITED')) out.push({ code: 'RATE_LIMITED', status: 429, when: 'too many requests; Retry-After says when to retry' });
  return out;
}

/** The names of a path template's `{params}`, in order. */
export function pathParams(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/** The request body an entry takes (its strict schema's input), `never` when it takes none. */
export type BodyOf<E extends EndpointWire> = E['body'] extends z.ZodMiniType ? z.input<E['body']> : never;

/** The query an entry takes (its strict schema's input), `never` when it takes none. */
export type QueryOf<E extends EndpointWire> = E['query'] extends z.ZodMiniType ? z.input<E['query']> : never;

/** The path parameters an entry takes (its strict schema's input), `never` when it takes none. */
export type ParamsOf<E extends EndpointWire> = E['params'] extends z.ZodMiniType ? z.input<E['params']> : never;
