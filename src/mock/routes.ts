/**
 * The mock's whole route table: the account API, the paid API, the simulated TRON node, the
 * GasFree relayer and the `/__mock/` helpers. Every adapter serves this one table.
 *
 * @module
 */
import { ROUTES } from './account/index.js';
import { nodeRoutes } from './chain/routes.js';
import type { RouteDef } from './http/route.js';
import { paidHelperRoutes } from './x402/helpers.js';
import { paidRoutes } from './x402/routes.js';

/** Every route the mock answers. */
export const ALL_ROUTES: readonly RouteDef[] = [...ROUTES, ...paidRoutes, ...nodeRoutes, ...paidHelperRoutes];
