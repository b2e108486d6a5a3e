import type { z } from 'zod';
import { ApiPromise } from '../http/api-promise.js';
import type { HttpClient, HttpRequest } from '../http/client.js';

/** Base of every resource: one line per endpoint, everything cross-cutting lives in HttpClient. */
export abstract class Resource {
  constructor(protected readonly http: HttpClient) {}

  protected call<S extends z.ZodType>(req: HttpRequest<S>): ApiPromise<z.output<S>> {
    return new ApiPromise(() => this.http.request(req));
  }
}

/** Path segments are encoded so an id can never change the route. */
export function segment(id: string): string {
  return encodeURIComponent(id);
}
