import type { WebhookEventType } from '../../schemas/webhooks.js';
import type { Rng } from './rng.js';
import type { Scheduler } from '../shared/scheduler.js';
import { Fifo } from '../shared/fifo.js';
import { type AttemptOptions, sendAttempt } from './webhook-attempt.js';
import { RedeliverError, WEBHOOK_POLICY, type WebhookDelivery, type WebhookHubSnapshot, type WebhookRecord } from './webhook-records.js';

/** What {@link WebhookHub} needs from its state. */
export interface WebhookHubOptions {
  rng: Rng;
  now: () => number;
  scheduler: Scheduler;
  fetch: () => typeof fetch;
  /** Whether a URL may be contacted (see MockStateOptions.webhookTargets). */
  mayDeliverTo?: (url: URL) => boolean;
  /** Most deliveries kept; the oldest finished ones are forgotten first. @default 10 000 */
  maxDeliveries?: number;
  /** Per-attempt timeout in real ms. @default WEBHOOK_POLICY.timeoutMs (10 s) */
  timeoutMs?: number;
}

interface Job {
  delivery: WebhookDelivery;
  secret: string;
  /** The parsed body, re-stamped per attempt; null when the body is not a JSON object with a timestamp. */
  payload: Record<string, unknown> | null;
}

/**
 * Webhook subscriptions and real deliveries, with the policy of `webhook-records.ts`
 * (WEBHOOK_POLICY): per endpoint a queue that keeps event order, retries on the mock clock,
 * deactivation after a delivery exhausts its attempts, and retention of old deliveries. Each
 * HTTP attempt is `webhook-attempt.ts`'s.
 */
export class WebhookHub {
  readonly #hooks = new Map<string, WebhookRecord>();
  /** By id, oldest first (Map order), so retention forgets from the front in O(1). */
  readonly #deliveries = new Map<string, WebhookDelivery>();
  /** Deliveries oldest first, for retention (a pending one seen at the front is pushed back). */
  readonly #age = new Fifo<WebhookDelivery>();
  /** Per endpoint (webhook id, or URL for direct deliveries): jobs in event order; the head is the one being tried. */
  readonly #queues = new Map<string, Job[]>();
  readonly #inflight = new Set<Promise<void>>();
  readonly #abort = new AbortController();
  readonly #o: Required<WebhookHubOptions>;
  /** What each attempt is made with (`sendAttempt`). */
  readonly #via: AttemptOptions;

  constructor(options: WebhookHubOptions) {
    this.#o = { mayDeliverTo: () => true, maxDeliveries: 10_000, timeoutMs: WEBHOOK_POLICY.timeoutMs, ...options };
    const { now, fetch, mayDeliverTo, timeoutMs } = this.#o;
    this.#via = { now, fetch, mayDeliverTo, timeoutMs, disposed: this.#abort.signal };
  }

  get timeoutMs(): number {
    return this.#o.timeoutMs;
  }

