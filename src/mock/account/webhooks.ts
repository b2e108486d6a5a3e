import type { ACCOUNT_ENDPOINTS } from '../../api/account-docs.js';
import { MockApiError } from '../shared/errors.js';
import type { PlainHandlers } from '../http/table.js';
import type { WebhookRecord } from '../state/webhook-records.js';

type Hooks = Pick<typeof ACCOUNT_ENDPOINTS, 'createWebhook' | 'listWebhooks' | 'deleteWebhook'>;

/** A webhook as listed (no secret). */
function shape(hook: WebhookRecord) {
  return {
    id: hook.id,
    user_id: hook.account_id,
    url: hook.url,
    events: hook.events,
    is_active: hook.is_active,
    created_at: new Date(hook.created_at).toISOString(),
  };
}

/** A webhook as created: the secret is shown this once. */
function created(hook: WebhookRecord) {
  const { id, user_id, url, events, ...rest } = shape(hook);
  return { id, user_id, url, events, secret: hook.secret, ...rest };
}

export const webhookHandlers = {
  // HTTPS only, except http:// on loopback hosts for local receivers (the shared schema's rule).
  createWebhook: {
    handle: ({ state, input: { body: input }, account }) => ({ status: 201, body: created(state.webhooks.create(account.id, input.url, input.events)) }),
  },
  listWebhooks: { handle: ({ state, account }) => ({ status: 200, body: state.webhooks.list(account.id).map(shape) }) },
  deleteWebhook: {
    handle: ({ state, input: { params }, account }) => {
      if (!state.webhooks.delete(account.id, params.id)) throw new MockApiError('NOT_FOUND', `Webhook ${params.id} not found`, { field: 'id' });
      return { status: 200, body: { deleted: true } };
    },
  },
} satisfies PlainHandlers<Hooks>;
