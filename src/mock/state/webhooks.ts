import type { WebhookEventType } from '../../schemas/webhooks.js';
import { signWebhookPayload } from '../../webhooks/index.js';
import type { Rng } from './rng.js';
import type { Scheduler } from './scheduler.js';

/**
 * Webhook subscriptions and real deliveries. The spec does not give a delivery policy; this is
 * the live service's, as its articles describe it:
 *  - a POST with the raw JSON body `{ event, data, timestamp }` and
 *    `X-Service-Signature: sha256=<hex HMAC-SHA256 of the body keyed with the secret>`;
 *  - 10 s timeout per attempt; any 2xx is success;
 *  - 3 attempts: at once, 30 s after the first failure, 5 min after the second (mock clock, so
 *    a manual clock runs the schedule without waiting), then the delivery is dropped;
 *  - a webhook whose delivery exhausts its attempts is deactivated (`is_active: false`) and
 *    gets no further events.
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
  /** The exact raw body sent (what the signature covers). */
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
  next_attempt_at: string | null;
  created_at: string;
}

interface DeliveryJob {
  delivery: WebhookDelivery;
  secret: string;
  signature?: string;
}

export class WebhookHub {
  readonly #hooks = new Map<string, WebhookRecord>();
  /** By id, oldest first (Map order), so retention forgets from the front in O(1). */
  readonly #deliveries = new Map<string, WebhookDelivery>();
  readonly #inflight = new Set<Promise<void>>();
  readonly #abort = new AbortController();

  constructor(
    private readonly rng: Rng,
    private readonly now: () => number,
    private readonly scheduler: Scheduler,
    private readonly fetchImpl: () => typeof fetch,
    /** Whether a URL may be contacted (see MockStateOptions.webhookTargets). */
    private readonly mayDeliverTo: (url: URL) => boolean = () => true,
    /** Most deliveries kept; the oldest finished ones are forgotten first. */
    private readonly maxDeliveries: number = 10_000,
  ) {}

  create(accountId: string, url: string, events: readonly WebhookEventType[]): WebhookRecord {
    const hook: WebhookRecord = {
      id: `wh_${this.rng.hex(12)}`,
      account_id: accountId,
      url,
      events: [...new Set(events)],
      secret: this.rng.hex(32),
      is_active: true,
      created_at: this.now(),
      deleted: false,
    };
    this.#hooks.set(hook.id, hook);
    return hook;
  }