  create(accountId: string, url: string, events: readonly WebhookEventType[]): WebhookRecord {
    const hook: WebhookRecord = {
      id: `wh_${this.#o.rng.hex(12)}`,
      account_id: accountId,
      url,
      events: [...new Set(events)],
      secret: this.#o.rng.hex(32),
      is_active: true,
      created_at: this.#o.now(),
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

  /** Turn a deactivated webhook back on (events from now on are delivered again). */
  reactivate(id: string): WebhookRecord | undefined {
    const hook = this.get(id);
    if (hook) hook.is_active = true;
    return hook;
  }

  /**
   * Send `event` to every webhook of the account subscribed to it; for an inactive one the event
   * is recorded as a skipped delivery. `payload` may be a function, called only when some webhook
   * wants the event (most orders have no subscriber).
   */
  emit(accountId: string, event: WebhookEventType, payload: unknown): WebhookDelivery[] {
    const out: WebhookDelivery[] = [];
    let data: unknown;
    let built = false;
    for (const hook of this.#hooks.values()) {
      if (hook.account_id !== accountId || hook.deleted || !hook.events.includes(event)) continue;
      if (!built) {
        data = typeof payload === 'function' ? (payload as () => unknown)() : payload;
        built = true;
      }
      const body = { event, data, timestamp: this.#stamp() };
      out.push(this.#enqueue({ url: hook.url, body: JSON.stringify(body), payload: body, secret: hook.secret, event, webhookId: hook.id, accountId }));
    }
    return out;
  }

  /**
   * Deliver a signed body to any URL with the policy above (for other parts of the mock, e.g.
   * the x402 side). The first attempt runs on the next scheduler pass (immediately on a real
   * clock, or on the next request/advance). A JSON object body with a numeric `timestamp` is
   * re-stamped per attempt like the account events; any other body is sent as given.
   */
  deliver(url: string, body: string | object, secret: string, event?: string): WebhookDelivery {
    const raw = typeof body === 'string' ? body : JSON.stringify(body);
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      parsed = undefined;
    }
    const object = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
    const name = event ?? (typeof object?.event === 'string' ? object.event : 'custom');
    const payload = object && typeof object.timestamp === 'number' ? object : null;
    return this.#enqueue({ url, body: raw, payload, secret, event: name, webhookId: null, accountId: null });
  }

  /**
   * Send a past delivery's event again, as a new delivery to the same endpoint (its current URL
   * and secret), re-stamped. Undefined when the delivery is unknown; throws when its webhook is
   * deleted or inactive (reactivate it first) or it was a direct delivery.
   */
  redeliver(deliveryId: string): WebhookDelivery | undefined {
    const past = this.#deliveries.get(deliveryId);
    if (!past) return undefined;
    const hook = past.webhook_id ? this.get(past.webhook_id) : undefined;
    if (!hook) throw new RedeliverError(past.webhook_id ? 'the webhook was deleted' : 'only deliveries of a registered webhook can be redelivered');
    if (!hook.is_active) throw new RedeliverError(`webhook ${hook.id} is inactive: reactivate it first`);
    let payload: Record<string, unknown> | null = null;
    try {
      const parsed = JSON.parse(past.body) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) payload = parsed as Record<string, unknown>;
    } catch {
      payload = null;
    }
    if (payload) payload.timestamp = this.#stamp();
    const body = payload ? JSON.stringify(payload) : past.body;
    return this.#enqueue({
      url: hook.url,
      body,
      payload,
      secret: hook.secret,
      event: past.event,
      webhookId: hook.id,
      accountId: hook.account_id,
      redeliveryOf: past.id,
    });
  }

  /** One delivery by id. */
  delivery(id: string): WebhookDelivery | undefined {
    return this.#deliveries.get(id);
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

  /** Everything the hub holds, as plain data (pending deliveries are resumed by {@link restore}). */
  snapshot(): WebhookHubSnapshot {
    const secrets: Record<string, string> = {};
    for (const queue of this.#queues.values()) for (const job of queue) if (!job.delivery.webhook_id) secrets[job.delivery.id] = job.secret;
    return { hooks: [...this.#hooks.values()], deliveries: [...this.#deliveries.values()], secrets };
  }

  /** Load a {@link snapshot}: hooks, deliveries, and the pending ones queued again in order. */
  restore(snap: WebhookHubSnapshot): void {
    this.#hooks.clear();
    this.#deliveries.clear();
    this.#queues.clear();
    for (const hook of snap.hooks) this.#hooks.set(hook.id, hook);
    this.#age.clear();
    for (const delivery of snap.deliveries) {
      this.#deliveries.set(delivery.id, delivery);
      this.#age.push(delivery);
      if (delivery.status !== 'pending') continue;
      const hook = delivery.webhook_id ? this.#hooks.get(delivery.webhook_id) : undefined;
      const secret = hook?.secret ?? snap.secrets[delivery.id];
      if (secret === undefined) {
        this.#finish(delivery, 'skipped', 'its secret was not saved');
        continue;
      }
      let payload: Record<string, unknown> | null = null;
      try {
        const parsed = JSON.parse(delivery.body) as Record<string, unknown>;
        if (parsed && typeof parsed === 'object' && typeof parsed.timestamp === 'number') payload = parsed;
      } catch {
        payload = null;
      }
      const job: Job = { delivery, secret, payload };
      const key = queueKey(delivery);
      const queue = this.#queues.get(key) ?? [];
      queue.push(job);
      this.#queues.set(key, queue);
      if (queue.length === 1) {
        const at = delivery.next_attempt_at ? Date.parse(delivery.next_attempt_at) : this.#o.now();
        this.#o.scheduler.schedule(at, `webhook ${delivery.id}`, () => this.#attempt(job));
      }
    }
  }

  #stamp(): number {
    return Math.floor(this.#o.now() / 1000);
  }

  #enqueue(input: {
    url: string;
    body: string;
    payload: Record<string, unknown> | null;
    secret: string;
    event: string;
    webhookId: string | null;
    accountId: string | null;
    redeliveryOf?: string;
  }): WebhookDelivery {
    const now = this.#o.now();
    const delivery: WebhookDelivery = {
      id: `whd_${this.#o.rng.hex(12)}`,
      webhook_id: input.webhookId,
      account_id: input.accountId,
      url: input.url,
      event: input.event,
      body: input.body,
      status: 'pending',
      attempts: [],
      next_attempt_at: new Date(now).toISOString(),
      created_at: new Date(now).toISOString(),
      skipped_reason: null,
      redelivery_of: input.redeliveryOf ?? null,
    };
    this.#deliveries.set(delivery.id, delivery);
    this.#age.push(delivery);
    this.#trim();
    const hook = input.webhookId ? this.#hooks.get(input.webhookId) : undefined;
    if (hook && !hook.is_active) {
      this.#finish(delivery, 'skipped', 'the webhook is inactive (deactivated after a delivery exhausted its attempts)');
      return delivery;
    }
    const job: Job = { delivery, secret: input.secret, payload: input.payload };
    const key = queueKey(delivery);
    const queue = this.#queues.get(key);
    if (queue) {
      // Behind an earlier event to the same endpoint: it starts when that one is settled.
      queue.push(job);
      delivery.next_attempt_at = null;
      return delivery;
    }
    this.#queues.set(key, [job]);
    this.#o.scheduler.schedule(now, `webhook ${delivery.id}`, () => this.#attempt(job));
    return delivery;
  }

  /** Retention: forget the oldest finished deliveries; a pending one at the front moves to the back. */
  #trim(): void {
    for (let moves = 0; this.#deliveries.size > this.#o.maxDeliveries; ) {
      const oldest = this.#age.shift();
      if (!oldest) return;
      if (oldest.status === 'pending') {
        this.#age.push(oldest);
        if (++moves >= 4) return;
        continue;
      }
      this.#deliveries.delete(oldest.id);
    }
  }

  #attempt(job: Job): void {
    const promise = this.#run(job).finally(() => this.#inflight.delete(promise));
    this.#inflight.add(promise);
  }

