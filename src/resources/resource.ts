import type { z } from 'zod';
import { ApiPromise, type WithResponse } from '../http/api-promise.js';
import type { HttpClient, HttpRequest, RequestOptions } from '../http/client.js';
import { validateRequest } from '../http/validate.js';
import type { Known } from '../schemas/known.js';

/** Base of every resource: one line per endpoint, everything cross-cutting lives in HttpClient. */
export abstract class Resource {
  constructor(protected readonly http: HttpClient) {}

  /**
   * `build` runs on first use, inside the promise: a local validation error rejects the returned
   * promise like any API error (and nothing is sent), rather than throwing synchronously.
   */
  protected call<S extends z.ZodType>(build: () => HttpRequest<S>): ApiPromise<Known<z.output<S>>> {
    // Known<>: the parsed value is the schema's output; its type drops the lenient index signature.
    return new ApiPromise<Known<z.output<S>>>(() => {
      let request: HttpRequest<S>;
      try {
        request = build();
      } catch (error) {
        return Promise.reject(error);
      }
      return this.http.request(request) as Promise<WithResponse<Known<z.output<S>>>>;
    });
  }

  /**
   * A POST that moves money (an order, a withdrawal): the body is checked with `bodySchema`
   * first, and an Idempotency-Key is generated when none is given and reused on every retry,
   * so a retried call never acts twice.
   */
  protected idempotentPost<S extends z.ZodType>(path: string, bodySchema: z.ZodType, params: unknown, schema: S, options: RequestOptions) {
    return this.call(() => ({
      method: 'POST',
      path,
      body: validateRequest(bodySchema, params),
      schema,
      idempotencyKey: options.idempotencyKey ?? newIdempotencyKey(),
      options,
    }));
  }
}

let randomUUID: (() => string) | undefined;

/** A fresh Idempotency-Key (Web Crypto's `randomUUID`, looked up once). */
function newIdempotencyKey(): string {
  return (randomUUID ??= crypto.randomUUID.bind(crypto))();
}
