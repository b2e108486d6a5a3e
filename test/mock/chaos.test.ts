/** Seeded chaos: determinism, kinds, slow responses, dropped connections after commit. */
import { afterEach, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { type MockServer, type MockServerOptions, createMockState } from '../../src/mock/index.js';
import { createHandlers } from '../../src/mock/msw.js';
import { TARGET, isErrorEnvelope, manualServer, raw } from './helpers.js';

const open: MockServer[] = [];
afterEach(async () => {
  for (const m of open.splice(0)) {
    expect(m.state.checkInvariants().problems).toEqual([]);
    await m.close();
  }
});
async function start(chaos: MockServerOptions['chaos']) {
  const m = await manualServer({ chaos });
  open.push(m);
  return m;
}

async function statuses(m: MockServer, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = await raw(m.url, 'GET', '/api/v1/prices');
    if (r.status !== 200) {
      expect(isErrorEnvelope(r.json)).toBe(true);
      expect(r.headers.get('x-mock-chaos')).toBe(String(r.status));
    }
    out.push(r.status);
  }
  return out;
}

describe('chaos', () => {
  it('is deterministic for a seed; another seed differs; the rate is honoured', async () => {
    const opts = { rate: 0.3, seed: 42, kinds: [429, 500, 503] as const };
    const a = await statuses(await start({ ...opts, kinds: [...opts.kinds] }), 300);
    const b = await statuses(await start({ ...opts, kinds: [...opts.kinds] }), 300);
    const c = await statuses(await start({ ...opts, kinds: [...opts.kinds], seed: 43 }), 300);
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
    const faults = a.filter((s) => s !== 200).length;
    expect(faults).toBeGreaterThan(300 * 0.18);
    expect(faults).toBeLessThan(300 * 0.42);
    expect(new Set(a)).toEqual(new Set([200, 429, 500, 503]));
  });

  it('injected 429 carries Retry-After; kinds restrict what is drawn; /__mock helpers are never hit', async () => {
    const m = await start({ rate: 1, kinds: [429] });
    const r = await raw(m.url, 'GET', '/api/v1/balance', { key: m.apiKey });
    expect([r.status, r.headers.get('retry-after'), r.json.error.code]).toEqual([429, '1', 'RATE_LIMITED']);
    for (let i = 0; i < 20; i++) expect((await raw(m.url, 'GET', '/__mock/state')).status).toBe(200);
  });

  it('slow responses are held back slowMs and still answer', async () => {
    const m = await start({ rate: 1, kinds: ['slow'], slowMs: 250 });
    const t = Date.now();
    const r = await raw(m.url, 'GET', '/api/v1/prices');
    expect(Date.now() - t).toBeGreaterThanOrEqual(240);
    expect([r.status, r.headers.get('x-mock-chaos')]).toEqual([200, 'slow']);
  });

  it('drop commits the order, then destroys the connection; a retry with the same key gets it back', async () => {
    const m = await start({ rate: 0 });
    const body = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET };
    const headers = { 'idempotency-key': 'drop-1', 'x-mock-chaos': 'drop' };
    await expect(raw(m.url, 'POST', '/api/v1/orders', { key: m.apiKey, body, headers })).rejects.toThrow();
    const committed = m.state.orders.all(m.state.demo.account_id);
    expect(committed).toHaveLength(1);
    expect(m.state.balance(m.state.demo.account_id).trx_locked).toBeGreaterThan(0);
    const retry = await raw(m.url, 'POST', '/api/v1/orders', { key: m.apiKey, body, headers: { 'idempotency-key': 'drop-1' } });
    expect([retry.status, retry.json.id]).toEqual([200, committed[0]!.id]);
    // the SDK does the same on its own: generated key, retried after the network error
    const seeded = await start({ rate: 0.5, seed: 5, kinds: ['drop'] });
    const sdk = new TrxRent({ baseUrl: seeded.url, apiKey: seeded.apiKey, maxRetries: 8, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await sdk.orders.create({ ...body, resource_type: 'ENERGY' })).id);
    expect(
      seeded.state.orders
        .all(seeded.state.demo.account_id)
        .map((o) => o.id)
        .sort(),
    ).toEqual([...ids].sort());
  });

  it('rules aim faults at routes, count down, change mid-run and are logged; reset loses the request, drop the answer', async () => {
    const m = await start({
      rate: 0,
      rules: [
        { route: 'GET /api/v1/prices', kind: 503, times: 2 },
        { route: 'GET /wallet/*', kind: 500 },
      ],
    });
    expect((await statuses(m, 3)).join()).toBe('503,503,200');
    // The node's routes are aimed at by prefix; the account API's other routes are untouched.
    expect((await raw(m.url, 'GET', '/wallet/getnowblock')).status).toBe(500);
    expect((await raw(m.url, 'GET', '/api/v1/balance', { key: m.apiKey })).status).toBe(200);
    const body = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET };
    m.chaos.setRules([
      { route: 'POST /api/v1/orders', kind: 'reset', times: 1 },
      { route: 'POST /api/v1/orders', kind: 'drop', times: 1 },
    ]);
    // reset: the connection dies and nothing happened; drop: it dies after the order was placed.
    await expect(raw(m.url, 'POST', '/api/v1/orders', { key: m.apiKey, body, headers: { 'idempotency-key': 'r-1' } })).rejects.toThrow();
    expect(m.state.orders.all(m.state.demo.account_id)).toHaveLength(0);
    await expect(raw(m.url, 'POST', '/api/v1/orders', { key: m.apiKey, body, headers: { 'idempotency-key': 'r-1' } })).rejects.toThrow();
    expect(m.state.orders.all(m.state.demo.account_id)).toHaveLength(1);
    expect((await raw(m.url, 'POST', '/api/v1/orders', { key: m.apiKey, body, headers: { 'idempotency-key': 'r-1' } })).status).toBe(200);
    expect(m.chaos.log.map((h) => `${h.kind} ${h.method} ${h.path} ${h.by}`)).toEqual([
      '503 GET /api/v1/prices 0',
      '503 GET /api/v1/prices 0',
      '500 GET /wallet/getnowblock 1',
      'reset POST /api/v1/orders 0',
      'drop POST /api/v1/orders 1',
    ]);
  });

  it('a slow rule holds its requests its own holdMs: a caller with a shorter timeout gives up, and the work is done after it', async () => {
    const m = await start({ rate: 0, rules: [{ route: 'POST /api/v1/orders', kind: 'slow', holdMs: 1_500, times: 1 }] });
    const sdk = new TrxRent({ baseUrl: m.url, apiKey: m.apiKey, timeoutMs: 200, maxRetries: 0 });
    const body = { resource_type: 'ENERGY' as const, amount: 65_000, duration_sec: 3600, target_address: TARGET };
    const sent = Date.now();
    await expect(sdk.orders.create(body, { idempotencyKey: 'slow-1' })).rejects.toMatchObject({ name: 'TimeoutError' });
    if (Date.now() - sent < 1_400) expect(m.state.orders.all(m.state.demo.account_id)).toHaveLength(0);
    for (let i = 0; i < 100 && m.state.orders.all(m.state.demo.account_id).length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(m.state.orders.all(m.state.demo.account_id)).toHaveLength(1);
  });

  it('rejects bad options', () => {
    const state = createMockState({ clock: 'manual' });
    expect(() => createHandlers(state, { chaos: { rate: 2 } })).toThrow(RangeError);
    expect(() => createHandlers(state, { chaos: { rate: 0.1, kinds: [] } })).toThrow(RangeError);
    expect(() => createHandlers(state, { chaos: { rate: 0, rules: [{ route: '/api/v1/orders', kind: 'drop' }] } })).toThrow(/rules\[0\]\.route/);
    expect(() => createHandlers(state, { chaos: { rate: 0, rules: [{ route: 'GET /x', kind: 'boom' as never }] } })).toThrow(/rules\[0\]\.kind/);
    state.dispose();
  });
});
