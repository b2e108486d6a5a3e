/**
 * `trx-rent/mock`: a stateful simulator of the service (account API, paid x402 API, a TRON node),
 * built from the same zod schemas as the client. One pipeline answers every route; adapters
 * serve it over real HTTP, as a fetch handler, or as msw handlers (`trx-rent/mock/msw`).
 *
 * ```ts
 * import { TrxRent } from 'trx-rent';
 *
 * // over real HTTP
 * import { startMockServer } from 'trx-rent/mock';
 * const mock = await startMockServer({ port: 0 });
 * const client = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey });
 *
 * // as a fetch handler (service workers, edge runtimes, fetch stubs)
 * import { createFetchHandler, createMockState } from 'trx-rent/mock';
 * const handle = createFetchHandler(createMockState({ clock: 'manual' }), { rateLimits: false });
 * const response = await handle(new Request('http://mock.test/openapi.json'));
 * ```
 *
 * @module
 */
export { ROUTES } from './routes.js';
export { ALL_ROUTES } from './routes.js';
export type { RouteDef, RouteContext, RouteResult, MockRequest, MockResponse, HeaderReader } from './http/route.js';
export { createPipeline, type MockPipeline, type PipelineOptions } from './http/pipeline.js';
export { createFetchHandler, fetchHandlerOf, toMockRequest, toResponse, type MockFetch } from './adapters/fetch.js';
export { MockApiError, type MockErrorCode } from './shared/errors.js';
export { startMockServer, type MockServer, type MockServerOptions, type RequestLogEntry } from './adapters/server.js';
export { createMockState, MockState } from './state/index.js';
export type { MockStateOptions, MockTimings, CreateAccountOptions, CreatedAccount, InvariantReport } from './state/index.js';
export * from './state/index.js';
export { DEFAULT_RATE_LIMITS, type RateLimitGroup, type RateLimitOptions, type RateLimits } from './http/ratelimit.js';
export { CHAOS_KINDS, Chaos, type ChaosHit, type ChaosKind, type ChaosOptions, type ChaosRule } from './http/chaos.js';
export { DEFAULT_ORDER_TIMINGS } from './state/order-rules.js';
export { DEFAULT_MONEY_TIMINGS } from './state/money.js';
export { PaidMock, type PaidMockOptions } from './x402/paid.js';
export { SimulatedChain, type BroadcastOptions } from './chain/chain.js';
export { GENESIS_ACCOUNTS } from './chain/accounts.js';
export { SOLIDIFIED_LAG_BLOCKS } from './chain/blocks.js';
export type { CallOutcome, TokenView } from './chain/contracts.js';
export type { UsagePatterns } from './chain/usage.js';
export type { DepositPattern, DepositPatternInput, DepositPatterns, PatternDeposit } from './chain/deposits.js';
