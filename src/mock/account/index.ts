/**
 * The account API's handlers (`/api/v1/*`), one file per resource, and the account-side
 * `/__mock/` control handlers. Paths, auth, groups and schemas are in the endpoint table
 * (`src/api/account.ts`, `../control-endpoints.ts`); `../handlers.ts` joins the two.
 *
 * @module
 */
export { accountHandlers } from './account.js';
export { accountControlHandlers } from './control.js';
export { keyHandlers } from './keys.js';
export { moneyHandlers } from './money.js';
export { orderHandlers } from './orders.js';
export { priceHandlers } from './prices.js';
export { webhookHandlers } from './webhooks.js';
export { webhookControlHandlers } from './webhook-control.js';
