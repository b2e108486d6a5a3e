/**
 * The records of webhook delivery: a registered endpoint, a delivery with its attempts, the
 * hub's saved form, and the delivery policy they follow (the hub, `webhooks.ts`, runs it).
 * @module
 */
import type { WebhookEventType } from '../../schemas/webhooks.js';
import { nameClass } from '../../errors/name.js';

/**
 * Webhook subscriptions and real deliveries. The spec does not give a delivery policy; this is
 * the live service's, as its articles describe it, plus what the mock adds so nothing is lost:
 *  - a POST with the raw JSON body `{ event, data, timestamp }` and
 *    `X-Service-Signature: sha256=<hex HMAC-SHA256 of the body keyed with the secret>`;
 *  - 10 s timeout per attempt (a timer the hub holds, so it always fires); any 2xx is success;
 *  - 3 attempts: at once, 30 s after the first failure, 5 min after the second (mock clock, so
 *    a manual clock runs the schedule without waiting);
 *  - every attempt is re-stamped: `timestamp` is the mock clock's time of that attempt and the
 *    body is signed again, so a receiver checking freshness with the SDK's default 300 s window
 *    accepts the last retry (+330 s) as it accepts the first;
 *  - deliveries to one endpoint keep event order: a later event waits until the earlier one is
 *    delivered or has exhausted its attempts;
 *  - a webhook whose delivery exhausts its attempts is deactivated (`is_active: false`); events
 *    for it from then on (and those queued behind the failed one) are recorded as `skipped`,
 *    never silently dropped. `reactivate(id)` turns it back on; `redeliver(id)` sends a past
 *    event again as a new delivery (`redelivery_of`).
 * Every attempt is recorded on the delivery.
 */
export const WEBHOOK_POLICY = {
  timeoutMs: 10_000,
  maxAttempts: 3,
  /** Delay before attempt 2 and attempt 3. */
  retryDelaysMs: [30_000, 300_000] as const,
} as const;

/** A registered webhook endpoint (its secret, events, and whether it is still active). */
export interface WebhookRecord {
  id: string;
  account_id: string;
  url: string;
  events: WebhookEventType[];
  secret: string;
  is_active: boolean;
  created_at: number;
  deleted: boolean;
}

/** One HTTP attempt of a delivery: when, the status (or error), how long it took. */
export interface DeliveryAttempt {
  attempt: number;
  /** Mock-clock time the attempt started (ISO). */
  at: string;
  /** Receiver's HTTP status, or null when no response came (error or timeout). */
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

/** One event sent to one endpoint, with every attempt made so far. */
export interface WebhookDelivery {
  id: string;
  /** The subscription it was sent for; null for a direct `deliverWebhook` call. */
  webhook_id: string | null;
  account_id: string | null;
  url: string;
  event: string;
  /** The exact raw body of the latest attempt (what its signature covers); each attempt is re-stamped. */
  body: string;
  /**
   * pending: waiting for an attempt (or behind an earlier event to the same endpoint);
   * delivered; failed: every attempt failed; skipped: never sent, see `skipped_reason`.
   */
  status: 'pending' | 'delivered' | 'failed' | 'skipped';
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
  created_at: string;
  /** Why a skipped delivery was not sent (e.g. the webhook was inactive). */
  skipped_reason: string | null;
  /** The delivery this one re-sends (`redeliver`), or null. */
  redelivery_of: string | null;
}

/** Saved form of the hub (see MockState persistence). */
export interface WebhookHubSnapshot {
  hooks: WebhookRecord[];
  deliveries: WebhookDelivery[];
  /** Secrets of direct deliveries still pending (by delivery id). */
  secrets: Record<string, string>;
}

/** Why a redelivery was refused (the control route answers 409 with this message). */
export class RedeliverError extends Error {
  static {
    nameClass(this, 'RedeliverError');
  }
  override name = 'RedeliverError';
}
