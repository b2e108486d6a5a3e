import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  ForbiddenError,
  InsufficientBalanceError,
  NotFoundError,
  OrderFailedError,
  TimeoutError,
  TrxRent,
  UnauthorizedError,
  trxToSun,
} from '../../src/index.js';
import { createMockState, type MockState } from '../../src/mock/index.js';
import { createHandlers } from '../../src/mock/msw.js';
import { buildTrxTransfer, privateKeyToTronAddress, signTransaction } from '../../src/protocol/tron-transaction.js';
import { constructWebhookEvent } from '../../src/webhooks/index.js';

/**
 * Every SDK resource method against the in-process mock (msw intercepts fetch; nothing leaves
 * the process). Each test gets a fresh account on one shared state so they cannot interfere.
 */
const BASE = 'http://127.0.0.1:9'; // never reached: msw answers in-process
const TARGET = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
const ENERGY = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET } as const;

// A real clock with short steps, so waitFor sees orders move on their own.
const state: MockState = createMockState({
  seed: 11,
  timings: { selectMs: 20, fillMs: 40, verifyMs: 100, depositCreditMs: 50, withdrawalMs: 50 },
});
const server = setupServer(...createHandlers(state, { rateLimits: false }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  for (const provider of state.market.snapshot().providers.map((p) => p.def.id)) state.setProviderOverride(provider, null);
});
afterAll(() => {
  server.close();
  state.dispose();
});

