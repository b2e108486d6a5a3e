/**
 * The account API's routes (`/api/v1/*`) and the account-side `/__mock/` helpers, in match
 * order. Each file here is one resource; the pipeline in `../http/pipeline.ts` runs them.
 *
 * @module
 */
import type { RouteDef } from '../http/route.js';
import { accountRoutes } from './account.js';
import { helperRoutes } from './helpers.js';
import { keyRoutes } from './keys.js';
import { moneyRoutes } from './money.js';
import { orderRoutes } from './orders.js';
import { priceRoutes } from './prices.js';
import { webhookRoutes } from './webhooks.js';
import { webhookControlRoutes } from './webhook-control.js';

/** Every account-API route and account-side /__mock/ helper. */
export const ROUTES: readonly RouteDef[] = [
  ...priceRoutes,
  ...orderRoutes,
  ...accountRoutes,
  ...keyRoutes,
  ...moneyRoutes,
  ...webhookRoutes,
  ...helperRoutes,
  ...webhookControlRoutes,
];
