/**
 * The one endpoint table: every operation of the account API (`./account.ts`, its text half in
 * `./account-docs.ts`) and the
 * pay-per-call API (`./x402.ts`), keyed by id. The SDK's resources, the mock's router and
 * handlers, the OpenAPI document, the CLI's `api` command, the MCP read tools and the method
 * index are all derived from it; a path, an auth rule, a rate-limit group, idempotency, an
 * error status or a schema is written here and nowhere else.
 *
 * Adding an endpoint: one entry in `account.ts` (and its text in `account-docs.ts`) or `x402.ts`
 * (its schemas in `src/schemas/`),
 * a one-line SDK method calling `this.call(ENDPOINTS.<id>, …)`, one mock handler (the compiler
 * asks for it), one test.
 *
 * The mock's own control routes (`/__mock/…`) have a table of the same kind in
 * `src/mock/control-endpoints.ts`.
 * @module
 */
import type { AccountEndpointId } from './account.js';
import { ACCOUNT_ENDPOINTS } from './account-docs.js';
import { X402_ENDPOINTS, type X402EndpointId } from './x402.js';
import type { EndpointDef } from './types.js';

export { ACCOUNT_WIRE, type AccountEndpointId } from './account.js';
export { ACCOUNT_DOCS, ACCOUNT_ENDPOINTS } from './account-docs.js';
export { X402_ENDPOINTS, type X402EndpointId } from './x402.js';
export * from './types.js';
export { buildPath, routePattern } from './path.js';

/** Every service operation, keyed by id. */
export const ENDPOINTS = Object.freeze({ ...ACCOUNT_ENDPOINTS, ...X402_ENDPOINTS });

/** The id of a service operation: a union of the table's keys. */
export type EndpointId = AccountEndpointId | X402EndpointId;

/** The entry of an id, typed exactly. */
export type Endpoint<Id extends EndpointId = EndpointId> = (typeof ENDPOINTS)[Id];

/** The entries in table order. */
export const ENDPOINT_LIST: readonly (EndpointDef & { id: EndpointId })[] = Object.values(ENDPOINTS);

/** The entry for a method and a concrete path (`GET /api/v1/orders/abc`), or undefined. */
export function findEndpoint(method: string, path: string): (EndpointDef & { id: EndpointId }) | undefined {
  const clean = path.split('?')[0]!.replace(/\/+$/, '') || '/';
  for (const entry of ENDPOINT_LIST) {
    if (entry.method === method.toUpperCase() && matchTemplate(entry, clean)) return entry;
  }
  return undefined;
}

function matchTemplate(entry: EndpointDef, path: string): boolean {
  const want = entry.path.split('/');
  const got = path.split('/');
  for (let i = 0; i < want.length; i++) {
    const seg = want[i]!;
    const m = /^\{(\w+)\}$/.exec(seg);
    if (m && m[1] === entry.restParam) return got.length > i && got.slice(i).every((s) => s !== '');
    if (got[i] === undefined) return false;
    if (m) {
      if (got[i] === '') return false;
    } else if (seg !== got[i]) return false;
  }
  return got.length === want.length;
}
