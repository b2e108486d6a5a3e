import { CreateWebhookRequest } from '../../schemas/webhooks.js';
import { MockApiError } from '../http/errors.js';
import type { WebhookRecord } from '../state/webhooks.js';
import type { RouteDef } from '../http/route.js';

function shape(hook: WebhookRecord, withSecret: boolean) {
  return {
    id: hook.id,
    user_id: hook.account_id,
    url: hook.url,
    events: hook.events,
    ...(withSecret ? { secret: hook.secret } : {}),
    is_active: hook.is_active,
    created_at: new Date(hook.created_at).toISOString(),
  };
}

export const webhookRoutes: RouteDef[] = [
  {
    // HTTPS only, except http:// on loopback hosts for local receivers (the shared schema's rule).
    method: 'POST',
    path: '/api/v1/webhooks',
    group: 'other',
    auth: 'account',
    body: true,
    handle: ({ state, body, account, parse }) => {
      const input = parse(CreateWebhookRequest, body);
      return { status: 201, body: shape(state.webhooks.create(account.id, input.url, input.events), true) };
    },
  },
  {
    // Follows the live service.
    method: 'GET',
    path: '/api/v1/webhooks',
    group: 'other',
    auth: 'account',
    handle: ({ state, account }) => ({ status: 200, body: state.webhooks.list(account.id).map((h) => shape(h, false)) }),
  },
  {
    // Follows the live service.
    method: 'DELETE',
    path: '/api/v1/webhooks/:id',
    group: 'other',
    auth: 'account',
    handle: ({ state, params, account }) => {
      if (!state.webhooks.delete(account.id, params.id ?? '')) {
        throw new MockApiError('NOT_FOUND', `Webhook ${params.id} not found`, { field: 'id' });
      }
      return { status: 200, body: { deleted: true } };
    },
  },
];
