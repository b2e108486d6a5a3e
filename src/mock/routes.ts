/**
 * The mock's whole route table: the account API, the paid API, the simulated TRON node, the
 * GasFree relayer and the `/__mock/` helpers. Every adapter serves this one table.
 *
 * @module
 */
import { buildOpenApiDocument } from '../openapi/document.js';
import { ROUTES } from './account/index.js';
import { nodeRoutes } from './chain/routes.js';
import type { RouteDef } from './http/route.js';
import { paidHelperRoutes } from './x402/helpers.js';
import { paidRoutes } from './x402/routes.js';

/** The contract document per origin it names as its server (generated once: it is 130 KB of JSON). */
const documents = new Map<string, string>();

/** GET /openapi.json: the OpenAPI 3.1 document of the service the mock simulates, naming the mock as its server. */
const openApiRoute: RouteDef = {
  method: 'GET',
  path: '/openapi.json',
  group: null,
  auth: 'public',
  helper: true,
  raw: true,
  handle({ request }) {
    let json = documents.get(request.origin);
    if (json === undefined) {
      json = JSON.stringify(buildOpenApiDocument({ serverUrl: request.origin }));
      if (documents.size > 16) documents.clear();
      documents.set(request.origin, json);
    }
    return { status: 200, body: null, json };
  },
};

/** Every route the mock answers. */
export const ALL_ROUTES: readonly RouteDef[] = [...ROUTES, ...paidRoutes, ...nodeRoutes, ...paidHelperRoutes, openApiRoute];
