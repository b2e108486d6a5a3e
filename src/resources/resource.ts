import type * as z from 'zod/mini';
import type { EndpointWire, FastCheck } from '../api/types.js';
import { buildPath } from '../api/path.js';
import { BODY_CHECKS, QUERY_CHECKS, RESPONSE_CHECKS } from '../api/account-checks.gen.js';
import type { AccountEndpointId } from '../api/account.js';
import { ApiPromise, type WithResponse } from '../http/api-promise.js';
import type { HttpClient, HttpRequest, RequestOptions } from '../http/client.js';
import { validateRequest } from '../http/validate.js';
import type { Known } from '../schemas/known.js';

/** What a call fills in of its endpoint: path parameters, query, body. */
export interface CallInput {
  params?: Record<string, unknown>;
  query?: unknown;
  body?: unknown;
}

/** The parsed success body of an entry. */
export type ResponseOf<E extends EndpointWire> = Known<z.output<E['response']>>;

/**
 * Base of every resource: each method is one line over its endpoint-table entry, e.g.
 * `create(params, options) { return this.call(ENDPOINTS.createOrder, { body: params }, options) }`.
 * Path, request validation, credentials, Idempotency-Key and the response schema all come from
 * the entry; everything cross-cutting (retries, errors, envelopes) lives in HttpClient.
 */
export abstract class Resource {
  constructor(protected readonly http: HttpClient) {}

  /**
   * Call an entry. The request is built on first use, inside the promise: a local validation
   * error rejects the returned promise like any API error (and nothing is sent), rather than
   * throwing synchronously.
   */
  protected call<E extends EndpointWire>(entry: E, input: CallInput = {}, options: RequestOptions = {}): ApiPromise<ResponseOf<E>> {
    return new ApiPromise<ResponseOf<E>>(() => this.send(entry, input, options));
  }

  /** One request for an entry, as `{ data, response }` (what `call` and page walks use). */
  protected send<E extends EndpointWire>(entry: E, input: CallInput, options: RequestOptions = {}): Promise<WithResponse<ResponseOf<E>>> {
    let request: HttpRequest<E['response']>;
    try {
      request = requestFor(entry, input, options);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.http.request(request) as Promise<WithResponse<ResponseOf<E>>>;
  }
}

/** The request an entry makes: everything but `input` and `options` comes from the table. */
export function requestFor<E extends EndpointWire>(entry: E, input: CallInput, options: RequestOptions): HttpRequest<E['response']> {
  return {
    method: entry.method,
    path: buildPath(entry, input.params),
    query: entry.query ? (checked(entry.query, input.query ?? {}, fastCheck(QUERY_CHECKS, entry)) as HttpRequest<E['response']>['query']) : undefined,
    body: entry.body ? checked(entry.body, input.body, fastCheck(BODY_CHECKS, entry)) : undefined,
    schema: entry.response,
    check: fastCheck(RESPONSE_CHECKS, entry),
    auth: entry.auth !== 'public',
    // Generated once per call and reused on every retry, so a retried POST never acts twice.
    idempotencyKey: entry.idempotent ? (options.idempotencyKey ?? newIdempotencyKey()) : undefined,
    options,
  };
}

/**
 * The build-time fast check of an account entry (src/api/account-checks.gen.ts), from one of
 * its tables; none for the other tables' entries.
 */
function fastCheck(table: Readonly<Record<AccountEndpointId, FastCheck | null>>, entry: EndpointWire): FastCheck | null | undefined {
  const id = (entry as { id?: unknown }).id;
  return entry.api === 'account' && typeof id === 'string' ? (table as Readonly<Record<string, FastCheck | null | undefined>>)[id] : undefined;
}

/** A request part as sent: the caller's value itself when its fast check passes, else zod's parse (or its error). */
function checked(schema: z.ZodMiniType, value: unknown, check: FastCheck | null | undefined): unknown {
  return check && check(value) ? value : validateRequest(schema, value);
}

let randomUUID: (() => string) | undefined;

/** A fresh Idempotency-Key (Web Crypto's `randomUUID`, looked up once). */
function newIdempotencyKey(): string {
  return (randomUUID ??= crypto.randomUUID.bind(crypto))();
}
