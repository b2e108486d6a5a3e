/**
 * `trx-rent/mock/msw`: the mock as msw request handlers, for `setupServer(...)` in tests and
 * `setupWorker(...)` in browsers. The only module of the mock that imports msw (an optional
 * peer: `npm install --save-dev msw`).
 *
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createMockState } from 'trx-rent/mock';
 * import { createHandlers } from 'trx-rent/mock/msw';
 * const state = createMockState({ clock: 'manual' });
 * const server = setupServer(...createHandlers(state, { rateLimits: false }));
 * ```
 *
 * @module
 */
import { http, type RequestHandler } from 'msw';
import { toMockRequest, toResponse } from './adapters/fetch.js';
import { type PipelineOptions, createPipeline } from './http/pipeline.js';
import { errorResult } from './http/route.js';
import { ALL_ROUTES } from './routes.js';
import { type MockState, createMockState } from './state/index.js';

/** Options of {@link createHandlers}: the pipeline's (envelope, chaos, rate limits, x402). */
export type HandlerOptions = PipelineOptions;

/** Paths the mock owns: an unknown route under them is a 404 envelope, not passed on to other handlers. */
const OWNED = /^\/(?:api\/v1|x402\/tron|__mock)(?:\/|$)/;

/**
 * msw handlers for one state, on any origin. A request whose path is one of the mock's routes
 * runs through the mock's pipeline; an unknown path under `/api/v1`, `/x402/tron` or `/__mock`
 * answers 404 NOT_FOUND; anything else falls through to your other handlers.
 */
export function createHandlers(state: MockState, options: HandlerOptions = {}): RequestHandler[] {
  const pipeline = createPipeline(state, ALL_ROUTES, options);
  return [
    http.all('*', async ({ request }) => {
      const record = await toMockRequest(request.clone());
      const response = await pipeline.handle(record);
      if (response) return toResponse(response);
      return OWNED.test(record.path) ? toResponse(errorResult(404, 'NOT_FOUND', `No route ${record.method} ${record.path}`)) : undefined;
    }),
  ];
}

let shared: { state: MockState; handlers: RequestHandler[] } | undefined;

/** A shared state (real clock, seed 1) made on first use: `defaultState().demo.api_key` is its demo key. */
export function defaultState(): MockState {
  shared ??= (() => {
    const state = createMockState();
    return { state, handlers: createHandlers(state) };
  })();
  return shared.state;
}

/**
 * Handlers bound to {@link defaultState}, for `setupServer(...defaultHandlers())`. The spec's
 * rate limits are on; for many requests in one test use `createHandlers(state, { rateLimits: false })`.
 */
export function defaultHandlers(): RequestHandler[] {
  defaultState();
  return shared!.handlers;
}
