/**
 * Every success answer of the mock's API routes (account API and paid x402 API), held to the
 * exact shape of its response schema: the spec's fields, plus the fields the production notes
 * list (order `expires_at`, fill `delegation_tx`, balance `updated_at`), and not one key more.
 *
 * Which schema answers which route is read from the contract (the OpenAPI document: path,
 * method, status -> component), and each component name from the zod schemas the document is
 * generated from, so nothing here restates an endpoint. `vitest.config.ts` loads
 * `exact-responses.setup.ts`, which wraps every route of the mock with `checkRoute` and fails
 * the running test on the first answer that is not exact.
 */
import type * as z from 'zod';
import { ACCOUNT_RESPONSES, FullOrder, HistoryEntry, OrderCreated, OrderFill, OrderListItem, X402_RESPONSES } from '../../src/openapi/components.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { Balance } from '../../src/schemas/balance.js';
import type { RouteDef, RouteResult } from '../../src/mock/http/route.js';
import { type Extras, exactShapeIssues } from './exact-shape.js';
import * as zod from 'zod';

/** The production notes' fields beyond the spec's (`/work/shared/reference/production-notes.md`). */
export const PRODUCTION_EXTRAS: Extras = new Map<z.ZodType, readonly string[]>([
  [OrderCreated, ['expires_at']],
  [OrderListItem, ['expires_at']],
  [FullOrder, ['expires_at']],
  [OrderFill, ['delegation_tx']],
  [HistoryEntry, ['delegation_tx']],
  [Balance, ['updated_at']],
]);

const COMPONENTS = new Map<string, z.ZodType>([...ACCOUNT_RESPONSES, ...X402_RESPONSES].map(([name, schema]) => [name, schema as z.ZodType]));
const PREFIX = '#/components/schemas/';

type Json = { [key: string]: unknown };

/** A zod schema for a response's JSON Schema node: `$ref`s to components, arrays, `{ data }` wrappers. */
function zodOf(node: Json, where: string): z.ZodType {
  if (typeof node.$ref === 'string') {
    const schema = COMPONENTS.get(node.$ref.slice(PREFIX.length));
    if (!schema) throw new Error(`${where}: no zod schema for ${node.$ref}`);
    return schema;
  }
  if (node.type === 'array') return zod.array(zodOf(node.items as Json, `${where}[]`));
  const properties = node.properties as Record<string, Json> | undefined;
  if (node.type === 'object' && properties) {
    return zod.strictObject(Object.fromEntries(Object.entries(properties).map(([key, child]) => [key, zodOf(child, `${where}.${key}`)])));
  }
  throw new Error(`${where}: response schema not understood: ${JSON.stringify(node).slice(0, 200)}`);
}

/** `METHOD /path/{}` -> status -> schema, from the contract. */
function index(): Map<string, Map<number, z.ZodType>> {
  const doc = buildOpenApiDocument();
  const out = new Map<string, Map<number, z.ZodType>>();
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, { responses: Record<string, Json> }>)) {
      const byStatus = new Map<number, z.ZodType>();
      for (const [status, response] of Object.entries(op.responses)) {
        const code = Number(status);
        if (!(code >= 200 && code < 300)) continue;
        const schema = (response.content as Record<string, { schema: Json }> | undefined)?.['application/json']?.schema;
        if (schema) byStatus.set(code, zodOf(schema, `${method.toUpperCase()} ${path} ${status}`));
      }
      out.set(key(method, path), byStatus);
    }
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

/** The response schema of `route` for `status`, from the contract; undefined when the contract has none. */
export function responseSchema(route: Pick<RouteDef, 'method' | 'path'>, status: number): z.ZodType | undefined {
  schemas ??= index();
  return schemas.get(key(route.method, route.path))?.get(status);
}

/** Problems of one success answer of `route` (empty when exact). */
export function checkRoute(route: RouteDef, result: RouteResult): string[] {
  if (result.status < 200 || result.status >= 300) return [];
  const schema = responseSchema(route, result.status);
  if (!schema) return [`${route.method} ${route.path}: no ${result.status} response in the contract`];
  const body = result.json !== undefined ? JSON.parse(result.json) : result.body;
  return exactShapeIssues(schema, body, PRODUCTION_EXTRAS).map((issue) => `${route.method} ${route.path} ${result.status}: ${issue}`);
}
