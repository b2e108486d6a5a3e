import { http, type RequestHandler } from 'msw';
import { type PaidMockOptions, createPaidHandlers } from '../x402/index.js';
import { Chaos, type ChaosOptions } from '../rules/chaos.js';
import { type RateLimitOptions, RateLimiter } from '../rules/ratelimit.js';
import type { MockState } from '../state/index.js';
import { accountRoutes } from './account.js';
import { helperRoutes } from './helpers.js';
import { keyRoutes } from './keys.js';
import { moneyRoutes } from './money.js';
import { orderRoutes } from './orders.js';
import { priceRoutes } from './prices.js';
import { type RouteDef, type Runtime, errorResponse, runRoute } from './route.js';
import { webhookRoutes } from './webhooks.js';

export interface HandlerOptions {
  /** Wrap successful bodies in `{ data }` as the live service does (errors are never wrapped). Default false. */
  envelope?: boolean;
  /** Seeded fault injection; off by default. */
  chaos?: ChaosOptions | false;
  /** The spec's per-IP limits (default), different numbers (e.g. `{ orders: 2, windowMs: 1000 }`), or false for none. */
  rateLimits?: false | RateLimitOptions;
  /** The paid side's challenge: `{ version: 1 }` for v1-only clients (x402-fetch), schemes, networks. */
  x402?: PaidMockOptions;
}

/** Every account-API route and /__mock/ helper, in match order (preview before /orders/:id). */
export const ROUTES: readonly RouteDef[] = [
  ...priceRoutes,
  ...orderRoutes,
  ...accountRoutes,
  ...keyRoutes,
  ...moneyRoutes,
  ...webhookRoutes,
  ...helperRoutes,
];

/**
 * msw handlers for one state. Paths match on any origin (`*\/api/v1/prices`), so they serve
 * `setupServer(...handlers)` for any base URL, and the HTTP server through msw's getResponse.
 * Unknown /api/v1 and /__mock routes answer 404 NOT_FOUND.
 */
export function createHandlers(state: MockState, options: HandlerOptions = {}): RequestHandler[] {
  const runtime: Runtime = {
    state,
    envelope: options.envelope ?? false,
    chaos: new Chaos(options.chaos, state.seed),
    limiter: options.rateLimits === false ? undefined : new RateLimiter(options.rateLimits ?? {}, () => state.now()),
  };
  const routes = ROUTES.map((route) => {
    const method = route.method === 'GET' ? http.get : route.method === 'POST' ? http.post : http.delete;
    return method(`*${route.path}`, ({ request, params }) => runRoute(route, runtime, request, stringParams(params)));
  });
  return [
    ...routes,
    // The paid side (/x402/tron/*) and the simulated TRON node, on the same state.
    ...createPaidHandlers(state, options.x402),
    http.all('*/api/v1/*', ({ request }) => notFound(request)),
    http.all('*/__mock/*', ({ request }) => notFound(request)),
  ];
}

export function notFound(request: Request): Response {
  let path = request.url;
  try {
    path = new URL(request.url).pathname;
  } catch {
    // keep the raw URL
  }
  return errorResponse(404, 'NOT_FOUND', `No route ${request.method} ${path}`);
}

function stringParams(params: Record<string, string | readonly string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) if (typeof v === 'string') out[k] = v;
  return out;
}
