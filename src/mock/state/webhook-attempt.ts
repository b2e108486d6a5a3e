/**
 * One HTTP attempt of a webhook delivery: sign the body, POST it with the policy's timeout (a
 * timer held here, so it always fires), and record the outcome on the delivery. Whether to retry,
 * and when, is the hub's (`webhooks.ts`).
 * @module
 */
import { signWebhookPayload } from '../../webhooks/index.js';
import type { DeliveryAttempt, WebhookDelivery } from './webhook-records.js';

/** What an attempt needs from the hub. */
export interface AttemptOptions {
  /** The mock clock (the attempt's recorded start time). */
  now: () => number;
  /** The fetch to send with, looked up at send time. */
  fetch: () => typeof fetch;
  /** Whether a URL may be contacted (see MockStateOptions.webhookTargets). */
  mayDeliverTo: (url: URL) => boolean;
  /** Per-attempt timeout in real ms. */
  timeoutMs: number;
  /** Aborted when the state is disposed: the attempt in flight is aborted too. */
  disposed: AbortSignal;
}

/**
 * Make the next attempt of `delivery` (its current body, signed with `secret`) and record it
 * on the delivery: any 2xx is success; otherwise `error` says why (HTTP status, timeout,
 * refused target, network error). Never throws.
 */
export async function sendAttempt(delivery: WebhookDelivery, secret: string, via: AttemptOptions): Promise<DeliveryAttempt> {
  const attempt: DeliveryAttempt = {
    attempt: delivery.attempts.length + 1,
    at: new Date(via.now()).toISOString(),
    status_code: null,
    error: null,
    duration_ms: 0,
  };
  delivery.attempts.push(attempt);
  delivery.next_attempt_at = null;
  const started = Date.now();
  const { timeoutMs, disposed } = via;
  // A controller and a plain timer held here until the attempt ends: AbortSignal.timeout()
  // inside AbortSignal.any() can be garbage-collected before it fires, leaving a silent
  // receiver pending forever.
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onDispose = () => controller.abort(disposed.reason);
  disposed.addEventListener('abort', onDispose, { once: true });
  try {
    const body = delivery.body;
    const signature = await signWebhookPayload(body, secret);
    if (!via.mayDeliverTo(new URL(delivery.url))) {
      throw new Error('not sent: this mock delivers webhooks only to loopback hosts (webhookTargets: "any" to allow others)');
    }
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        const error = new Error(`timed out after ${timeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    // Raced as well as aborted: a fetch that ignores its signal still cannot hold the attempt.
    const response = await Promise.race([
      via.fetch()(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'trx-rent-mock',
          'x-service-signature': signature,
          'x-webhook-event': delivery.event,
          'x-webhook-delivery': delivery.id,
        },
        body,
        signal: controller.signal,
        redirect: 'manual',
      }),
      expired,
    ]);
    attempt.status_code = response.status;
    // Not awaited: with some fetch implementations (msw in-process) cancel() never settles,
    // and the body is of no interest anyway.
    void response.body?.cancel().catch(() => undefined);
    if (response.status < 200 || response.status >= 300) attempt.error = `HTTP ${response.status}`;
  } catch (error) {
    attempt.error = timedOut ? `timed out after ${timeoutMs} ms` : String((error as Error)?.message ?? error);
  } finally {
    clearTimeout(timer);
    disposed.removeEventListener('abort', onDispose);
  }
  attempt.duration_ms = Date.now() - started;
  return attempt;
}
