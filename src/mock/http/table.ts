/**
 * Routes from the endpoint table: each entry of `src/api/endpoints.ts` (or of the mock's
 * control table) plus its handler becomes a {@link RouteDef} for the one pipeline. Path, method,
 * rate-limit group, auth, idempotency, Content-Type rule, endpoint-specific error statuses, the
 * request validation (params, query, body with the entry's schemas), the x402 fixed price, the
 * `{ data }` envelope and the response schema all come from the entry; the handler holds only
 * what the endpoint does.
 *
 * @module
 */
import type * as z from 'zod/mini';
import { BODY_CHECKS } from '../../api/account-checks.gen.js';
import type { EndpointDef, EndpointPrice, FastCheck } from '../../api/types.js';
import { routePattern } from '../../api/path.js';
import { decimalToAtomic } from '../../utils/units.js';
import { MockApiError } from '../shared/errors.js';
import type { RouteContext, RouteDef, RouteResult } from './route.js';

type Out<E, K extends 'params' | 'query' | 'body'> = E extends { readonly [P in K]: infer S extends z.ZodMiniType } ? z.output<S> : undefined;

/** What the default input stage hands a handler: the entry's params, query and body, validated. */
export interface EndpointInput<E> {
  params: Out<E, 'params'>;
  query: Out<E, 'query'>;
  body: Out<E, 'body'>;
}

/** The pipeline's context with the input stage's result typed. */
export type HandlerContext<I> = Omit<RouteContext, 'input'> & { input: I };

/** What a handler returns: the status and body (for an x402 entry, the body is what goes in `data`). */
export type HandlerResult = RouteResult;

/**
 * What an entry's handler returns: its body has the entry's response type, so a handler that
 * returns the wrong body does not compile. A body already serialised (`json`, a hot path's
 * cache) goes with `body: null`; the suite's exact-shape check holds that text to the schema.
 */
export type EntryResult<E> = Omit<RouteResult, 'body'> &
  ({ body: E extends { response: infer R extends z.ZodMiniType } ? z.input<R> : unknown } | { body: null; json: string });

/** A handler whose input is the entry's params/query/body, validated by the pipeline. */
export interface Handler<E> {
  /** Turn a validation error of the default input stage into this endpoint's own (e.g. withdraw's 400 INSUFFICIENT_BALANCE). */
  onInvalid?(error: MockApiError): MockApiError;
  handle(ctx: HandlerContext<EndpointInput<E>>): EntryResult<E> | Promise<EntryResult<E>>;
}

/**
 * A handler with its own input stage (it validates more than the schemas say before anything is
 * charged: the paid routes), and, for a dynamically priced entry, the price.
 */
export interface CustomHandler {
  input(ctx: RouteContext): unknown;
  price?(ctx: HandlerContext<never>): bigint;
  handle(ctx: HandlerContext<never>): HandlerResult | Promise<HandlerResult>;
}

/** Build a {@link CustomHandler} with its input type checked through to `price` and `handle`. */
export function customHandler<I>(h: {
  input(ctx: RouteContext): I;
  price?(ctx: HandlerContext<I>): bigint;
  handle(ctx: HandlerContext<I>): HandlerResult | Promise<HandlerResult>;
}): CustomHandler {
  return h as unknown as CustomHandler;
}

/** Plain handlers for some entries of a table (a resource's file), typed per entry. */
export type PlainHandlers<T extends Record<string, EndpointDef>> = { readonly [K in keyof T]: Handler<T[K]> };

/** Handlers for every entry of a table, keyed by id: a missing one does not compile. */
export type HandlersOf<T extends Record<string, EndpointDef>> = { readonly [K in keyof T]: Handler<T[K]> | CustomHandler };

/** Routes for a table's entries, each with its handler, in table order. */
export function tableRoutes<T extends Record<string, EndpointDef & { id: string }>>(
  table: T,
  handlers: HandlersOf<T>,
  kind: 'service' | 'control',
): RouteDef[] {
  return Object.values(table).map((entry) => {
    const handler = handlers[entry.id as keyof T] as (Handler<unknown> & Partial<CustomHandler>) | undefined;
    if (!handler) throw new Error(`${entry.id}: no handler`);
    const price = entry.price;
    const fixed = price ? fixedMicroUsd(price) : undefined;
    // The account table's build-time body check (src/api/account-checks.gen.ts), as the SDK uses it.
    const bodyCheck =
      kind === 'service' && entry.api === 'account'
        ? ((BODY_CHECKS as Readonly<Record<string, FastCheck | null | undefined>>)[entry.id] ?? undefined)
        : undefined;
    const route: RouteDef = {
      method: entry.method,
      path: routePattern(entry),
      group: entry.rateGroup,
      auth: entry.auth === 'x402' ? 'public' : entry.auth,
      body: entry.method === 'POST',
      requireJson: entry.requiresJsonContentType,
      // A control route's malformed input is a 400 (its parse stage); its business rules keep the
      // Errors table's status (an overflowing credit is 422), so its entry's list only documents.
      statuses: kind === 'service' ? Object.fromEntries(entry.errors.map((e) => [e.code, e.status])) : undefined,
      idempotent: entry.idempotent,
      helper: kind === 'control',
      raw: Boolean(entry.dataEnvelope) || kind === 'control',
      description: entry.summary,
      endpoint: entry,
      input: handler.input ? (ctx) => handler.input!(ctx) : (ctx) => defaultInput(entry, ctx, handler.onInvalid, bodyCheck),
      handle: entry.dataEnvelope
        ? async (ctx) => {
            const result = await handler.handle(ctx as never);
            return { ...result, body: { data: result.body } };
          }
        : (ctx) => handler.handle(ctx as never),
    };
    if (price) {
      route.price = handler.price
        ? (ctx) => handler.price!(ctx as never)
        : () => {
            if (fixed === undefined) throw new Error(`${entry.id}: a dynamic price needs the handler's price()`);
            return fixed;
          };
    }
    return route;
  });
}

/**
 * Validate the entry's path params, query and body, in that order; the first failure is the
 * answer. A body its fast check accepts (true only when zod would accept it and return it
 * unchanged: test/api/checks.test.ts holds every check to zod) is used as it is; on false, zod
 * parses it and gives the value or the error, so nothing passes that zod would refuse.
 */
function defaultInput(
  entry: EndpointDef,
  ctx: RouteContext,
  onInvalid?: (error: MockApiError) => MockApiError,
  bodyCheck?: FastCheck,
): EndpointInput<EndpointDef> {
  try {
    return {
      params: entry.params ? ctx.parse(entry.params, ctx.params) : undefined,
      query: entry.query ? ctx.parse(entry.query, ctx.query) : undefined,
      body: entry.body ? (bodyCheck?.(ctx.body) ? ctx.body : ctx.parse(entry.body, ctx.body)) : undefined,
    } as EndpointInput<EndpointDef>;
  } catch (error) {
    if (onInvalid && error instanceof MockApiError) throw onInvalid(error);
    throw error;
  }
}

function fixedMicroUsd(price: EndpointPrice): bigint | undefined {
  return price.kind === 'fixed' ? decimalToAtomic(price.usd, 6) : undefined;
}
