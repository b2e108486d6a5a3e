/**
 * Contract suite: walks the spec's tables (every endpoint, every constant in Limits, every
 * error row with its statuses, the order states) against the HTTP server, through the SDK and
 * through raw fetch. Manual clock, rate limits off (they have their own suite).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import {
  ApiKey,
  Balance,
  DeleteWebhookResponse,
  DepositInfo,
  HistoryList,
  HistorySummary,
  LIMITS,
  Order,
  OrderList,
  PreparedDeposit,
  Preview,
  PriceEntry,
  PriceHistory,
  PriceList,
  PriceStats,
  RevokeKeyResponse,
  SubmitDepositResponse,
  Webhook,
  WebhookList,
  Withdrawal,
} from '../../src/schemas/index.js';
import { buildTrxTransfer, signTransaction } from '../../src/protocol/tron-transaction.js';
import { type MockServer, MARKET_RULES } from '../../src/mock/index.js';
import { BAD_ADDRESS, TARGET, USER_ADDRESS, USER_KEY, isErrorEnvelope, manualServer, raw } from './helpers.js';

let mock: MockServer;
let sdk: TrxRent;
const order = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET } as const;

beforeAll(async () => {
  mock = await manualServer();
  sdk = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, maxRetries: 0 });
});
afterAll(() => mock.close());

function expectError(r: { status: number; json: any }, status: number, code: string, field?: string) {
  expect(r.status, JSON.stringify(r.json)).toBe(status);
  expect(isErrorEnvelope(r.json), JSON.stringify(r.json)).toBe(true);
  expect(r.json.error.code).toBe(code);
  if (field !== undefined) expect(r.json.error.details?.field).toBe(field);
}

describe('endpoints (SDK and raw fetch, responses pass the shared schemas)', () => {
  it('GET /prices: six providers, energy tiers, bandwidth for some, fetched_at at the last poll', async () => {
    const prices = await sdk.prices.list();
    const r = await raw(mock.url, 'GET', '/api/v1/prices');
    expect(r.status).toBe(200);
    expect(PriceList.parse(r.json)).toEqual(prices);
    expect(prices.map((p) => p.provider).sort()).toEqual(['catfee', 'itrx', 'netts', 'powersun', 'tem', 'tronsave']);
    expect(prices.every((p) => p.energy_prices.length > 0)).toBe(true);
    expect(prices.filter((p) => p.bandwidth_prices.length > 0).length).toBeGreaterThan(0);
    expect(prices.filter((p) => p.bandwidth_prices.length === 0).length).toBeGreaterThan(0);
    expect(prices.some((p) => p.is_market) && prices.some((p) => !p.is_market)).toBe(true);
    const poll = Math.floor(mock.state.now() / LIMITS.PRICE_POLL_INTERVAL_MS) * LIMITS.PRICE_POLL_INTERVAL_MS;
    const online = prices.filter((p) => p.available_energy > 0);
    expect(online.length).toBeGreaterThan(0);
    for (const p of online) expect(Date.parse(String(p.fetched_at))).toBe(poll);
  });

  it('GET /prices/best, /prices/history, /prices/stats (follow the live service)', async () => {
    const best = await sdk.prices.best({ resource: 'ENERGY' });
    expect(PriceEntry.parse((await raw(mock.url, 'GET', '/api/v1/prices/best?resource=ENERGY')).json)).toEqual(best);
    const stats = await sdk.prices.stats();
    expect(PriceStats.parse(stats).best_price_sun).toBe(best.price_sun);
    expect(stats.total_providers).toBe(6);
    // exactly the live service's four fields: a client that builds typed objects strictly from the body must not crash
    expect(Object.keys((await raw(mock.url, 'GET', '/api/v1/prices/stats')).json).sort()).toEqual([
      'avg_price_sun',
      'best_price_sun',
      'cheapest_changes_24h',
      'total_providers',
    ]);
    const history = await sdk.prices.history({ provider: 'tem', resource: 'ENERGY', period: '1h' });
    expect(PriceHistory.parse(history).length).toBe(60);
    expect(history.every((e) => e.provider === 'tem' && e.resource_type === 'ENERGY')).toBe(true);
    expect(Date.parse(String(history[0]!.polled_at))).toBeGreaterThan(Date.parse(String(history[1]!.polled_at)));
    expectError(await raw(mock.url, 'GET', '/api/v1/prices/best'), 422, 'VALIDATION_ERROR', 'resource');
    // an unknown provider is a filter that matches nothing: an empty list, not a 404
    const none = await raw(mock.url, 'GET', '/api/v1/prices/history?provider=nobody');
    expect([none.status, none.json]).toEqual([200, []]);
  });

  it('GET /orders/preview: best, fallbacks sorted by price, no_providers, max_price_sun excludes', async () => {
    const preview = await sdk.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 });
    expect(Preview.parse(preview).no_providers).toBe(false);
    const all = [preview.best!, ...preview.fallbacks];
    expect(all.map((o) => o.price_sun)).toEqual([...all.map((o) => o.price_sun)].sort((a, b) => a - b));
    expect(preview.best!.cost_trx).toBe((65_000 * preview.best!.price_sun) / 1_000_000);
    expect(preview.best!.duration_sec).toBe(3600);
    const cap = preview.best!.price_sun;
    const capped = await sdk.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600, max_price_sun: cap });
    expect([capped.best!, ...capped.fallbacks].every((o) => o.price_sun <= cap)).toBe(true);
    const none = await sdk.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600, max_price_sun: cap - 1 > 0 ? Math.min(cap - 1, 1) : 0.5 });
    expect(none).toEqual({ best: null, fallbacks: [], no_providers: true });
    // matched duration: the shortest tier at least as long as asked
    const twoHours = await sdk.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 7200 });
    expect(twoHours.best!.duration_sec).toBe(86_400);
    const r = await raw(mock.url, 'GET', '/api/v1/orders/preview?resource=ENERGY&amount=65000&duration=3600');
    expect(Preview.parse(r.json)).toEqual(preview);
  });

  it('POST /orders -> 201 create shape; GET /orders/:id full shape; GET /orders list shape', async () => {
    const { data: created, response } = await sdk.orders.create(order).withResponse();
    expect(response.status).toBe(201);
    expect(Object.keys(created).sort()).toEqual(
      ['id', 'status', 'resource_type', 'order_type', 'amount', 'duration_sec', 'target_address', 'max_price_sun', 'created_at'].sort(),
    );
    expect(created.status).toBe('PENDING');
    expect(created.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const full = await sdk.orders.get(created.id);
    expect(full).toMatchObject({ total_cost_sun: null, total_fee_sun: null, fills: [], filled_at: null });
    const list = await sdk.orders.list({ limit: 1 });
    expect(OrderList.parse(list).orders[0]!.id).toBe(created.id);
    expect(list.orders[0]).toHaveProperty('filled_at');
    expect(list.orders[0]).not.toHaveProperty('fills');
    expect(list.orders[0]).not.toHaveProperty('total_cost_sun');
    const r = await raw(mock.url, 'GET', `/api/v1/orders/${created.id}`, { key: mock.apiKey });
    expect(Order.parse(r.json).id).toBe(created.id);
  });

  it('GET /balance, GET /history (newest first), GET /history/summary', async () => {
    const balance = await sdk.balance.get();
    expect(Balance.parse((await raw(mock.url, 'GET', '/api/v1/balance', { key: mock.apiKey })).json)).toEqual(balance);
    const a = await sdk.orders.create(order);
    await mock.state.advance(2_000);
    const b = await sdk.orders.create({ ...order, amount: 70_000 });
    await mock.state.advance(2_000);
    const history = await sdk.history.list();
    expect(
      HistoryList.parse(history)
        .slice(0, 2)
        .map((f) => f.order_id),
    ).toEqual([b.id, a.id]);
    expect(history[0]).toMatchObject({ amount: 70_000, resource_type: 'ENERGY' });
    expect((await sdk.history.list({ period: '90D' })).length).toBeGreaterThanOrEqual(history.length);
    const summary = HistorySummary.parse(await sdk.history.summary());
    const fills = (await sdk.history.list({ period: '90D' })).filter((f) => f.resource_type === 'ENERGY');
    expect(summary.total_energy).toBe(fills.reduce((s, f) => s + f.amount, 0));
    expect(summary.total_spent_sun).toBe(fills.reduce((s, f) => s + f.cost_sun, 0));
    expect(summary.avg_price_sun).toBeCloseTo(summary.total_spent_sun / summary.total_energy, 2);
    expectError(await raw(mock.url, 'GET', '/api/v1/history?period=1Y', { key: mock.apiKey }), 422, 'VALIDATION_ERROR', 'period');
  });

  it('POST /keys -> 201 with the secret once; DELETE /keys/:id -> revoked, then 401, then 404', async () => {
    const { data: key, response } = await sdk.keys.create({ name: 'ci', permissions: ['view_balance'] }).withResponse();
    expect(response.status).toBe(201);
    expect(ApiKey.parse(key).key).toMatch(/^sk_live_[0-9a-f]{64}$/);
    expect(key.permissions).toEqual(['view_balance']);
    expect((await raw(mock.url, 'GET', '/api/v1/balance', { key: key.key })).status).toBe(200);
    expect(RevokeKeyResponse.parse(await sdk.keys.revoke(key.id))).toEqual({ revoked: true });
    expectError(await raw(mock.url, 'GET', '/api/v1/balance', { key: key.key }), 401, 'UNAUTHORIZED');
    expectError(await raw(mock.url, 'DELETE', `/api/v1/keys/${key.id}`, { key: mock.apiKey }), 404, 'NOT_FOUND');
    expectError(
      await raw(mock.url, 'POST', '/api/v1/keys', { key: mock.apiKey, body: { name: 'x', permissions: ['admin'] } }),
      422,
      'VALIDATION_ERROR',
      'permissions.0',
    );
    // the spec's rule is "a subset": the empty subset is valid on both sides, no stricter
    const none = await sdk.keys.create({ name: 'read-only', permissions: [] });
    expect(none.permissions).toEqual([]);
    expectError(await raw(mock.url, 'GET', '/api/v1/balance', { key: none.key }), 403, 'FORBIDDEN');
    expect((await raw(mock.url, 'GET', '/api/v1/history/summary', { key: none.key })).status).toBe(200);
  });

  it('the SDK omits absent optional fields: no null where the spec says number', async () => {
    const sent: string[] = [];
    const spy = new TrxRent({
      baseUrl: mock.url,
      apiKey: mock.apiKey,
      maxRetries: 0,
      fetch: async (input, init) => {
        sent.push(String(init?.body ?? ''));
        return fetch(input, init);
      },
    });
    await spy.orders.create({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET, max_price_sun: undefined });
    await spy.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600, max_price_sun: undefined });
    const body = JSON.parse(sent[0]!) as Record<string, unknown>;
    expect('max_price_sun' in body).toBe(false);
    expect(sent.join('\n')).not.toMatch(/null/);
  });

  it('deposit info/prepare/submit: platform address, memo and hex; submit pending then credited', async () => {
    const info = DepositInfo.parse(await sdk.deposits.info());
    expect(info).toMatchObject({ address: mock.state.platformAddress, memo: mock.memo });
    const prepared = PreparedDeposit.parse(await sdk.deposits.prepare({ amount_sun: 5_000_000 }));
    expect(prepared).toMatchObject({ address: mock.state.platformAddress, memo: mock.memo, amount_sun: 5_000_000 });
    expect(Buffer.from(prepared.memo_hex, 'hex').toString()).toBe(mock.memo);
    const before = (await sdk.balance.get()).trx;
    const tx = signTransaction(
      buildTrxTransfer({ from: USER_ADDRESS, to: prepared.address, amountSun: 5_000_000, memo: prepared.memo, now: mock.state.now() }),
      USER_KEY,
    );
    const submitted = SubmitDepositResponse.parse(await new TrxRent({ baseUrl: mock.url, maxRetries: 0 }).deposits.submit({ signed_tx: { ...tx } }));
    expect(submitted).toEqual({ tx_id: tx.txID, status: 'pending' });
    expect((await sdk.balance.get()).trx).toBe(before);
    await mock.state.advance(mock.state.timings.depositCreditMs);
    expect((await sdk.balance.get()).trx).toBe(before + 5_000_000);
  });

  it('POST /withdraw -> 200 PENDING, then COMPLETED and the amount leaves the balance', async () => {
    const before = await sdk.balance.get();
    const w = Withdrawal.parse(await sdk.withdrawals.create({ address: TARGET, amount: 50_000_000, currency: 'TRX' }));
    expect(w).toMatchObject({ status: 'PENDING', amount: 50_000_000, currency: 'TRX', address: TARGET });
    const during = await sdk.balance.get();
    expect(during.trx).toBe(before.trx - 50_000_000);
    expect(during.trx_locked).toBe(before.trx_locked + 50_000_000);
    await mock.state.advance(mock.state.timings.withdrawalMs);
    expect(mock.state.money.withdrawals.get(w.id)!.status).toBe('COMPLETED');
    const after = await sdk.balance.get();
    expect(after.trx_locked).toBe(before.trx_locked);
    expect(after.trx).toBe(before.trx - 50_000_000);
  });

  it('webhooks: POST (secret 64 hex, once), GET without secrets, DELETE, HTTPS or loopback only', async () => {
    const { data: hook, response } = await sdk.webhooks.create({ url: 'https://example.com/hook', events: ['order.filled'] }).withResponse();
    expect(response.status).toBe(201);
    expect(Webhook.parse(hook).secret).toMatch(/^[0-9a-f]{64}$/);
    expect(hook).toMatchObject({ is_active: true, events: ['order.filled'] });
    const list = WebhookList.parse(await sdk.webhooks.list());
    expect(list.find((h) => h.id === hook.id)).toBeDefined();
    expect(list.every((h) => h.secret === undefined)).toBe(true);
    expect(DeleteWebhookResponse.parse(await sdk.webhooks.delete(hook.id))).toEqual({ deleted: true });
    expect((await sdk.webhooks.list()).find((h) => h.id === hook.id)).toBeUndefined();
    expectError(await raw(mock.url, 'DELETE', `/api/v1/webhooks/${hook.id}`, { key: mock.apiKey }), 404, 'NOT_FOUND');
    expectError(
      await raw(mock.url, 'POST', '/api/v1/webhooks', { key: mock.apiKey, body: { url: 'http://example.com/h', events: ['order.filled'] } }),
      422,
      'VALIDATION_ERROR',
      'url',
    );
    expect(
      (await raw(mock.url, 'POST', '/api/v1/webhooks', { key: mock.apiKey, body: { url: 'http://127.0.0.1:9/h', events: ['order.failed'] } })).status,
    ).toBe(201);
    expectError(
      await raw(mock.url, 'POST', '/api/v1/webhooks', { key: mock.apiKey, body: { url: 'https://x.io', events: [] } }),
      422,
      'VALIDATION_ERROR',
      'events',
    );
  });

  it('POST /broadcast (permission broadcast): a valid signed transaction is accepted; a retry answers the same tx_id', async () => {
    const tx = signTransaction(buildTrxTransfer({ from: USER_ADDRESS, to: TARGET, amountSun: 1, now: mock.state.now() }), USER_KEY);
    const r = await raw(mock.url, 'POST', '/api/v1/broadcast', { key: mock.apiKey, body: { signed_tx: tx } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ tx_id: tx.txID.toLowerCase(), status: 'pending' });
    const again = await raw(mock.url, 'POST', '/api/v1/broadcast', { key: mock.apiKey, body: { signed_tx: tx } });
    expect([again.status, again.json]).toEqual([200, { tx_id: tx.txID.toLowerCase(), status: 'pending' }]);
    // The signer must be the transaction's owner (the answer does not name it, so prove it by refusal).
    const forged = signTransaction(buildTrxTransfer({ from: USER_ADDRESS, to: TARGET, amountSun: 2, now: mock.state.now() }), '2'.repeat(64));
    expectError(await raw(mock.url, 'POST', '/api/v1/broadcast', { key: mock.apiKey, body: { signed_tx: forged } }), 400, 'VALIDATION_ERROR', 'signed_tx');
  });

  it('unknown routes and methods are 404 NOT_FOUND envelopes', async () => {
    expectError(await raw(mock.url, 'GET', '/api/v1/nope'), 404, 'NOT_FOUND');
    expectError(await raw(mock.url, 'GET', '/api/v2/prices'), 404, 'NOT_FOUND');
    expectError(await raw(mock.url, 'PUT', '/api/v1/prices'), 404, 'NOT_FOUND');
    expectError(await raw(mock.url, 'DELETE', '/api/v1/orders'), 404, 'NOT_FOUND');
    expectError(await raw(mock.url, 'GET', '/'), 404, 'NOT_FOUND');
  });
});

describe('Limits table constants', () => {
  it('energy minimum 65000 on preview (422) and order creation (400 with {field, min})', async () => {
    const p = await raw(mock.url, 'GET', '/api/v1/orders/preview?resource=ENERGY&amount=64999&duration=3600');
    expectError(p, 422, 'VALIDATION_ERROR', 'amount');
    // The spec's details exactly: {field, min}, no other key.
    expect(p.json.error.details).toEqual({ field: 'amount', min: 65_000 });
    const o = await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: { ...order, amount: 64_999 } });
    expectError(o, 400, 'VALIDATION_ERROR', 'amount');
    expect(o.json.error.details).toEqual({ field: 'amount', min: 65_000 });
    // Below every provider's minimum (bandwidth): BELOW_MINIMUM_ORDER with the same {field, min}.
    const b = await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: { ...order, resource_type: 'BANDWIDTH', amount: 1 } });
    expectError(b, 422, 'BELOW_MINIMUM_ORDER', 'amount');
    expect(Object.keys(b.json.error.details).sort()).toEqual(['field', 'min']);
    expect(b.json.error.details.min).toBeGreaterThan(1);
    expect((await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: order })).status).toBe(201);
  });

  it('withdrawal minimum 50,000,000 SUN', async () => {
    const r = await raw(mock.url, 'POST', '/api/v1/withdraw', { key: mock.apiKey, body: { address: TARGET, amount: 49_999_999, currency: 'TRX' } });
    expectError(r, 422, 'VALIDATION_ERROR', 'amount');
    expect(r.json.error.details).toEqual({ field: 'amount', min: LIMITS.MIN_WITHDRAWAL_SUN });
    expect((await raw(mock.url, 'POST', '/api/v1/withdraw', { key: mock.apiKey, body: { address: TARGET, amount: 50_000_000, currency: 'TRX' } })).status).toBe(
      200,
    );
  });

  it('deposit prepare minimum 1000000', async () => {
    const r = await raw(mock.url, 'POST', '/api/v1/deposit/prepare', { key: mock.apiKey, body: { amount_sun: 999_999 } });
    expectError(r, 422, 'VALIDATION_ERROR', 'amount_sun');
    expect(r.json.error.details.min).toBe(1_000_000);
    expect((await raw(mock.url, 'POST', '/api/v1/deposit/prepare', { key: mock.apiKey, body: { amount_sun: 1_000_000 } })).status).toBe(200);
  });

  it('order list: default 30, maximum 100, offset default 0, total counts the filter', async () => {
    const acct = mock.state.createAccount({ trx_sun: 10_000_000_000 });
    const client = new TrxRent({ baseUrl: mock.url, apiKey: acct.api_key, maxRetries: 0 });
    const ids: string[] = [];
    for (let i = 0; i < 35; i++) ids.push((await client.orders.create(order)).id);
    const page = await client.orders.list();
    expect(page.orders.length).toBe(30);
    expect(page.total).toBe(35);
    expect(page.orders[0]!.id).toBe(ids[34]);
    const rest = await client.orders.list({ offset: 30 });
    expect(rest.orders.map((o) => o.id)).toEqual(ids.slice(0, 5).reverse());
    expect((await client.orders.list({ limit: 100 })).orders.length).toBe(35);
    expectError(await raw(mock.url, 'GET', '/api/v1/orders?limit=101', { key: acct.api_key }), 422, 'VALIDATION_ERROR', 'limit');
    expectError(await raw(mock.url, 'GET', '/api/v1/orders?limit=0', { key: acct.api_key }), 422, 'VALIDATION_ERROR', 'limit');
    expectError(await raw(mock.url, 'GET', '/api/v1/orders?offset=-1', { key: acct.api_key }), 422, 'VALIDATION_ERROR', 'offset');
    await mock.state.advance(2_000);
    const filled = await client.orders.list({ status: 'FILLED', limit: 100 });
    expect(filled.total).toBe(35);
    expect((await client.orders.list({ status: 'PENDING' })).total).toBe(0);
    let walked = 0;
    for await (const o of client.orders.list({ status: 'FILLED' })) {
      expect(o.status).toBe('FILLED');
      if (++walked > 50) break;
    }
    expect(walked).toBe(35);
    expectError(await raw(mock.url, 'GET', '/api/v1/orders?status=DONE', { key: acct.api_key }), 422, 'VALIDATION_ERROR', 'status');
  });

  it('price polling every 30 seconds: same prices within a poll, fetched_at moves with the poll', async () => {
    const state = mock.state;
    const first = state.market.prices();
    const toNextPoll = state.market.nextPollAt() - state.now();
    if (toNextPoll > 1) await state.advance(toNextPoll - 1);
    expect(state.market.prices()).toEqual(first);
    await state.advance(1);
    const second = state.market.prices();
    const onlineBoth = second.filter((p, i) => p.available_energy > 0 && first[i]!.available_energy > 0);
    for (const p of onlineBoth) {
      const before = first.find((q) => q.provider === p.provider)!;
      expect(Date.parse(p.fetched_at as string) - Date.parse(before.fetched_at as string)).toBe(30_000);
    }
  });

  it('duration bounds and bandwidth minimum (where the spec is silent)', async () => {
    expectError(
      await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: { ...order, duration_sec: MARKET_RULES.MIN_DURATION_SEC - 1 } }),
      400,
      'VALIDATION_ERROR',
      'duration_sec',
    );
    expectError(
      await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: { ...order, duration_sec: MARKET_RULES.MAX_DURATION_SEC + 1 } }),
      400,
      'VALIDATION_ERROR',
      'duration_sec',
    );
    expectError(await raw(mock.url, 'GET', '/api/v1/orders/preview?resource=ENERGY&amount=65000&duration=299'), 422, 'VALIDATION_ERROR', 'duration');
    const bw = { ...order, resource_type: 'BANDWIDTH', amount: MARKET_RULES.MIN_BANDWIDTH_AMOUNT - 1 };
    const r = await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: bw });
    expectError(r, 422, 'BELOW_MINIMUM_ORDER', 'amount');
    expect(r.json.error.details.min).toBe(MARKET_RULES.MIN_BANDWIDTH_AMOUNT);
    expect((await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: { ...bw, amount: MARKET_RULES.MIN_BANDWIDTH_AMOUNT } })).status).toBe(201);
  });
});

describe('Errors table: every code with the statuses the spec gives', () => {
  it('UNAUTHORIZED 401: missing, malformed or unknown credentials', async () => {
    expectError(await raw(mock.url, 'GET', '/api/v1/balance'), 401, 'UNAUTHORIZED');
    expectError(await raw(mock.url, 'GET', '/api/v1/balance', { key: 'sk_live_' + '0'.repeat(64) }), 401, 'UNAUTHORIZED');
    expectError(await raw(mock.url, 'GET', '/api/v1/orders', { jwt: 'a.b.c' }), 401, 'UNAUTHORIZED');
    expectError(await raw(mock.url, 'POST', '/api/v1/orders', { body: order }), 401, 'UNAUTHORIZED');
  });

  it('FORBIDDEN 403: a key without the permission', async () => {
    const acct = mock.state.createAccount({ trx_sun: 1e9, permissions: ['view_orders'] });
    expectError(await raw(mock.url, 'GET', '/api/v1/balance', { key: acct.api_key }), 403, 'FORBIDDEN');
    expectError(await raw(mock.url, 'POST', '/api/v1/orders', { key: acct.api_key, body: order }), 403, 'FORBIDDEN');
    expect((await raw(mock.url, 'GET', '/api/v1/orders', { key: acct.api_key })).status).toBe(200);
  });

  it('NOT_FOUND 404: unknown order, key, webhook', async () => {
    expectError(await raw(mock.url, 'GET', '/api/v1/orders/00000000-0000-4000-8000-000000000000', { key: mock.apiKey }), 404, 'NOT_FOUND');
    expectError(await raw(mock.url, 'DELETE', '/api/v1/keys/key_nope', { key: mock.apiKey }), 404, 'NOT_FOUND');
    expectError(await raw(mock.url, 'DELETE', '/api/v1/webhooks/wh_nope', { key: mock.apiKey }), 404, 'NOT_FOUND');
    // another account's order is not visible
    const other = mock.state.createAccount({ trx_sun: 1e9 });
    const o = await raw(mock.url, 'POST', '/api/v1/orders', { key: other.api_key, body: order });
    expectError(await raw(mock.url, 'GET', `/api/v1/orders/${o.json.id}`, { key: mock.apiKey }), 404, 'NOT_FOUND');
  });

  it('DUPLICATE_REQUEST 409: same Idempotency-Key, different parameters', async () => {
    const headers = { 'idempotency-key': 'contract-409' };
    expect((await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: order, headers })).status).toBe(201);
    expectError(await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: { ...order, amount: 66_000 }, headers }), 409, 'DUPLICATE_REQUEST');
  });

  it('VALIDATION_ERROR: 400 on order creation and deposit submit, 422 elsewhere, naming the field', async () => {
    expectError(
      await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: { ...order, resource_type: undefined } }),
      400,
      'VALIDATION_ERROR',
      'resource_type',
    );
    expectError(await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: { ...order, amount: '65000' } }), 400, 'VALIDATION_ERROR', 'amount');
    expectError(
      await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, rawBody: '{"resource_type":', headers: { 'content-type': 'application/json' } }),
      400,
      'VALIDATION_ERROR',
      'body',
    );
    expectError(
      await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, rawBody: JSON.stringify(order), headers: { 'content-type': 'text/plain' } }),
      400,
      'VALIDATION_ERROR',
      'Content-Type',
    );
    expectError(
      await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: { ...order, order_type: 'LIMIT' } }),
      400,
      'VALIDATION_ERROR',
      'max_price_sun',
    );
    expectError(await raw(mock.url, 'POST', '/api/v1/deposit/submit', { body: {} }), 400, 'VALIDATION_ERROR', 'signed_tx');
    expectError(
      await raw(mock.url, 'POST', '/api/v1/deposit/submit', { body: { signed_tx: { txID: 'zz', raw_data: {}, signature: ['00'] } } }),
      400,
      'VALIDATION_ERROR',
      'signed_tx.txID',
    );
    expectError(await raw(mock.url, 'GET', '/api/v1/orders/preview?resource=ENERGY&amount=abc&duration=3600'), 422, 'VALIDATION_ERROR', 'amount');
    expectError(await raw(mock.url, 'POST', '/api/v1/keys', { key: mock.apiKey, body: { permissions: ['view_orders'] } }), 422, 'VALIDATION_ERROR', 'name');
    expectError(
      await raw(mock.url, 'POST', '/api/v1/withdraw', { key: mock.apiKey, body: { address: TARGET, amount: 5e7 } }),
      422,
      'VALIDATION_ERROR',
      'currency',
    );
    expectError(
      await raw(mock.url, 'POST', '/api/v1/keys', { key: mock.apiKey, body: { name: 'k', permissions: ['view_orders'], extra: 1 } }),
      422,
      'VALIDATION_ERROR',
    );
  });

  it('INSUFFICIENT_BALANCE: 402 on order creation; 400 on withdraw, also for an invalid address (spec, literally)', async () => {
    const poor = mock.state.createAccount({ trx_sun: 1_000_000 });
    const o = await raw(mock.url, 'POST', '/api/v1/orders', { key: poor.api_key, body: order });
    expectError(o, 402, 'INSUFFICIENT_BALANCE');
    expect(o.json.error.details).toMatchObject({ available_sun: 1_000_000 });
    expectError(
      await raw(mock.url, 'POST', '/api/v1/withdraw', { key: poor.api_key, body: { address: TARGET, amount: 50_000_000, currency: 'TRX' } }),
      400,
      'INSUFFICIENT_BALANCE',
    );
    const badAddress = await raw(mock.url, 'POST', '/api/v1/withdraw', {
      key: mock.apiKey,
      body: { address: BAD_ADDRESS, amount: 50_000_000, currency: 'TRX' },
    });
    expectError(badAddress, 400, 'INSUFFICIENT_BALANCE', 'address');
    expect(badAddress.json.error.details.reason).toBe('INVALID_ADDRESS');
    expect(mock.state.getAccount(poor.account_id)!.ledger.available()).toBe(1_000_000);
  });

  it('BELOW_MINIMUM_ORDER 422, INVALID_ADDRESS 422, PRICE_EXCEEDED 422', async () => {
    expectError(
      await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: { ...order, resource_type: 'BANDWIDTH', amount: 10 } }),
      422,
      'BELOW_MINIMUM_ORDER',
      'amount',
    );
    expectError(
      await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: { ...order, target_address: BAD_ADDRESS } }),
      422,
      'INVALID_ADDRESS',
      'target_address',
    );
    const pe = await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: { ...order, max_price_sun: 1 } });
    expectError(pe, 422, 'PRICE_EXCEEDED', 'max_price_sun');
    expect(pe.json.error.details.best_price_sun).toBeGreaterThan(1);
  });

  it('PROVIDER_UNAVAILABLE 503: no provider can fill the amount; prices/best with every provider offline', async () => {
    expectError(await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: { ...order, amount: 900_000_000 } }), 503, 'PROVIDER_UNAVAILABLE');
    const ids = mock.state.market.providers.map((p) => p.id);
    for (const id of ids) mock.state.setProviderOverride(id, { online: false });
    try {
      expectError(await raw(mock.url, 'GET', '/api/v1/prices/best?resource=ENERGY'), 503, 'PROVIDER_UNAVAILABLE');
      expect((await sdk.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 })).no_providers).toBe(true);
    } finally {
      for (const id of ids) mock.state.setProviderOverride(id, null);
    }
  });

  it('RATE_LIMITED 429 with Retry-After; MAINTENANCE 503 and INTERNAL_ERROR 500 (chaos header)', async () => {
    const limited = await manualServer({ rateLimits: { balance: 1 } });
    try {
      expect((await raw(limited.url, 'GET', '/api/v1/balance', { key: limited.apiKey })).status).toBe(200);
      const r = await raw(limited.url, 'GET', '/api/v1/balance', { key: limited.apiKey });
      expectError(r, 429, 'RATE_LIMITED');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
    expectError(await raw(mock.url, 'GET', '/api/v1/prices', { headers: { 'x-mock-chaos': '503' } }), 503, 'MAINTENANCE');
    expectError(await raw(mock.url, 'GET', '/api/v1/prices', { headers: { 'x-mock-chaos': '500' } }), 500, 'INTERNAL_ERROR');
  });

  it('BROADCAST_FAILED 502: the network rejects a duplicate or expired deposit', async () => {
    const prepared = await sdk.deposits.prepare({ amount_sun: 2_000_000 });
    const tx = signTransaction(
      buildTrxTransfer({ from: USER_ADDRESS, to: prepared.address, amountSun: 2_000_000, memo: prepared.memo, now: mock.state.now() }),
      USER_KEY,
    );
    expect((await raw(mock.url, 'POST', '/api/v1/deposit/submit', { body: { signed_tx: tx } })).status).toBe(200);
    const dup = await raw(mock.url, 'POST', '/api/v1/deposit/submit', { body: { signed_tx: tx } });
    expectError(dup, 502, 'BROADCAST_FAILED');
    const old = signTransaction(
      buildTrxTransfer({ from: USER_ADDRESS, to: prepared.address, amountSun: 2_000_000, memo: prepared.memo, now: mock.state.now() - 120_000 }),
      USER_KEY,
    );
    expectError(await raw(mock.url, 'POST', '/api/v1/deposit/submit', { body: { signed_tx: old } }), 502, 'BROADCAST_FAILED');
  });

  it('the books balance after all of the above', async () => {
    await mock.state.advance(10_000);
    expect(mock.state.checkInvariants()).toEqual({ ok: true, problems: [] });
  });
});
