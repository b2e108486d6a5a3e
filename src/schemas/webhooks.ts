import * as z from 'zod/mini';
import type { Known } from './known.js';
import { lenientEnum, looseTimestamp, sunAmount } from './common.js';
import { Order } from './orders.js';
import { Withdrawal } from './withdrawals.js';
import { WEBHOOK_EVENTS } from './enums.js';
import { described, withMeta } from './meta.js';
export { WEBHOOK_EVENTS } from './enums.js';

/** One of {@link WEBHOOK_EVENTS}, as a request (POST /webhooks) sends it (strict). */
export const WebhookEventType = z.enum(WEBHOOK_EVENTS);
export type WebhookEventType = Known<z.infer<typeof WebhookEventType>>;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/** HTTPS endpoint; plain http only on loopback, for local receivers and the mock. */
export const WebhookUrl = z.string().check(
  z.refine(
    (value) => {
      try {
        const url = new URL(value);
        return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
      } catch {
        return false;
      }
    },
    { message: 'must be an https:// URL (http:// is allowed only for loopback hosts)' },
  ),
);

/** Body of `createWebhook`. */
export const CreateWebhookRequest = z.strictObject({
  /** Where deliveries go: an https:// URL (http:// only on loopback). */
  url: described(WebhookUrl, 'https:// URL that receives the events (http:// only for loopback).'),
  /** Event types to subscribe to; at least one. */
  events: described(z.array(WebhookEventType).check(z.minLength(1, 'needs at least one event')), `At least one of ${WEBHOOK_EVENTS.join(', ')}.`),
});
export type CreateWebhookRequest = z.input<typeof CreateWebhookRequest>;

/**
 * A registered webhook, as `createWebhook` (201, with `secret`) and `listWebhooks`
 * (without) return it.
 */
export const Webhook = z.looseObject({
  /** Webhook identifier. */
  id: z.string(),
  /** Owning user. */
  user_id: described(z.string(), 'Owner.'),
  /** The registered endpoint. */
  url: described(z.string(), 'Registered HTTPS endpoint.'),
  /** Subscribed event types; unknown values are kept. */
  events: described(z.array(lenientEnum(WEBHOOK_EVENTS)), 'Subscribed event types.'),
  /** 64 hex characters; returned only at creation. */
  secret: described(z.optional(z.string()), '64 hex characters: the HMAC-SHA256 signing secret; returned only at creation.'),
  /** False once the service has deactivated an endpoint that keeps failing (live service). */
  is_active: z.boolean(),
  /** ISO 8601 per the spec; Unix time is accepted too. */
  created_at: looseTimestamp,
});
export type Webhook = Known<z.infer<typeof Webhook>>;

/** A webhook as `createWebhook` returns it: with its signing secret, shown only here. */
export const WebhookCreated = z.required(Webhook, { secret: true });
export type WebhookCreated = Known<z.infer<typeof WebhookCreated>>;

/** Response of `listWebhooks`: every webhook, without secrets (follows the live service). */
export const WebhookList = z.array(Webhook);
export type WebhookList = Known<z.infer<typeof WebhookList>>;

/** Response of `deleteWebhook`: `{ deleted: true }` (follows the live service). */
export const DeleteWebhookResponse = z.looseObject({ deleted: withMeta(z.boolean(), { description: 'Always true.', const: true }) });
export type DeleteWebhookResponse = Known<z.infer<typeof DeleteWebhookResponse>>;

/*
 * Delivery bodies: { event, data, timestamp }. The spec does not show `data` per event; these
 * are the shapes trx-rent's mock sends and the verifier types: the order (or withdrawal) as the
 * API returns it, and for deposits the credited transfer.
 */

/**
 * `data` of a `deposit.received` delivery: the credited transfer. The spec does not show it;
 * this is what trx-rent's mock sends.
 */
export const DepositReceivedData = z.looseObject({
  /** The deposit transaction's hash. */
  tx_id: z.string(),
  /** Amount credited, in SUN. */
  amount_sun: sunAmount,
  /** Currency credited (`TRX` for memo deposits). */
  currency: z.string(),
  /** The memo the transfer carried. */
  memo: z.optional(z.string()),
  /** Sender address, when known. */
  from_address: z.optional(z.string()),
});
export type DepositReceivedData = Known<z.infer<typeof DepositReceivedData>>;

/**
 * `data` of a `withdrawal.completed` delivery: the withdrawal as the API returns it, plus the
 * payout transaction's `tx_id` (the spec does not show it; this is what trx-rent's mock sends).
 */
export const WithdrawalCompletedData = z.extend(Withdrawal, { tx_id: z.optional(z.string()) });

const timestamp = z.number();
/**
 * A webhook delivery body of a known event type: `{ event, data, timestamp }`, with `timestamp`
 * in Unix seconds. `order.*` events carry the {@link Order}; see {@link AnyWebhookEventBody} for
 * other event types. To check a signature and parse in one step, use `constructWebhookEvent`
 * from `trx-rent/webhooks`.
 */
export const WebhookEventBody = z.discriminatedUnion('event', [
  z.looseObject({ event: z.literal('order.filled'), data: Order, timestamp }),
  z.looseObject({ event: z.literal('order.failed'), data: Order, timestamp }),
  z.looseObject({ event: z.literal('deposit.received'), data: DepositReceivedData, timestamp }),
  z.looseObject({ event: z.literal('withdrawal.completed'), data: WithdrawalCompletedData, timestamp }),
]);
export type WebhookEventBody = Known<z.infer<typeof WebhookEventBody>>;

/** Any delivery, including event types this version does not know (e.g. deposit.confirmed). */
export const AnyWebhookEventBody = z.looseObject({
  event: z.string(),
  data: z.record(z.string(), z.unknown()),
  timestamp: looseTimestamp,
});
