/**
 * The acceptance walk-through on a default server (real clock, the spec's rate limits): with
 * the printed key, raw curl and the SDK both list prices, preview, place a MARKET order, see it
 * FILLED with fills within 5 s of real time, and read the balance lowered by exactly the fills'
 * cost; a loopback receiver gets a signed order.filled that constructWebhookEvent accepts.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { Balance, Order, Preview, PriceList } from '../../src/schemas/index.js';
import { constructWebhookEvent } from '../../src/webhooks/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { TARGET, startReceiver } from './helpers.js';

const run = promisify(execFile);
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0 });
});
afterAll(() => mock.close());

async function curl(...args: string[]): Promise<{ status: number; json: any }> {
  const { stdout } = await run('curl', ['-sS', '-w', '\n%{http_code}', ...args], { timeout: 10_000 });
  const lines = stdout.trimEnd().split('\n');
  const status = Number(lines.pop());
  return { status, json: JSON.parse(lines.join('\n')) };
}

describe('default server (real clock, rate limits on)', () => {
  it('serves on loopback with a demo key, JWT and memo', () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.apiKey).toMatch(/^sk_live_[0-9a-f]{64}$/);
    expect(mock.jwt.split('.')).toHaveLength(3);
    expect(mock.memo).toBe(mock.state.demo.memo);
  });

  it('curl: prices, preview, MARKET order FILLED within 5 s, balance lowered by exactly the fills', async () => {
    const key = ['-H', `X-API-Key: ${mock.apiKey}`];
    const prices = await curl(`${mock.url}/api/v1/prices`);
    expect(prices.status).toBe(200);
    expect(PriceList.parse(prices.json)).toHaveLength(6);
    const preview = await curl(`${mock.url}/api/v1/orders/preview?resource=ENERGY&amount=65000&duration=3600`);
    expect(Preview.parse(preview.json).best).not.toBeNull();
    const before = Balance.parse((await curl(...key, `${mock.url}/api/v1/balance`)).json);
    const created = await curl(
      ...key,
      '-H',
      'Content-Type: application/json',
      '-X',
      'POST',
      `${mock.url}/api/v1/orders`,
      '-d',
      JSON.stringify({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET }),
    );
    expect([created.status, created.json.status]).toEqual([201, 'PENDING']);
    let order = created.json;
    for (let i = 0; i < 50 && order.status !== 'FILLED'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      order = Order.parse((await curl(...key, `${mock.url}/api/v1/orders/${created.json.id}`)).json);
    }
    expect(order.status).toBe('FILLED');
    expect(order.fills.length).toBeGreaterThan(0);
    const cost = order.fills.reduce((s: number, f: { cost_sun: number }) => s + f.cost_sun, 0);
    expect(order.total_cost_sun).toBe(cost);
    const after = Balance.parse((await curl(...key, `${mock.url}/api/v1/balance`)).json);
    expect(after.trx).toBe(before.trx - cost);
    expect(after.trx_locked).toBe(before.trx_locked);
  });

  it('SDK: the same walk, plus a signed order.filled to a loopback receiver', async () => {
    const receiver = await startReceiver();
    try {
      const sdk = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey });
      const hook = await sdk.webhooks.create({ url: receiver.url, events: ['order.filled'] });
      expect((await sdk.prices.list()).length).toBe(6);
      const preview = await sdk.orders.preview({ resource: 'ENERGY', amount: 130_000, duration: 3600 });
      const before = await sdk.balance.get();
      const created = await sdk.orders.create({ resource_type: 'ENERGY', amount: 130_000, duration_sec: 3600, target_address: TARGET });
      const filled = await sdk.orders.waitFor(created.id, { timeoutMs: 5_000, pollIntervalMs: 200 });
      expect(filled.fills!.every((f) => f.status === 'CONFIRMED' && /^[0-9a-f]{64}$/.test(f.tx_id))).toBe(true);
      expect(filled.fills![0]!.provider).toBe(preview.best!.provider);
      expect((await sdk.balance.get()).trx).toBe(before.trx - filled.total_cost_sun!);
      await receiver.waitFor(1, 5_000);
      const delivery = receiver.received[0]!;
      const event = await constructWebhookEvent(delivery.body, delivery.headers['x-service-signature'] as string, hook.secret!);
      expect(event.event).toBe('order.filled');
      expect((event.data as { id: string }).id).toBe(created.id);
      // verified flips to true a few seconds later
      const deadline = Date.now() + 6_000;
      let verified = false;
      while (!verified && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        verified = (await sdk.orders.get(created.id)).fills!.every((f) => f.verified);
      }
      expect(verified).toBe(true);
    } finally {
      await receiver.close();
    }
    expect(mock.state.checkInvariants().problems).toEqual([]);
  }, 20_000);
});
