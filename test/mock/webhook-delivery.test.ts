/**
 * Webhook delivery over time: a per-attempt timeout that always fires, retries re-stamped so a
 * receiver with the SDK's default freshness window verifies the last one, per-endpoint order,
 * skipped events recorded, reactivation and redelivery (state methods and /__mock routes).
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { constructWebhookEvent } from '../../src/webhooks/index.js';
import { type MockServer, WEBHOOK_POLICY, createManualClock } from '../../src/mock/index.js';
import { T0, manualServer, raw, startReceiver } from './helpers.js';

let mock: MockServer | undefined;
afterEach(async () => {
  expect(mock?.state.checkInvariants().problems ?? []).toEqual([]);
  await mock?.close();
  mock = undefined;
});

/** A receiver that reads requests and never answers. */
async function silentReceiver() {
  const held: ServerResponse[] = [];
  let count = 0;
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    count++;
    held.push(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    get count() {
      return count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function hookFor(m: MockServer, url: string, events = ['order.filled', 'order.failed', 'deposit.received', 'withdrawal.completed']) {
  const res = await raw(m.url, 'POST', '/api/v1/webhooks', { key: m.apiKey, body: { url, events } });
  expect(res.status).toBe(201);
  return res.json as { id: string; secret: string };
}

describe('a receiver that never answers', () => {
  it('each attempt times out (short timeout option); clock/advance returns; 3 attempts, then failed', async () => {
    mock = await manualServer({ webhookTimeoutMs: 300 });
    const receiver = await silentReceiver();
    try {
      const hook = await hookFor(mock, receiver.url);
      mock.state.triggerWebhook('order.filled');
      const first = await raw(mock.url, 'POST', '/__mock/clock/advance', { body: { ms: 1_000 } });
      expect(first.status).toBe(200);
      let [delivery] = mock.state.webhookDeliveries({ webhook_id: hook.id });
      expect(delivery!.attempts).toHaveLength(1);
      expect(delivery!.attempts[0]).toMatchObject({ status_code: null, error: 'timed out after 300 ms' });
      expect(delivery!.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(250);
      expect(delivery!.status).toBe('pending');
      expect((await raw(mock.url, 'POST', '/__mock/clock/advance', { body: { ms: 30_000 + 300_000 } })).status).toBe(200);
      [delivery] = mock.state.webhookDeliveries({ webhook_id: hook.id });
      expect(delivery!.status).toBe('failed');
      expect(delivery!.attempts.map((a) => a.error)).toEqual(Array(3).fill('timed out after 300 ms'));
      expect(receiver.count).toBe(3);
      expect(mock.state.webhooks.inflight).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it("the default timeout is the production notes' 10 s", () => {
    expect(WEBHOOK_POLICY.timeoutMs).toBe(10_000);
  });
});

describe('retries a receiver can verify', () => {
  it('the third attempt (+330 s) verifies with constructWebhookEvent defaults: each attempt is re-stamped and re-signed', async () => {
    // The mock clock runs 330.5 s behind the wall clock, so the third attempt happens at "now":
    // production timing, checked by a receiver that uses the SDK's defaults (real time, 300 s).
    mock = await manualServer({ clock: createManualClock(Date.now() - 330_500) });
    const verdicts: string[] = [];
    const bodies: string[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        bodies.push(body);
        try {
          await constructWebhookEvent(body, req.headers['x-service-signature'] as string, secret);
          verdicts.push('ok');
          res.writeHead(200).end();
        } catch (error) {
          verdicts.push(String((error as { reason?: string }).reason));
          res.writeHead(400).end();
        }
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    let secret = '';
    try {
      const hook = await hookFor(mock, `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`);
      secret = hook.secret;
      mock.state.triggerWebhook('deposit.received');
      await mock.state.advance(0);
      await mock.state.advance(30_000);
      await mock.state.advance(300_000);
      // Attempts 1 and 2 are stale by the wall clock (330 s and 300 s old); the third is fresh.
      expect(verdicts).toEqual(['too_old', 'too_old', 'ok']);
      const stamps = bodies.map((b) => JSON.parse(b).timestamp as number);
      expect(stamps[1]! - stamps[0]!).toBe(30);
      expect(stamps[2]! - stamps[1]!).toBe(300);
      const [delivery] = mock.state.webhookDeliveries({ webhook_id: hook.id });
      expect(delivery).toMatchObject({ status: 'delivered', body: bodies[2] });
      expect(delivery!.attempts.map((a) => a.status_code)).toEqual([400, 400, 200]);
    } finally {
      receiver.closeAllConnections();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    }
  });
});

describe('nothing dropped without a trace', () => {
  it("a later event to the same endpoint waits for the earlier one's retry (event order kept)", async () => {
    mock = await manualServer({ clock: createManualClock(T0) });
    const receiver = await startReceiver((n) => (n === 1 ? 503 : 200));
    try {
      const hook = await hookFor(mock, receiver.url);
      const [a] = mock.state.triggerWebhook('order.failed');
      const [b] = mock.state.triggerWebhook('deposit.received');
      await mock.state.advance(1_000);
      expect(receiver.received.map((r) => JSON.parse(r.body).event)).toEqual(['order.failed']);
      expect(mock.state.webhooks.delivery(b!.id)).toMatchObject({ status: 'pending', attempts: [] });
      await mock.state.advance(30_000);
      expect(receiver.received.map((r) => JSON.parse(r.body).event)).toEqual(['order.failed', 'order.failed', 'deposit.received']);
      expect(mock.state.webhooks.delivery(a!.id)!.status).toBe('delivered');
      expect(mock.state.webhooks.delivery(b!.id)!.status).toBe('delivered');
      expect(mock.state.webhookDeliveries({ webhook_id: hook.id })).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  it('deactivated: queued and later events are recorded as skipped; reactivate and redeliver over /__mock routes', async () => {
    mock = await manualServer({ clock: createManualClock(T0) });
    let healthy = false;
    const receiver = await startReceiver(() => (healthy ? 200 : 500));
    try {
      const hook = await hookFor(mock, receiver.url);
      const [first] = mock.state.triggerWebhook('order.filled');
      const [queued] = mock.state.triggerWebhook('withdrawal.completed');
      await mock.state.advance(1_000 + 30_000 + 300_000);
      expect(mock.state.webhooks.delivery(first!.id)!.status).toBe('failed');
      expect((await raw(mock.url, 'GET', '/api/v1/webhooks', { key: mock.apiKey })).json[0].is_active).toBe(false);
      expect(mock.state.webhooks.delivery(queued!.id)).toMatchObject({ status: 'skipped', attempts: [] });
      // An event after deactivation: recorded, not sent.
      const later = (await raw(mock.url, 'POST', '/__mock/webhooks/trigger', { body: { event: 'deposit.received' } })).json;
      expect(later.deliveries).toHaveLength(1);
      expect(later.deliveries[0]).toMatchObject({ status: 'skipped', webhook_id: hook.id });
      expect(later.deliveries[0].skipped_reason).toMatch(/inactive/);
      const skipped = (await raw(mock.url, 'GET', `/__mock/webhooks/deliveries?webhook_id=${hook.id}&status=skipped`)).json.deliveries;
      expect(skipped.map((d: { event: string }) => d.event).sort()).toEqual(['deposit.received', 'withdrawal.completed']);
      const sentSoFar = receiver.received.length;
      expect(sentSoFar).toBe(3);
      // Redelivery of an inactive webhook's event is refused with a reason.
      const refused = await raw(mock.url, 'POST', `/__mock/webhooks/deliveries/${queued!.id}/redeliver`);
      expect(refused.status).toBe(409);
      expect(refused.json.error.message).toMatch(/inactive: reactivate it first/);
      // Reactivate, then redeliver the skipped one and the failed one.
      healthy = true;
      const re = await raw(mock.url, 'POST', `/__mock/webhooks/${hook.id}/reactivate`);
      expect(re.status).toBe(200);
      expect(re.json.webhook).toMatchObject({ id: hook.id, is_active: true });
      const again = await raw(mock.url, 'POST', `/__mock/webhooks/deliveries/${queued!.id}/redeliver`);
      expect(again.status).toBe(201);
      expect(again.json.delivery).toMatchObject({ redelivery_of: queued!.id, event: 'withdrawal.completed', webhook_id: hook.id });
      await mock.state.advance(0);
      await receiver.waitFor(sentSoFar + 1);
      const got = receiver.received.at(-1)!;
      const event = await constructWebhookEvent(got.body, got.headers['x-service-signature'] as string, hook.secret, { now: mock.state.now() });
      expect(event.event).toBe('withdrawal.completed');
      expect(event.data).toEqual(JSON.parse(queued!.body).data);
      expect(mock.state.webhooks.delivery(again.json.delivery.id)!.status).toBe('delivered');
      // Unknown ids: 404 envelopes.
      expect((await raw(mock.url, 'POST', '/__mock/webhooks/wh_nope/reactivate')).status).toBe(404);
      expect((await raw(mock.url, 'POST', '/__mock/webhooks/deliveries/whd_nope/redeliver')).status).toBe(404);
      // New events flow again.
      mock.state.triggerWebhook('order.filled');
      await mock.state.advance(0);
      await receiver.waitFor(sentSoFar + 2);
    } finally {
      await receiver.close();
    }
  });
});
