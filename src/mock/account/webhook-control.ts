/**
 * `/__mock/webhooks/*` control routes that drive deliveries (the `trx-rent webhooks trigger`,
 * `reactivate` and `redeliver` commands call them): fire a sample event, turn a deactivated
 * endpoint back on, send a past event again. Helper style: no rate limit, no chaos, no envelope.
 * An `X-API-Key` (or Bearer JWT), when sent, picks the account; else `account_id`, else the demo.
 *
 * @module
 */
import * as z from 'zod';
import { WEBHOOK_EVENTS } from '../../schemas/webhooks.js';
import { MockApiError } from '../http/errors.js';
import type { RouteContext, RouteDef } from '../http/route.js';
import { RedeliverError, type WebhookRecord } from '../state/webhooks.js';

const helper = { group: null, auth: 'public', helper: true } as const;

const TriggerBody = z.strictObject({
  event: z.enum(WEBHOOK_EVENTS),
  account_id: z.string().min(1).optional(),
  /** The event's `data`; default: a sample of its real shape. */
  data: z.record(z.string(), z.unknown()).optional(),
});

function accountOf(ctx: RouteContext, given: string | undefined): string {
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

export const webhookControlRoutes: RouteDef[] = [
  {
    ...helper,
    method: 'POST',
    path: '/__mock/webhooks/trigger',
    body: true,
    handle: (ctx) => {
      const input = ctx.parse(TriggerBody, ctx.body);
      const accountId = accountOf(ctx, input.account_id);
      const deliveries = ctx.state.triggerWebhook(input.event, { account_id: accountId, ...(input.data ? { data: input.data } : {}) });
      return { status: 200, body: { event: input.event, account_id: accountId, deliveries } };
    },
  },
  {
    ...helper,
    method: 'POST',
    path: '/__mock/webhooks/:id/reactivate',
    handle: ({ state, params }) => {
      const hook = state.reactivateWebhook(params.id ?? '');
      if (!hook) throw new MockApiError('NOT_FOUND', `No webhook ${params.id}`, { field: 'id' });
      return { status: 200, body: { webhook: hookShape(hook) } };
    },
  },
  {
    ...helper,
    method: 'POST',
    path: '/__mock/webhooks/deliveries/:id/redeliver',
    handle: ({ state, params }) => {
      let delivery;
      try {
        delivery = state.redeliverWebhook(params.id ?? '');
      } catch (error) {
        if (error instanceof RedeliverError) throw new MockApiError('VALIDATION_ERROR', error.message, { field: 'id', reason: 'webhook_unavailable' }, 409);
        throw error;
      }
      if (!delivery) throw new MockApiError('NOT_FOUND', `No delivery ${params.id}`, { field: 'id' });
      return { status: 201, body: { delivery } };
    },
  },
  {
    ...helper,
    method: 'GET',
    path: '/__mock/webhooks/deliveries/:id',
    handle: ({ state, params }) => {
      const delivery = state.webhooks.delivery(params.id ?? '');
      if (!delivery) throw new MockApiError('NOT_FOUND', `No delivery ${params.id}`, { field: 'id' });
      return { status: 200, body: { delivery } };
    },
  },
];
