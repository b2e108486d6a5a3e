import { z } from 'zod';
import { lenientEnum, looseTimestamp } from './common.js';
import { Order } from './orders.js';
import { Withdrawal } from './withdrawals.js';

export const WEBHOOK_EVENTS = ['order.filled', 'order.failed', 'deposit.received', 'withdrawal.completed'] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENTS);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** HTTPS endpoint; plain http only on loopback, for local receivers and the mock. */
export const WebhookUrl = z.string().refine(
  (value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
    } catch {
      return false;
    }
  },
  { message: 'must be an https:// URL (http:// is allowed only for loopback hosts)' },
);

/** POST /api/v1/webhooks */
export const CreateWebhookRequest = z.strictObject({
  url: WebhookUrl,
  events: z.array(WebhookEventType).min(1, 'needs at least one event'),
});
export type CreateWebhookRequest = z.input<typeof CreateWebhookRequest>;

export const Webhook = z.looseObject({
  id: z.string(),
  user_id: z.string(),
  url: z.string(),
  events: z.array(lenientEnum(WEBHOOK_EVENTS)),
  /** 64 hex characters; returned only at creation. */
  secret: z.string().optional(),
  is_active: z.boolean(),
  created_at: looseTimestamp,
});
export type Webhook = z.infer<typeof Webhook>;

/** GET /api/v1/webhooks (follows the live service). */
export const WebhookList = z.array(Webhook);
export type WebhookList = z.infer<typeof WebhookList>;

/** DELETE /api/v1/webhooks/:id (follows the live service). */
export const DeleteWebhookResponse = z.looseObject({ deleted: z.boolean() });
export type DeleteWebhookResponse = z.infer<typeof DeleteWebhookResponse>;

/*
 * Delivery bodies: { event, data, timestamp }. The spec does not show `data` per event; these
 * are the shapes trx-rent's mock sends and the verifier types: the order (or withdrawal) as the
 * API returns it, and for deposits the credited transfer.
 */
export const DepositReceivedData = z.looseObject({
  tx_id: z.string(),
  amount_sun: z.number(),
  currency: z.string(),
  memo: z.string().optional(),
  from_address: z.string().optional(),
});
export type DepositReceivedData = z.infer<typeof DepositReceivedData>;

export const WithdrawalCompletedData = Withdrawal.extend({ tx_id: z.string().optional() });

const timestamp = z.number();
export const WebhookEventBody = z.discriminatedUnion('event', [
  z.looseObject({ event: z.literal('order.filled'), data: Order, timestamp }),
  z.looseObject({ event: z.literal('order.failed'), data: Order, timestamp }),
  z.looseObject({ event: z.literal('deposit.received'), data: DepositReceivedData, timestamp }),
  z.looseObject({ event: z.literal('withdrawal.completed'), data: WithdrawalCompletedData, timestamp }),
]);
export type WebhookEventBody = z.infer<typeof WebhookEventBody>;

/** Any delivery, including event types this version does not know (e.g. deposit.confirmed). */
export const AnyWebhookEventBody = z.looseObject({
  event: z.string(),
  data: z.record(z.string(), z.unknown()),
  timestamp: looseTimestamp,
});
