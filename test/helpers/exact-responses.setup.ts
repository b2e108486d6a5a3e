/**
 * Loaded before every test file (vitest `setupFiles`): every success answer the in-process mock
 * gives on a service route is checked for its exact shape (`exact-responses.ts`), whichever
 * adapter serves it (node:http, fetch, msw). An answer with one key too many fails the test that
 * caused it, naming the route and the key. Mocks in child processes (the CLI's) are not covered.
 */
import { afterEach } from 'vitest';
import { ALL_ROUTES } from '../../src/mock/routes.js';
import type { RouteDef } from '../../src/mock/http/route.js';
import { checkRoute, isServiceRoute } from './exact-responses.js';

const WRAPPED = Symbol.for('trx-rent.test.exact-shape');
const problems: string[] = [];

for (const route of ALL_ROUTES as RouteDef[]) {
  if (!isServiceRoute(route) || (route as unknown as Record<symbol, boolean>)[WRAPPED]) continue;
  const handle = route.handle.bind(route);
  route.handle = async (ctx) => {
    const result = await handle(ctx);
    problems.push(...checkRoute(route, result));
    return result;
  };
  (route as unknown as Record<symbol, boolean>)[WRAPPED] = true;
}

afterEach(() => {
  if (problems.length === 0) return;
  const found = problems.splice(0);
  throw new Error(`The mock answered with a shape other than the spec's:\n  ${[...new Set(found)].join('\n  ')}`);
});
