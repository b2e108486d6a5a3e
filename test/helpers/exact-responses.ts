/**
 * Every success answer of the mock's API routes (account API and paid x402 API), held to the
 * exact shape of its response schema: the spec's fields, plus the fields the production notes
 * list (order `expires_at`, fill `delegation_tx`, balance `updated_at`), and not one key more.
 *
 * Which schema answers which route is read from the endpoint table (`src/api/endpoints.ts`:
 * method, path template, success status, response schema, `{ data }` envelope), so nothing here
 * restates an endpoint. `vitest.config.ts` loads
 * `exact-responses.setup.ts`, which wraps every route of the mock with `checkRoute` and fails
 * the running test on the first answer that is not exact.
 */
import type * as z from 'zod';
import { ENDPOINT_LIST } from '../../src/api/endpoints.js';
import { Fill, Order, OrderDetail } from '../../src/schemas/orders.js';
import { HistoryFill } from '../../src/schemas/history.js';
import { Balance } from '../../src/schemas/balance.js';
import type { RouteDef, RouteResult } from '../../src/mock/http/route.js';
import { type Extras, exactShapeIssues } from './exact-shape.js';
import * as zod from 'zod';

/** The production notes' fields beyond the spec's (`/work/shared/reference/production-notes.md`). */
export const PRODUCTION_EXTRAS: Extras = new Map<z.ZodType, readonly string[]>([
  [Order, ['expires_at']],
  [OrderDetail, ['expires_at']],
  [Fill, ['delegation_tx']],
  [HistoryFill, ['delegation_tx']],
  [Balance, ['updated_at']],
]);

/** `METHOD /path/{}` -> status -> schema, from the endpoint table. */
function index(): Map<string, Map<number, z.ZodType>> {
  const out = new Map<string, Map<number, z.ZodType>>();
  for (const entry of ENDPOINT_LIST) {
    const schema = entry.dataEnvelope ? zod.strictObject({ data: entry.response }) : entry.response;
    out.set(key(entry.method, entry.path), new Map([[entry.status, schema]]));
  }
  return out;
}

/** `GET /api/v1/orders/{}` for both `/api/v1/orders/{id}` and `/api/v1/orders/:id`. */
function key(method: string, path: string): string {
  return `${method.toUpperCase()} ${path.replace(/\{[^}]+\}|[:*][A-Za-z_]+/g, '{}')}`;
}

let schemas: Map<string, Map<number, z.ZodType>> | undefined;

/** Whether the route is one of the service's (not a `/__mock/` helper, the simulated node or relayer). */
export function isServiceRoute(route: RouteDef): boolean {
  return !route.helper && (route.path.startsWith('/api/v1/') || route.path.startsWith('/x402/tron/'));
}

/** The response schema of `route` for `status`, from the endpoint table; undefined when it has none. */
export function responseSchema(route: Pick<RouteDef, 'method' | 'path'>, status: number): z.ZodType | undefined {
  schemas ??= index();
  return schemas.get(key(route.method, route.path))?.get(status);
}

/** Problems of one success answer of `route` (empty when exact). */
export function checkRoute(route: RouteDef, result: RouteResult): string[] {
  if (result.status < 200 || result.status >= 300) return [];
  const schema = responseSchema(route, result.status);
  if (!schema) return [`${route.method} ${route.path}: no ${result.status} response in the endpoint table`];
  const body = result.json !== undefined ? JSON.parse(result.json) : result.body;
  return exactShapeIssues(schema, body, PRODUCTION_EXTRAS).map((issue) => `${route.method} ${route.path} ${result.status}: ${issue}`);
}
