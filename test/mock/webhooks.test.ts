/** Real webhook deliveries: signed bodies, retries on the mock clock, deactivation. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { WebhookEventBody } from '../../src/schemas/webhooks.js';
import { constructWebhookEvent, verifyWebhookSignature } from '../../src/webhooks/index.js';
import { type MockServer, WEBHOOK_POLICY } from '../../src/mock/index.js';
import { TARGET, manualServer, raw, startReceiver } from './helpers.js';

let mock: MockServer;
let sdk: TrxRent;
const order = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET } as const;
beforeEach(async () => {
  mock = await manualServer();
  sdk = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, maxRetries: 0 });
});
afterEach(async () => {
  expect(mock.state.checkInvariants().problems).toEqual([]);
  await mock.close();
});

describe('deliveries', () => {
  it('order.filled reaches a loopback receiver, signed; constructWebhookEvent accepts it', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await sdk.webhooks.create({ url: receiver.url, events: ['order.filled', 'order.failed'] });
      const o = await sdk.orders.create(order);
      await mock.state.advance(1_000);
      await receiver.waitFor(1);
      const [got] = receiver.received;
      expect(got!.headers['content-type']).toBe('application/json');
      expect(got!.headers['x-service-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      const event = await constructWebhookEvent(got!.body, got!.headers['x-service-signature'] as string, hook.secret!, { now: mock.state.now() });
      expect(event.event).toBe('order.filled');
      const body = WebhookEventBody.parse(JSON.parse(got!.body));
      expect(body.data).toMatchObject({ id: o.id, status: 'FILLED', total_fee_sun: 0 });
      expect(body.timestamp).toBe(Math.floor(mock.state.now() / 1000));
      expect(await verifyWebhookSignature(got!.body, got!.headers['x-service-signature'] as string, 'f'.repeat(64))).toBe(false);
      const [delivery] = mock.state.webhookDeliveries({ webhook_id: hook.id });
      expect(delivery).toMatchObject({ status: 'delivered', event: 'order.filled', body: got!.body });
      expect(delivery!.attempts).toHaveLength(1);
      expect(delivery!.attempts[0]).toMatchObject({ attempt: 1, status_code: 200, error: null });
    } finally {
      await receiver.close();
    }
  });

  it('order.failed, deposit.received, withdrawal.completed; only subscribed events, only the owner', async () => {
    const receiver = await startReceiver();
    const other = await startReceiver();
    try {
      const hook = await sdk.webhooks.create({ url: receiver.url, events: ['order.failed', 'deposit.received', 'withdrawal.completed'] });
      const stranger = mock.state.createAccount({ trx_sun: 1e9 });
      await raw(mock.url, 'POST', '/api/v1/webhooks', {
        key: stranger.api_key,
        body: { url: other.url, events: ['order.filled', 'order.failed', 'deposit.received'] },
      });
      await sdk.orders.create(order); // fills: not subscribed
      const failing = await sdk.orders.create({ ...order, order_type: 'LIMIT', max_price_sun: 1 });
      await raw(mock.url, 'POST', '/__mock/deposits', { body: { memo: mock.memo, amount_sun: 2_000_000 } });
      await sdk.withdrawals.create({ address: TARGET, amount: 50_000_000, currency: 'TRX' });
      await mock.state.advance(mock.state.timings.limitOrderTtlMs);
      await receiver.waitFor(3);
      const events = await Promise.all(
        receiver.received.map((r) => constructWebhookEvent(r.body, r.headers['x-service-signature'] as string, hook.secret!, { skipTimestampCheck: true })),
      );
      expect(events.map((e) => e.event).sort()).toEqual(['deposit.received', 'order.failed', 'withdrawal.completed']);
      for (const r of receiver.received) WebhookEventBody.parse(JSON.parse(r.body));
      const failed = events.find((e) => e.event === 'order.failed')!;
      expect(failed.data).toMatchObject({ id: failing.id, status: 'FAILED' });
      // Why it failed is not in the spec's Order: the mock tells through its control route.
      expect(await (await fetch(`${mock.url}/__mock/orders/${failing.id}`)).json()).toMatchObject({ failure_reason: 'EXPIRED' });
      expect(events.find((e) => e.event === 'deposit.received')!.data).toMatchObject({ amount_sun: 2_000_000, currency: 'TRX', memo: mock.memo });
      expect(events.find((e) => e.event === 'withdrawal.completed')!.data).toMatchObject({ status: 'COMPLETED', amount: 50_000_000 });
      expect(other.received).toHaveLength(0);
    } finally {
      await receiver.close();
      await other.close();
    }
  });

  it('retries at +30 s and +5 min on the mock clock, records every attempt, then deactivates', async () => {
    const receiver = await startReceiver(() => 500);
    try {
      const hook = await sdk.webhooks.create({ url: receiver.url, events: ['order.filled'] });
      await sdk.orders.create(order);
      await mock.state.advance(1_000);
      expect(receiver.received).toHaveLength(1);
      let [delivery] = mock.state.webhookDeliveries({ webhook_id: hook.id });
      expect(delivery!.status).toBe('pending');
      expect(Date.parse(delivery!.next_attempt_at!) - mock.state.now()).toBe(WEBHOOK_POLICY.retryDelaysMs[0]);
      await mock.state.advance(30_000 - 1);
      expect(receiver.received).toHaveLength(1);
      await mock.state.advance(1);
      expect(receiver.received).toHaveLength(2);
      await mock.state.advance(300_000);
      expect(receiver.received).toHaveLength(3);
      [delivery] = mock.state.webhookDeliveries({ webhook_id: hook.id });
      expect(delivery!.status).toBe('failed');
      expect(delivery!.attempts.map((a) => [a.attempt, a.status_code])).toEqual([
        [1, 500],
        [2, 500],
        [3, 500],
      ]);
      const gaps = delivery!.attempts.map((a) => Date.parse(a.at)).map((t, i, all) => (i ? t - all[i - 1]! : 0));
      expect(gaps).toEqual([0, 30_000, 300_000]);
      // every attempt carries the same event, re-stamped with its own time and signed again
      const bodies = receiver.received.map((r) => JSON.parse(r.body));
      expect(new Set(bodies.map((b) => JSON.stringify({ ...b, timestamp: 0 }))).size).toBe(1);
      expect(bodies.map((b) => b.timestamp)).toEqual(delivery!.attempts.map((a) => Math.floor(Date.parse(a.at) / 1000)));
      expect(new Set(receiver.received.map((r) => r.headers['x-service-signature'])).size).toBe(3);
      for (const r of receiver.received) {
        const at = JSON.parse(r.body).timestamp * 1000;
        await constructWebhookEvent(r.body, r.headers['x-service-signature'] as string, hook.secret!, { now: at });
      }
      expect((await sdk.webhooks.list()).find((h) => h.id === hook.id)!.is_active).toBe(false);
      // later events are not sent to the deactivated webhook, but recorded as skipped
      await sdk.orders.create(order);
      await mock.state.advance(3_600_000);
      expect(receiver.received).toHaveLength(3);
      const skipped = mock.state.webhookDeliveries({ webhook_id: hook.id, status: 'skipped' });
      expect(skipped.map((d) => d.event)).toEqual(['order.filled']);
    } finally {
      await receiver.close();
    }
  });

  it('a receiver that recovers gets the retry and stays active; an unreachable one counts as failed attempts', async () => {
    const receiver = await startReceiver((n) => (n === 1 ? 503 : 200));
    try {
      const hook = await sdk.webhooks.create({ url: receiver.url, events: ['order.filled'] });
      await sdk.orders.create(order);
      await mock.state.advance(1_000 + 30_000);
      expect(receiver.received).toHaveLength(2);
      expect(mock.state.webhookDeliveries({ webhook_id: hook.id })[0]!.status).toBe('delivered');
      expect((await sdk.webhooks.list())[0]!.is_active).toBe(true);
    } finally {
      await receiver.close();
    }
    const dead = await sdk.webhooks.create({ url: 'http://127.0.0.1:9/unreachable', events: ['order.filled'] });
    await sdk.orders.create(order);
    await mock.state.advance(1_000 + 30_000 + 300_000);
    const [delivery] = mock.state.webhookDeliveries({ webhook_id: dead.id });
    expect(delivery!.attempts).toHaveLength(3);
    expect(delivery!.attempts.every((a) => a.status_code === null && a.error)).toBe(true);
    expect((await raw(mock.url, 'GET', `/__mock/webhooks/deliveries?webhook_id=${dead.id}`)).json.deliveries[0].status).toBe('failed');
  });

  it('state.deliverWebhook signs any body with the same policy (for the x402 side)', async () => {
    const receiver = await startReceiver();
    try {
      const secret = 'ab'.repeat(32);
      const d = mock.state.deliverWebhook(receiver.url, { event: 'invoice.paid', data: { id: 'inv_1' }, timestamp: 1 }, secret);
      await mock.state.idle();
      await receiver.waitFor(1);
      const got = receiver.received[0]!;
      expect(await verifyWebhookSignature(got.body, got.headers['x-service-signature'] as string, secret)).toBe(true);
      expect(d).toMatchObject({ status: 'delivered', event: 'invoice.paid', webhook_id: null });
    } finally {
      await receiver.close();
    }
  });
});
