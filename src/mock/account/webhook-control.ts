/**
 * `/__mock/webhooks/*` control handlers that drive deliveries (the `trx-rent webhooks trigger`,
 * `reactivate` and `redeliver` commands call them): fire a sample event, turn a deactivated
 * endpoint back on, send a past event again. Their facts and body schemas are in
 * `../control-endpoints.ts`. An `X-API-Key` (or Bearer JWT), when sent, picks the account for a
 * trigger; else `account_id`, else the demo account.
 *
 * @module
 */
import type { CONTROL_ENDPOINTS } from '../control-endpoints.js';
import { MockApiError } from '../shared/errors.js';
import type { RouteContext } from '../http/route.js';
import type { PlainHandlers } from '../http/table.js';
import { RedeliverError, type WebhookRecord } from '../state/webhook-records.js';

type WebhookControl = Pick<typeof CONTROL_ENDPOINTS, 'mockTriggerWebhook' | 'mockReactivateWebhook' | 'mockRedeliver' | 'mockWebhookDelivery'>;

function accountOf(ctx: Pick<RouteContext, 'request' | 'state'>, given: string | undefined): string {
  const sent = ctx.request.headers.has('x-api-key') || ctx.request.headers.has('authorization');
  if (sent) {
    const auth = ctx.state.authenticate(ctx.request.headers);
    if (!auth) throw new MockApiError('UNAUTHORIZED', 'Invalid, revoked or expired API key or JWT');
    return auth.account.id;
  }
  const id = given ?? ctx.state.demo.account_id;
  if (!ctx.state.getAccount(id)) throw new MockApiError('NOT_FOUND', `No account ${id}`, { field: 'account_id' });
  return id;
}

function hookShape(hook: WebhookRecord) {
  return { id: hook.id, url: hook.url, events: hook.events, is_active: hook.is_active };
}

/** The webhook-driving control handlers. */
export const webhookControlHandlers = {
  mockTriggerWebhook: {
    handle: (ctx) => {
      const input = ctx.input.body;
      const accountId = accountOf(ctx, input.account_id);
      const deliveries = ctx.state.triggerWebhook(input.event, { account_id: accountId, ...(input.data ? { data: input.data } : {}) });
      return { status: 200, body: { event: input.event, account_id: accountId, deliveries } };
    },
  },
  mockReactivateWebhook: {
    handle: ({ state, input: { params } }) => {
      const hook = state.reactivateWebhook(params.id);
      if (!hook) throw new MockApiError('NOT_FOUND', `No webhook ${params.id}`, { field: 'id' });
      return { status: 200, body: { webhook: hookShape(hook) } };
    },
  },
  mockRedeliver: {
    handle: ({ state, input: { params } }) => {
      let delivery: ReturnType<typeof state.redeliverWebhook>;
      try {
        delivery = state.redeliverWebhook(params.id);
      } catch (error) {
        if (error instanceof RedeliverError) throw new MockApiError('VALIDATION_ERROR', error.message, { field: 'id', reason: 'webhook_unavailable' }, 409);
        throw error;
      }
      if (!delivery) throw new MockApiError('NOT_FOUND', `No delivery ${params.id}`, { field: 'id' });
      return { status: 201, body: { delivery } };
    },
  },
  mockWebhookDelivery: {
    handle: ({ state, input: { params } }) => {
      const delivery = state.webhooks.delivery(params.id);
      if (!delivery) throw new MockApiError('NOT_FOUND', `No delivery ${params.id}`, { field: 'id' });
      return { status: 200, body: { delivery } };
    },
  },
} satisfies PlainHandlers<WebhookControl>;
