import type { z } from 'zod';
import { ApiPromise } from '../http/api-promise.js';
import type { HttpClient, HttpRequest } from '../http/client.js';

/** Base of every resource: one line per endpoint, everything cross-cutting lives in HttpClient. */
export abstract class Resource {
  constructor(protected readonly http: HttpClient) {}

  /**
   * `build` runs on first use, inside the promise: a local validation error rejects the returned
   * promise like any API error (and nothing is sent), rather than throwing synchronously.
   */
  protected call<S extends z.ZodType>(build: () => HttpRequest<S>): ApiPromise<z.output<S>> {
    return new ApiPromise(async () => this.http.request(build()));
  }
}