function account(trx = '1000') {
  const created = state.createAccount({ trx_sun: trxToSun(trx) });
  const client = new TrxRent({ baseUrl: BASE, apiKey: created.api_key, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
  return { ...created, client };
}

describe('prices', () => {
  it('list, best, history and stats come from one market', async () => {
    const { client } = account();
    const prices = await client.prices.list();
    expect(prices.length).toBe(6);
    for (const p of prices) {
      expect(p.energy_prices.length).toBeGreaterThan(0);
      expect(typeof p.is_market).toBe('boolean');
    }
    const best = await client.prices.best({ resource: 'ENERGY', amount: 65_000 });
    const online = prices.filter((p) => p.energy_prices.length && Number(p.available_energy) >= 65_000);
    const cheapest = Math.min(...online.flatMap((p) => p.energy_prices.map((t) => Number(t.price_sun))));
    expect(best.resource_type).toBe('ENERGY');
    expect(Number(best.price_sun)).toBeGreaterThanOrEqual(cheapest);
    const history = await client.prices.history({ resource: 'ENERGY', period: '1h' });
    expect(history.length).toBeGreaterThan(0);
    expect(history.every((h) => h.resource_type === 'ENERGY')).toBe(true);
    const stats = await client.prices.stats();
    expect(Number(stats.total_providers)).toBeGreaterThan(0);
    expect(Number(stats.best_price_sun)).toBeLessThanOrEqual(Number(stats.avg_price_sun));
  });

  it('prices are public: no credentials needed', async () => {
    const saved = process.env.TRX_RENT_API_KEY;
    delete process.env.TRX_RENT_API_KEY;
    try {
      await expect(new TrxRent({ baseUrl: BASE }).prices.list()).resolves.toHaveLength(6);
    } finally {
      if (saved !== undefined) process.env.TRX_RENT_API_KEY = saved;
    }
  });
});

describe('orders', () => {
  it('preview matches the order that gets placed, and the balance drops by exactly the fills', async () => {
    const { client } = account();
    const before = await client.balance.get();
    const preview = await client.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 });
    expect(preview.no_providers).toBe(false);
    expect(preview.best).not.toBeNull();
    const sorted = preview.fallbacks.map((f) => Number(f.price_sun));
    expect(sorted).toEqual([...sorted].sort((a, b) => a - b));

    const created = await client.orders.create(ENERGY);
    expect(created.status).toBe('PENDING');
    expect(created.order_type).toBe('MARKET');
    const filled = await client.orders.waitFor(created.id, { pollIntervalMs: 20, timeoutMs: 5000 });
    expect(filled.status).toBe('FILLED');
    expect(filled.total_fee_sun).toBe(0);
    expect(filled.fills!.length).toBeGreaterThan(0);
    const cost = filled.fills!.reduce((sum, f) => sum + Number(f.cost_sun), 0);
    expect(filled.total_cost_sun).toBe(cost);
    for (const fill of filled.fills!) {
      expect(fill.tx_id).toMatch(/^[0-9a-f]{64}$/);
      expect(fill.tronscan_url).toContain(fill.tx_id);
    }
    expect(filled.fills![0]!.provider).toBe(preview.best!.provider);
    const after = await client.balance.get();
    expect(Number(before.trx) - Number(after.trx)).toBe(cost);
    expect(after.trx_locked).toBe(0);

    const again = await client.orders.get(created.id);
    expect(again.id).toBe(created.id);
  });

  it('waitFor rejects with OrderFailedError carrying the order when delegations fail', async () => {
    const { client } = account();
    for (const p of state.market.snapshot().providers) state.setProviderOverride(p.def.id, { fail_delegations: true });
    const created = await client.orders.create(ENERGY);
    const err = await client.orders.waitFor(created.id, { pollIntervalMs: 20, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OrderFailedError);
    expect((err as OrderFailedError).order).toMatchObject({ id: created.id, status: 'FAILED' });
    const balance = await client.balance.get();
    expect(balance.trx).toBe(trxToSun('1000')); // released, nothing spent
    expect(balance.trx_locked).toBe(0);
  });

  it('waitFor gives TimeoutError at the deadline (a LIMIT order waiting for its price)', async () => {
    const { client } = account();
    const created = await client.orders.create({ ...ENERGY, order_type: 'LIMIT', max_price_sun: 1 });
    const started = Date.now();
    const err = await client.orders.waitFor(created.id, { pollIntervalMs: 20, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Date.now() - started).toBeLessThan(3000);
    const locked = await client.balance.get();
    expect(Number(locked.trx_locked)).toBeGreaterThan(0); // the LIMIT order holds its funds while it waits
  });

  it('waitFor reports where the order stands at the deadline, even when polls are slow', async () => {
    // Every poll takes 40 ms; the last one starts with ~0 ms of the wait left. It must still be
    // allowed to answer (the deadline's error names the status), not be cut to a 1 ms timeout.
    const order = {
      id: 'ord_slow',
      status: 'PENDING',
      resource_type: 'ENERGY',
      order_type: 'LIMIT',
      amount: 65_000,
      duration_sec: 3600,
      target_address: ENERGY.target_address,
      created_at: '2026-11-24T00:00:00Z',
      fills: [],
    };
    const slow = new TrxRent({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: `sk_live_${'0'.repeat(64)}`,
      maxRetries: 0,
      fetch: () => new Promise<Response>((resolve) => setTimeout(() => resolve(Response.json(order)), 40)),
    });
    const err = await slow.orders.waitFor('ord_slow', { pollIntervalMs: 50, timeoutMs: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toMatch(/^Order ord_slow still PENDING after 200 ms/);
  });

  it('list: one page with total, and for await over several pages', async () => {
    const { client } = account('5000');
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) ids.push((await client.orders.create(ENERGY)).id);
    const page = await client.orders.list({ limit: 10 });
    expect(page.orders).toHaveLength(10);
    expect(page.total).toBe(23);
    const seen: string[] = [];
    for await (const order of client.orders.list({ limit: 10 })) seen.push(order.id);
    expect(seen).toHaveLength(23);
    expect(new Set(seen)).toEqual(new Set(ids));
    const fromOffset: string[] = [];
    for await (const order of client.orders.list({ limit: 7, offset: 20 })) fromOffset.push(order.id);
    expect(fromOffset).toHaveLength(3);
    const pending = await client.orders.list({ status: 'FAILED' });
    expect(pending.total).toBe(0);
  });

  it('an order beyond the balance is InsufficientBalanceError and changes nothing', async () => {
    const { client } = account('0.5');
    await expect(client.orders.create(ENERGY)).rejects.toBeInstanceOf(InsufficientBalanceError);
    expect((await client.orders.list()).total).toBe(0);
  });

  it('unknown order id is NotFoundError', async () => {
    const { client } = account();
    await expect(client.orders.get('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('an idempotent replay returns the original order, status 200, and creates nothing', async () => {
    const { client } = account();
    const first = await client.orders.create(ENERGY, { idempotencyKey: 'replay-1' }).withResponse();
    const replay = await client.orders.create(ENERGY, { idempotencyKey: 'replay-1' }).withResponse();
    expect(first.response.status).toBe(201);
    expect(replay.response.status).toBe(200);
    expect(replay.data.id).toBe(first.data.id);
    expect((await client.orders.list()).total).toBe(1);
  });
});

describe('account', () => {
  it('history and summary follow the fills', async () => {
    const { client } = account();
    const order = await client.orders.create(ENERGY);
    const filled = await client.orders.waitFor(order.id, { pollIntervalMs: 20, timeoutMs: 5000 });
    const history = await client.history.list({ period: '7D' });
    expect(history.length).toBe(filled.fills!.length);
    expect(history[0]).toMatchObject({ order_id: order.id, resource_type: 'ENERGY' });
    const summary = await client.history.summary();
    expect(summary.total_orders).toBe(1);
    expect(summary.total_spent_sun).toBe(filled.total_cost_sun);
    expect(summary.total_energy).toBe(65_000);
  });

  it('keys: create with permissions (enforced), revoke (401 after, 404 twice)', async () => {
    const { client } = account();
    const key = await client.keys.create({ name: 'read-only', permissions: ['view_orders'] });
    expect(key.key).toMatch(/^sk_live_[0-9a-f]{64}$/);
    const limited = new TrxRent({ baseUrl: BASE, apiKey: key.key! });
    await expect(limited.orders.list()).resolves.toMatchObject({ total: 0 });
    await expect(limited.balance.get()).rejects.toBeInstanceOf(ForbiddenError);
    await expect(client.keys.revoke(key.id)).resolves.toEqual({ revoked: true });
    await expect(limited.orders.list()).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(client.keys.revoke(key.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('a JWT works like the key', async () => {
    const { jwt } = account();
    await expect(new TrxRent({ baseUrl: BASE, jwt }).balance.get()).resolves.toMatchObject({ trx: trxToSun('1000') });
  });
});

describe('money', () => {
  it('deposits: info, prepare, and submit of a locally signed TRX transfer that gets credited', async () => {
    const { client, memo } = account('0');
    const info = await client.deposits.info();
    expect(info.memo).toBe(memo);
    const prepared = await client.deposits.prepare({ amount_sun: trxToSun('5') });
    expect(prepared).toMatchObject({ address: state.platformAddress, memo, amount_sun: 5_000_000 });
    expect(Buffer.from(prepared.memo_hex, 'hex').toString()).toBe(memo);

    const key = '3c'.repeat(32);
    const tx = signTransaction(buildTrxTransfer({ from: privateKeyToTronAddress(key), to: prepared.address, amountSun: 5_000_000n, memo }), key);
    const submitted = await client.deposits.submit({ signed_tx: tx });
    expect(submitted).toEqual({ tx_id: tx.txID, status: 'pending' });
    await expect.poll(async () => (await client.balance.get()).trx, { timeout: 3000, interval: 20 }).toBe(5_000_000);
    // The deposit went through the simulated TRON node: the transaction is on its chain.
    const onChain = await (await fetch(`${BASE}/wallet/gettransactionbyid`, { method: 'POST', body: JSON.stringify({ value: tx.txID }) })).json();
    expect(onChain).toMatchObject({ txID: tx.txID });
    // …and the same transaction cannot be credited twice.
    await expect(client.deposits.submit({ signed_tx: tx })).rejects.toMatchObject({ code: 'BROADCAST_FAILED', status: 502 });
  });

  it('withdrawals: PENDING, then COMPLETED; funds leave the balance', async () => {
    const { client } = account('100');
    const w = await client.withdrawals.create({ address: TARGET, amount: trxToSun('60'), currency: 'TRX' });
    expect(w).toMatchObject({ status: 'PENDING', amount: 60_000_000, currency: 'TRX', address: TARGET });
    await expect.poll(async () => (await client.balance.get()).trx, { timeout: 3000, interval: 20 }).toBe(40_000_000);
  });

  it('webhooks: create (secret once), list (no secret), a signed delivery, delete', async () => {
    const { client } = account();
    const received: Array<{ body: string; signature: string | null }> = [];
    const { http, HttpResponse } = await import('msw');
    server.use(
      http.post('http://127.0.0.1:9/hook', async ({ request }) => {
        received.push({ body: await request.text(), signature: request.headers.get('x-service-signature') });
        return HttpResponse.text('ok');
      }),
    );
    const hook = await client.webhooks.create({ url: 'http://127.0.0.1:9/hook', events: ['order.filled'] });
    expect(hook.secret).toMatch(/^[0-9a-f]{64}$/);
    const list = await client.webhooks.list();
    expect(list.map((h) => h.id)).toEqual([hook.id]);
    expect(list[0]!.secret).toBeUndefined();

    const order = await client.orders.create(ENERGY);
    await client.orders.waitFor(order.id, { pollIntervalMs: 20, timeoutMs: 5000 });
    await expect.poll(() => received.length, { timeout: 3000, interval: 20 }).toBe(1);
    const event = await constructWebhookEvent(received[0]!.body, received[0]!.signature, hook.secret!);
    expect(event.event).toBe('order.filled');
    if (event.event !== 'order.filled') throw new Error('narrowed by the switch above');
    expect(event.data.id).toBe(order.id);

    await expect(client.webhooks.delete(hook.id)).resolves.toEqual({ deleted: true });
    expect(await client.webhooks.list()).toEqual([]);
  });
});

describe('the {data} envelope, as the live service sends it', () => {
  it('works the same through the SDK', async () => {
    const enveloped = setupServer(...createHandlers(state, { envelope: true, rateLimits: false }));
    server.close();
    enveloped.listen({ onUnhandledRequest: 'error' });
    try {
      const raw = await (await fetch(`${BASE}/api/v1/balance`, { headers: { 'x-api-key': state.demo.api_key } })).json();
      expect(raw).toHaveProperty('data.trx');
      const { client } = account();
      await expect(client.balance.get()).resolves.toMatchObject({ trx: trxToSun('1000'), trx_locked: 0 });
      await expect(client.prices.list()).resolves.toHaveLength(6);
    } finally {
      enveloped.close();
      server.listen({ onUnhandledRequest: 'error' });
    }
  });
});

describe('the mock books stay balanced', () => {
  it('after everything above', () => {
    expect(state.checkInvariants()).toEqual({ ok: true, problems: [] });
  });
});
