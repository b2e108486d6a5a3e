/**
 * The mock as a fetch handler (`Request` in, `Response` out): for service workers, edge
 * runtimes, `fetch` stubs in tests, and the msw adapter. The node:http server does not use it.
 *
 * @module
 */
import { type MockPipeline, type PipelineOptions, createPipeline } from '../http/pipeline.js';
import { type MockRequest, type MockResponse, errorResult } from '../http/route.js';
import { ALL_ROUTES } from '../routes.js';
import type { MockState } from '../state/index.js';

/** A `Request` as the pipeline's plain record (reads the body). */
export async function toMockRequest(request: Request): Promise<MockRequest> {
  const url = new URL(request.url);
  const body = request.method === 'GET' || request.method === 'HEAD' ? '' : await request.text();
  return {
    method: request.method.toUpperCase(),
    path: url.pathname,
    query: url.search.slice(1),
    headers: request.headers,
    body,
    ip: request.headers.get('x-forwarded-for')?.split(',')[0]?.trim() || '127.0.0.1',
    origin: url.origin,
  };
}

/** The pipeline's response record as a `Response` (`Response.error()` for a chaos drop). */
export function toResponse(response: MockResponse): Response {
  if (response.drop) return Response.error();
  return new Response(response.status === 204 ? null : response.body, { status: response.status, headers: response.headers });
}

/** A `fetch`-compatible function: give it a `Request`, or a URL and init, as to `fetch`. */
export type MockFetch = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A fetch function over one state: every route of the mock, a 404 envelope for any other path.
 * Hand it to the SDK (`new TrxRent({ fetch })`) to test without sockets, or serve it from a worker.
 */
export function createFetchHandler(state: MockState, options: PipelineOptions = {}): MockFetch {
  return fetchHandlerOf(createPipeline(state, ALL_ROUTES, options));
}

/** A fetch function for an existing pipeline. */
export function fetchHandlerOf(pipeline: MockPipeline): MockFetch {
  return async (input, init) => {
    let record: MockRequest;
    try {
      record = await toMockRequest(input instanceof Request && init === undefined ? input : new Request(input, init));
    } catch {
      return toResponse(errorResult(400, 'VALIDATION_ERROR', 'Unreadable request', { field: 'body' }));
    }
    const response = await pipeline.handle(record);
    return toResponse(response ?? errorResult(404, 'NOT_FOUND', `No route ${record.method} ${record.path}`));
  };
}
