/**
 * The mock's handler maps, typed against the endpoint tables: one handler per id of
 * `src/api/endpoints.ts` (`SERVICE_HANDLERS`) and of `./control-endpoints.ts`
 * (`CONTROL_HANDLERS`). A missing handler, or one for an id the table does not have, is a
 * compile error (`npm run typecheck`).
 *
 * @module
 */
import type { ENDPOINTS } from '../api/endpoints.js';
import {
  accountControlHandlers,
  accountHandlers,
  keyHandlers,
  moneyHandlers,
  orderHandlers,
  priceHandlers,
  webhookControlHandlers,
  webhookHandlers,
} from './account/index.js';
import type { CONTROL_ENDPOINTS } from './control-endpoints.js';
import type { HandlersOf } from './http/table.js';
import { paidControlHandlers } from './x402-api/control.js';
import { paidHandlers } from './x402-api/routes.js';

/** Every service operation's handler, keyed by its table id. */
export const SERVICE_HANDLERS = {
  ...keyHandlers,
  ...priceHandlers,
  ...orderHandlers,
  ...accountHandlers,
  ...moneyHandlers,
  ...webhookHandlers,
  ...paidHandlers,
} satisfies HandlersOf<typeof ENDPOINTS>;

/** Every `/__mock/` control route's handler but the OpenAPI document's (which `../routes.ts` adds). */
export const CONTROL_HANDLERS = {
  ...accountControlHandlers,
  ...webhookControlHandlers,
  ...paidControlHandlers,
} satisfies Omit<HandlersOf<typeof CONTROL_ENDPOINTS>, 'mockOpenApi'>;
