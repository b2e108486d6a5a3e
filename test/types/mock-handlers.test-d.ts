/**
 * Type-level promises of the mock's handler maps (checked by `npm run typecheck`): a handler's
 * body has its entry's response type, so a handler returning the wrong body does not compile.
 */
import type { ACCOUNT_ENDPOINTS } from '../../src/api/account-docs.js';
import type { Handler } from '../../src/mock/http/table.js';

type DeleteWebhook = Handler<(typeof ACCOUNT_ENDPOINTS)['deleteWebhook']>;

export const right: DeleteWebhook = { handle: () => ({ status: 200, body: { deleted: true } }) };

export const wrongType: DeleteWebhook = {
  // @ts-expect-error `deleted` is a boolean in the table's response schema
  handle: () => ({ status: 200, body: { deleted: 'yes' } }),
};

export const missingField: DeleteWebhook = {
  // @ts-expect-error the response schema requires `deleted`
  handle: () => ({ status: 200, body: {} }),
};

// A body already serialised goes with body: null and its JSON text.
export const cached: DeleteWebhook = { handle: () => ({ status: 200, body: null, json: '{"deleted":true}' }) };
