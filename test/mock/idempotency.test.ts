/** Idempotency-Key on POST /orders and POST /withdraw. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DuplicateRequestError, TrxRent } from '../../src/index.js';
import type { MockServer } from '../../src/mock/index.js';
import { TARGET, manualServer, raw } from './helpers.js';

let mock: MockServer;
const order = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET } as const;
const withdrawal = { address: TARGET, amount: 50_000_000, currency: 'TRX' } as const;

beforeAll(async () => {
  mock = await manualServer({ chaos: { rate: 0, slowMs: 300 } });
});
afterAll(async () => {
  expect(mock.state.checkInvariants().problems).toEqual([]);
  await mock.close();
});

function fresh() {
  const acct = mock.state.createAccount({ trx_sun: 1_000_000_000 });
  return { acct, sdk: new TrxRent({ baseUrl: mock.url, apiKey: acct.api_key, maxRetries: 0 }) };
}

describe('POST /orders', () => {
  it('first call 201; replay with the same parameters 200 with the same body; nothing new is created', async () => {
    const { acct, sdk } = fresh();
    const headers = { 'idempotency-key': 'order-1' };
    const first = await raw(mock.url, 'POST', '/api/v1/orders', { key: acct.api_key, body: order, headers });
    expect(first.status).toBe(201);
    const balance = await sdk.balance.get();
    // same parameters in another key order
    const reordered = { target_address: order.target_address, duration_sec: 3600, amount: 65_000, resource_type: 'ENERGY' };
    const replay = await raw(mock.url, 'POST', '/api/v1/orders', { key: acct.api_key, body: reordered, headers });
    expect(replay.status).toBe(200);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await sdk.orders.list()).total).toBe(1);
    expect(await sdk.balance.get()).toEqual(balance);
    // even after the order moved on, the original response comes back
    await mock.state.advance(5_000);
    const later = await raw(mock.url, 'POST', '/api/v1/orders', { key: acct.api_key, body: order, headers });
    expect(later.json).toEqual(first.json);
    expect(later.json.status).toBe('PENDING');
  });

  it('the SDK tells a replay (200) from a first create (201)', async () => {
    const { sdk } = fresh();
    const a = await sdk.orders.create(order, { idempotencyKey: 'sdk-key' }).withResponse();
    const b = await sdk.orders.create(order, { idempotencyKey: 'sdk-key' }).withResponse();
    expect([a.response.status, b.response.status]).toEqual([201, 200]);
    expect(b.data).toEqual(a.data);
  });

  it('same key, different parameters: 409 DUPLICATE_REQUEST', async () => {
    const { sdk } = fresh();
    await sdk.orders.create(order, { idempotencyKey: 'k409' });
    const error = await sdk.orders.create({ ...order, amount: 70_000 }, { idempotencyKey: 'k409' }).catch((e: unknown) => e as any);
    expect(error).toBeInstanceOf(DuplicateRequestError);
    expect(error.status).toBe(409);
    expect(error.details).toMatchObject({ reason: 'different_parameters' });
    expect((await sdk.orders.list()).total).toBe(1);
  });

  it('a key whose first request is still in flight: 409', async () => {
    const { acct } = fresh();
    const headers = { 'idempotency-key': 'in-flight' };
    const slow = raw(mock.url, 'POST', '/api/v1/orders', { key: acct.api_key, body: order, headers: { ...headers, 'x-mock-chaos': 'slow' } });
    await new Promise((r) => setTimeout(r, 100));
    const second = await raw(mock.url, 'POST', '/api/v1/orders', { key: acct.api_key, body: order, headers });
    expect(second.status).toBe(409);
    expect(second.json.error).toMatchObject({ code: 'DUPLICATE_REQUEST', details: { reason: 'in_flight' } });
    const first = await slow;
    expect(first.status).toBe(201);
    const third = await raw(mock.url, 'POST', '/api/v1/orders', { key: acct.api_key, body: order, headers });
    expect([third.status, third.json.id]).toEqual([200, first.json.id]);
  });

  it('keys are kept 24 hours, then the same key creates anew', async () => {
    const { acct, sdk } = fresh();
    const headers = { 'idempotency-key': 'day' };
    const first = await raw(mock.url, 'POST', '/api/v1/orders', { key: acct.api_key, body: order, headers });
    await mock.state.advance(24 * 3600_000 - 1);
    expect((await raw(mock.url, 'POST', '/api/v1/orders', { key: acct.api_key, body: order, headers })).status).toBe(200);
    await mock.state.advance(1);
    const next = await raw(mock.url, 'POST', '/api/v1/orders', { key: acct.api_key, body: order, headers });
    expect(next.status).toBe(201);
    expect(next.json.id).not.toBe(first.json.id);
    expect((await sdk.orders.list()).total).toBe(2);
  });

  it('up to 64 characters; longer is VALIDATION_ERROR (400 here) naming the header', async () => {
    const { acct } = fresh();
    expect((await raw(mock.url, 'POST', '/api/v1/orders', { key: acct.api_key, body: order, headers: { 'idempotency-key': 'k'.repeat(64) } })).status).toBe(
      201,
    );
    const r = await raw(mock.url, 'POST', '/api/v1/orders', { key: acct.api_key, body: order, headers: { 'idempotency-key': 'k'.repeat(65) } });
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'Idempotency-Key' } });
  });

  it('a failed request frees its key; keys are per account', async () => {
    const poor = mock.state.createAccount({ trx_sun: 1 });
    const headers = { 'idempotency-key': 'retry-after-topup' };
    expect((await raw(mock.url, 'POST', '/api/v1/orders', { key: poor.api_key, body: order, headers })).status).toBe(402);
    mock.state.credit(poor.account_id, 100_000_000);
    expect((await raw(mock.url, 'POST', '/api/v1/orders', { key: poor.api_key, body: order, headers })).status).toBe(201);
    const other = fresh();
    expect((await raw(mock.url, 'POST', '/api/v1/orders', { key: other.acct.api_key, body: order, headers })).status).toBe(201);
  });

  it('the same key on another endpoint is a different request: 409', async () => {
    const { acct } = fresh();
    const headers = { 'idempotency-key': 'cross' };
    expect((await raw(mock.url, 'POST', '/api/v1/orders', { key: acct.api_key, body: order, headers })).status).toBe(201);
    expect((await raw(mock.url, 'POST', '/api/v1/withdraw', { key: acct.api_key, body: withdrawal, headers })).status).toBe(409);
  });
});

describe('POST /withdraw', () => {
  it('replay returns the original (200) and pays out once; different body 409; long key 422', async () => {
    const { acct, sdk } = fresh();
    const start = await sdk.balance.get();
    const headers = { 'idempotency-key': 'w-1' };
    const first = await raw(mock.url, 'POST', '/api/v1/withdraw', { key: acct.api_key, body: withdrawal, headers });
    const replay = await raw(mock.url, 'POST', '/api/v1/withdraw', { key: acct.api_key, body: withdrawal, headers });
    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect((await sdk.balance.get()).trx).toBe(start.trx - withdrawal.amount);
    await mock.state.advance(10_000);
    expect((await raw(mock.url, 'POST', '/api/v1/withdraw', { key: acct.api_key, body: withdrawal, headers })).json).toEqual(first.json);
    expect((await sdk.balance.get()).trx).toBe(start.trx - withdrawal.amount);
    expect([...mock.state.money.withdrawals.values()].filter((w) => w.account_id === acct.account_id)).toHaveLength(1);
    expect((await raw(mock.url, 'POST', '/api/v1/withdraw', { key: acct.api_key, body: { ...withdrawal, amount: 60_000_000 }, headers })).status).toBe(409);
    const long = await raw(mock.url, 'POST', '/api/v1/withdraw', { key: acct.api_key, body: withdrawal, headers: { 'idempotency-key': 'x'.repeat(65) } });
    expect(long.status).toBe(422);
    expect(long.json.error.details.field).toBe('Idempotency-Key');
  });
});