  async #run(job: Job): Promise<void> {
    const { delivery } = job;
    const hook = delivery.webhook_id ? this.#hooks.get(delivery.webhook_id) : undefined;
    if (hook && (!hook.is_active || hook.deleted)) {
      this.#finish(delivery, 'skipped', hook.deleted ? 'the webhook was deleted' : 'the webhook is inactive');
      this.#next(delivery);
      return;
    }
    if (job.payload) {
      // Re-stamped and re-signed per attempt (see WEBHOOK_POLICY).
      job.payload.timestamp = this.#stamp();
      delivery.body = JSON.stringify(job.payload);
    }
    const attempt = await sendAttempt(delivery, job.secret, this.#via);
    if (attempt.error === null) {
      this.#finish(delivery, 'delivered');
      this.#next(delivery);
      return;
    }
    if (this.#abort.signal.aborted) {
      this.#finish(delivery, 'failed');
      return;
    }
    const delay = WEBHOOK_POLICY.retryDelaysMs[delivery.attempts.length - 1];
    if (delivery.attempts.length < WEBHOOK_POLICY.maxAttempts && delay !== undefined) {
      const at = this.#o.now() + delay;
      delivery.next_attempt_at = new Date(at).toISOString();
      this.#o.scheduler.schedule(at, `webhook retry ${delivery.id}`, () => this.#attempt(job));
      return;
    }
    this.#finish(delivery, 'failed');
    if (hook) hook.is_active = false;
    this.#next(delivery);
  }

  #finish(delivery: WebhookDelivery, status: 'delivered' | 'failed' | 'skipped', reason?: string): void {
    delivery.status = status;
    delivery.next_attempt_at = null;
    if (status === 'skipped') delivery.skipped_reason = reason ?? 'not sent';
  }

  /** The endpoint's head delivery is settled: start the next one (it may be skipped at once). */
  #next(settled: WebhookDelivery): void {
    const key = queueKey(settled);
    const queue = this.#queues.get(key);
    if (!queue) return;
    if (queue[0]?.delivery === settled) queue.shift();
    const head = queue[0];
    if (!head) {
      this.#queues.delete(key);
      return;
    }
    const now = this.#o.now();
    head.delivery.next_attempt_at = new Date(now).toISOString();
    this.#o.scheduler.schedule(now, `webhook ${head.delivery.id}`, () => this.#attempt(head));
  }
}

function queueKey(delivery: WebhookDelivery): string {
  return delivery.webhook_id ?? `url ${delivery.url}`;
}
