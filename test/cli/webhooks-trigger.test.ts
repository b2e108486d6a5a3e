/**
 * `webhooks trigger` with `webhooks listen --register --forward-to`: the listener prints the
 * signing secret once, the app behind it verifies what it receives with that secret and the SDK's
 * defaults; `webhooks deliveries`, `reactivate` and `redeliver` drive the mock's deliveries.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type WebhookEvent, constructWebhookEvent } from '../../src/webhooks/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { errorLine, json, runCliInProcess, startCliInProcess } from './run.js';

let mock: MockServer;
let app: Server;
let appUrl: string;
let secret = '';
const verified: WebhookEvent[] = [];
const rejected: string[] = [];
let waiter: (() => void) | undefined;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 8 });
  // The user's app: verifies with the secret `listen --register` printed, SDK defaults (300 s, real time).
  app = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        verified.push(await constructWebhookEvent(Buffer.concat(chunks).toString('utf8'), req.headers['x-service-signature'] as string, secret));
        res.writeHead(200).end();
      } catch (error) {
        rejected.push(String((error as { reason?: string }).reason));
        res.writeHead(400).end();
      }
      waiter?.();
    });
  });
  await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
  appUrl = `http://127.0.0.1:${(app.address() as AddressInfo).port}/webhooks`;
});
afterAll(async () => {
  await mock.close();
  await new Promise((r) => app.close(r));
});

function arrivals(n: number, ms = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${verified.length} verified, ${rejected.length} rejected; wanted ${n}`)), ms);
    const check = () => {
      if (verified.length + rejected.length >= n) {
        clearTimeout(timer);
        waiter = undefined;
        resolve();
      }
    };
    waiter = check;
    check();
  });
}

describe('webhooks trigger + listen --register --forward-to', { timeout: 60_000 }, () => {
  it('prints the secret once; triggered events arrive verified at the app; reactivate and redeliver', async () => {
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
    const listener = await startCliInProcess(
      ['webhooks', 'listen', '--register', '--port', '0', '--forward-to', appUrl, '--no-json'],
      /Your webhook signing secret is ([0-9a-f]{64}) \(\^C to quit\)[\s\S]*Ready!.*registered as webhook (wh_\w+)/,
      { env },
    );
    try {
      secret = listener.match[1]!;
      const hookId = listener.match[2]!;
      expect(listener.output().stderr.split(secret)).toHaveLength(2); // printed exactly once

      const trigger = await runCliInProcess(['webhooks', 'trigger', 'order.filled', '--json'], { env });
      expect(trigger.code, trigger.stderr).toBe(0);
      expect(json(trigger).deliveries).toHaveLength(1);
      await arrivals(1);
      expect(rejected).toEqual([]);
      expect(verified[0]).toMatchObject({ event: 'order.filled', data: { status: 'FILLED', fills: [{ status: 'CONFIRMED' }] } });
      await new Promise((r) => setTimeout(r, 200));
      expect(listener.output().stdout).toMatch(/✓ order\.filled \S+ → 200 /);

      const human = await runCliInProcess(
        ['webhooks', 'trigger', 'deposit.received', '--data', '{"tx_id":"t1","amount_sun":5,"currency":"TRX","memo":"RENT-00000000"}', '--no-json'],
        { env },
      );
      expect(human.code, human.stderr).toBe(0);
      expect(human.stdout).toMatch(/✓ sent deposit\.received to http:\/\/127\.0\.0\.1:\d+\/webhooks/);
      await arrivals(2);
      expect(verified[1]).toMatchObject({ event: 'deposit.received', data: { tx_id: 't1', amount_sun: 5 } });

      // A deactivated endpoint: the trigger is recorded as skipped; reactivate; redeliver it.
      mock.state.webhooks.get(hookId)!.is_active = false;
      const skipped = await runCliInProcess(['webhooks', 'trigger', 'withdrawal.completed', '--json'], { env });
      const [delivery] = json(skipped).deliveries;
      expect(delivery).toMatchObject({ status: 'skipped', webhook_id: hookId });
      const listed = await runCliInProcess(['webhooks', 'deliveries', '--status', 'skipped', '--json'], { env });
      expect(json(listed).map((d: { id: string }) => d.id)).toEqual([delivery.id]);
      const refused = await runCliInProcess(['webhooks', 'redeliver', delivery.id, '--json'], { env });
      expect(refused.code).not.toBe(0);
      expect(errorLine(refused).message).toMatch(/inactive: reactivate it first/);
      const re = await runCliInProcess(['webhooks', 'reactivate', hookId, '--json'], { env });
      expect(re.code, re.stderr).toBe(0);
      expect(json(re)).toMatchObject({ id: hookId, is_active: true });
      const again = await runCliInProcess(['webhooks', 'redeliver', delivery.id, '--no-json'], { env });
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toMatch(/Redelivering withdrawal\.completed to /);
      await arrivals(3);
      expect(verified[2]).toMatchObject({ event: 'withdrawal.completed', data: { status: 'COMPLETED' } });
      expect(rejected).toEqual([]);
    } finally {
      expect((await listener.stop()).code).toBe(0);
    }
  });

  it('bad input is a usage error; a server without the control routes is explained', async () => {
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
    const bad = await runCliInProcess(['webhooks', 'trigger', 'order.exploded', '--json'], { env });
    expect(bad.code).toBe(2);
    const badData = await runCliInProcess(['webhooks', 'trigger', 'order.filled', '--data', '[1]', '--json'], { env });
    expect(badData.code).toBe(2);
    const live = createServer((_req, res) => {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'No route POST /__mock/webhooks/trigger' } }));
    });
    await new Promise<void>((r) => live.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(live.address() as AddressInfo).port}`;
      const r = await runCliInProcess(['webhooks', 'trigger', 'order.filled', '--json'], { env: { TRX_RENT_BASE_URL: url, TRX_RENT_API_KEY: mock.apiKey } });
      expect(r.code).toBe(2);
      expect(errorLine(r)).toMatchObject({ code: 'NOT_AVAILABLE' });
      expect(errorLine(r).message).toBe(`${url} has no /__mock/webhooks/trigger: this command drives the mock server`);
    } finally {
      await new Promise((r) => live.close(r));
    }
  });
});
