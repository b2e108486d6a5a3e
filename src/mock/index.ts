/**
 * `trx-rent/mock`: a stateful simulator of the account API, built from the same zod schemas as
 * the client. Two ways to run the same msw handlers:
 *
 * ```ts
 * // in-process (msw)
 * import { setupServer } from 'msw/node';
 * import { createHandlers, createMockState } from 'trx-rent/mock';
 * const state = createMockState({ clock: 'manual' });
 * const server = setupServer(...createHandlers(state, { rateLimits: false }));
 *
 * // over real HTTP
 * import { startMockServer } from 'trx-rent/mock';
 * const mock = await startMockServer({ port: 0 });
 * const client = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey });
 * ```
 */
import type { RequestHandler } from 'msw';
import { createHandlers } from './handlers/index.js';
import { createMockState } from './state/index.js';

export { createHandlers, ROUTES, type HandlerOptions } from './handlers/index.js';
export type { RouteDef, RouteContext, RouteResult } from './handlers/route.js';
export { errorResponse, jsonResponse, clientIp } from './handlers/route.js';
export { MockApiError } from './errors.js';
export { startMockServer, type MockServer, type MockServerOptions } from './server.js';
export { createMockState, MockState } from './state/index.js';
export type { MockStateOptions, MockTimings, CreateAccountOptions, CreatedAccount, InvariantReport } from './state/index.js';
export * from './state/index.js';
export { DEFAULT_RATE_LIMITS, type RateLimitGroup, type RateLimitOptions, type RateLimits } from './rules/ratelimit.js';
export { CHAOS_KINDS, type ChaosKind, type ChaosOptions } from './rules/chaos.js';
export { DEFAULT_ORDER_TIMINGS } from './state/orders.js';
export { DEFAULT_MONEY_TIMINGS } from './state/money.js';

/** The state behind `handlers` (real clock, seed 1): `defaultState.demo.api_key` is its demo key. */
export const defaultState = createMockState();

/**
 * Handlers bound to `defaultState`, for `setupServer(...handlers)`. The spec's rate limits are
 * on; for many requests in one test use `createHandlers(state, { rateLimits: false })`.
 */
export const handlers: RequestHandler[] = createHandlers(defaultState);