  list(accountId: string): WebhookRecord[] {
    return [...this.#hooks.values()].filter((h) => h.account_id === accountId && !h.deleted);
  }

  get(id: string): WebhookRecord | undefined {
    const hook = this.#hooks.get(id);
    return hook && !hook.deleted ? hook : undefined;
  }

  delete(accountId: string, id: string): boolean {
    const hook = this.#hooks.get(id);
    if (!hook || hook.deleted || hook.account_id !== accountId) return false;
    hook.deleted = true;
    hook.is_active = false;
    return true;
  }

  /**
   * Send `event` to every active webhook of the account subscribed to it. `data` may be a
   * function, called only when some webhook wants the event (most orders have no subscriber).
   */
  emit(accountId: string, event: WebhookEventType, payload: unknown): WebhookDelivery[] {
    const out: WebhookDelivery[] = [];
    let data: unknown;
    let built = false;
    for (const hook of this.#hooks.values()) {
      if (hook.account_id !== accountId || !hook.is_active || !hook.events.includes(event)) continue;
      if (!built) {
        data = typeof payload === 'function' ? (payload as () => unknown)() : payload;
        built = true;
      }
      const body = JSON.stringify({ event, data, timestamp: Math.floor(this.now() / 1000) });
      out.push(this.#enqueue({ url: hook.url, body, secret: hook.secret, event, webhookId: hook.id, accountId }));
    }
    return out;
  }

  /**
   * Deliver a signed body to any URL with the policy above (for other parts of the mock, e.g.
   * the x402 side). The first attempt runs on the next scheduler pass (immediately on a real
   * clock, or on the next request/advance).
   */
  deliver(url: string, body: string | object, secret: string, event?: string): WebhookDelivery {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    let name = event;
    if (!name) {
      try {
        const parsed = JSON.parse(raw) as { event?: unknown };
        name = typeof parsed.event === 'string' ? parsed.event : 'custom';
      } catch {
        name = 'custom';
      }
    }
    return this.#enqueue({ url, body: raw, secret, event: name, webhookId: null, accountId: null });
  }

  deliveries(filter: { webhook_id?: string; event?: string; account_id?: string; status?: string } = {}): WebhookDelivery[] {
    return [...this.#deliveries.values()].filter(
      (d) =>
        (!filter.webhook_id || d.webhook_id === filter.webhook_id) &&
        (!filter.event || d.event === filter.event) &&
        (!filter.account_id || d.account_id === filter.account_id) &&
        (!filter.status || d.status === filter.status),
    );
  }

  /** Resolves when no attempt is in flight (bounded: at most 100 rounds). */
  async idle(): Promise<void> {
    for (let round = 0; round < 100 && this.#inflight.size > 0; round++) {
      await Promise.allSettled([...this.#inflight]);
    }
  }

  get inflight(): number {
    return this.#inflight.size;
  }

  dispose(): void {
    this.#abort.abort(new Error('mock state disposed'));
  }

  #enqueue(input: { url: string; body: string; secret: string; event: string; webhookId: string | null; accountId: string | null }): WebhookDelivery {
    const delivery: WebhookDelivery = {
      id: `whd_${this.rng.hex(12)}`,
      webhook_id: input.webhookId,
      account_id: input.accountId,
      url: input.url,
      event: input.event,
      body: input.body,
      status: 'pending',
      attempts: [],
      next_attempt_at: new Date(this.now()).toISOString(),
      created_at: new Date(this.now()).toISOString(),
    };
    this.#deliveries.set(delivery.id, delivery);
    this.#trim();
    const job: DeliveryJob = { delivery, secret: input.secret };
    this.scheduler.schedule(this.now(), `webhook ${delivery.id}`, () => this.#attempt(job));
    return delivery;
  }

  /** Retention: forget the oldest finished deliveries; a pending one at the front moves to the back. */
  #trim(): void {
    for (let moves = 0; this.#deliveries.size > this.maxDeliveries; ) {
      const oldest = this.#deliveries.values().next().value as WebhookDelivery;
      this.#deliveries.delete(oldest.id);
      if (oldest.status === 'pending') {
        this.#deliveries.set(oldest.id, oldest);
        if (++moves >= 4) return;
      }
    }
  }

  #attempt(job: DeliveryJob): void {
    const promise = this.#run(job).finally(() => this.#inflight.delete(promise));
    this.#inflight.add(promise);
  }

  async #run(job: DeliveryJob): Promise<void> {
    const { delivery } = job;
    const hook = delivery.webhook_id ? this.#hooks.get(delivery.webhook_id) : undefined;
    if (hook && !hook.is_active) {
      delivery.status = 'failed';
      delivery.next_attempt_at = null;
      return;
    }
    const attempt: DeliveryAttempt = {
      attempt: delivery.attempts.length + 1,
      at: new Date(this.now()).toISOString(),
      status_code: null,
      error: null,
      duration_ms: 0,
    };
    delivery.attempts.push(attempt);
    delivery.next_attempt_at = null;
    const started = Date.now();
    try {
      job.signature ??= await signWebhookPayload(delivery.body, job.secret);
      if (!this.mayDeliverTo(new URL(delivery.url))) {
        throw new Error('not sent: this mock delivers webhooks only to loopback hosts (webhookTargets: "any" to allow others)');
      }
      const signal = AbortSignal.any([this.#abort.signal, AbortSignal.timeout(WEBHOOK_POLICY.timeoutMs)]);
      const response = await this.fetchImpl()(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'trx-rent-mock',
          'x-service-signature': job.signature,
          'x-webhook-event': delivery.event,
          'x-webhook-delivery': delivery.id,
        },
        body: delivery.body,
        signal,
        redirect: 'manual',
      });
      attempt.status_code = response.status;
      // Not awaited: with some fetch implementations (msw in-process) cancel() never settles,
      // and the body is of no interest anyway.
      void response.body?.cancel().catch(() => undefined);
      if (response.status < 200 || response.status >= 300) attempt.error = `HTTP ${response.status}`;
    } catch (error) {
      attempt.error = (error as Error)?.name === 'TimeoutError' ? `timed out after ${WEBHOOK_POLICY.timeoutMs} ms` : String((error as Error)?.message ?? error);
    }
    attempt.duration_ms = Date.now() - started;
    if (attempt.error === null) {
      delivery.status = 'delivered';
      return;
    }
    if (this.#abort.signal.aborted) {
      delivery.status = 'failed';
      return;
    }
    const delay = WEBHOOK_POLICY.retryDelaysMs[delivery.attempts.length - 1];
    if (delivery.attempts.length < WEBHOOK_POLICY.maxAttempts && delay !== undefined) {
      const at = this.now() + delay;
      delivery.next_attempt_at = new Date(at).toISOString();
      this.scheduler.schedule(at, `webhook retry ${delivery.id}`, () => this.#attempt(job));
      return;
    }
    delivery.status = 'failed';
    if (hook) hook.is_active = false;
  }
}
