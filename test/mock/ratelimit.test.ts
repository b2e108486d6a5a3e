/** Per-IP rate limits per endpoint group, IETF RateLimit headers and Retry-After. */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitedError, TrxRent } from '../../src/index.js';
import { DEFAULT_RATE_LIMITS, type MockServer, createManualClock, createMockState } from '../../src/mock/index.js';
import { createHandlers } from '../../src/mock/msw.js';
import { T0, TARGET, isErrorEnvelope, manualServer, raw } from './helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await manualServer({ rateLimits: {} }); // the spec's numbers
});
afterAll(() => mock.close());

/** Makes requests until one is 429 (bounded); returns how many passed and the 429. */
async function exhaust(call: () => ReturnType<typeof raw>, max: number) {
  const remaining: number[] = [];
  for (let i = 0; i <= max; i++) {
    const r = await call();
    if (r.status === 429) return { passed: i, limited: r, remaining };
    remaining.push(Number(r.headers.get('ratelimit-remaining')));
  }
  throw new Error(`no 429 after ${max + 1} requests`);
}

describe('the spec table', () => {
  it('defaults are the spec numbers', () => {
    // x402: the spec shows no limits for the paid API; the mock uses the catch-all's 100.
    expect(DEFAULT_RATE_LIMITS).toEqual({ prices: 300, balance: 60, history: 60, orders: 10, withdraw: 5, other: 100, x402: 100, windowMs: 60_000 });
  });

  it('POST /orders and GET /orders share 10 per minute; GET /orders/:id is in "other"', async () => {
    const acct = mock.state.createAccount({ trx_sun: 1e10 });
    const order = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET };
    let id = '';
    for (let i = 0; i < 5; i++) {
      const r = await raw(mock.url, 'POST', '/api/v1/orders', { key: acct.api_key, body: order });
      expect(r.status).toBe(201);
      id = r.json.id;
    }
    const { passed, limited, remaining } = await exhaust(() => raw(mock.url, 'GET', '/api/v1/orders', { key: acct.api_key }), 20);
    expect(passed).toBe(5);
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    expect(limited.status).toBe(429);
    expect(isErrorEnvelope(limited.json)).toBe(true);
    expect(limited.json.error.code).toBe('RATE_LIMITED');
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('ratelimit-limit')).toBe('10');
    expect(limited.headers.get('ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('ratelimit-reset')).toBe('60');
    expect((await raw(mock.url, 'POST', '/api/v1/orders', { key: acct.api_key, body: order })).status).toBe(429);
    expect((await raw(mock.url, 'GET', `/api/v1/orders/${id}`, { key: acct.api_key })).status).toBe(200);
    // Retry-After counts down on the clock; the window resets after it
    await mock.state.advance(45_000);
    const later = await raw(mock.url, 'GET', '/api/v1/orders', { key: acct.api_key });
    expect([later.status, later.headers.get('retry-after')]).toEqual([429, '15']);
    await mock.state.advance(15_000);
    const reset = await raw(mock.url, 'GET', '/api/v1/orders', { key: acct.api_key });
    expect([reset.status, reset.headers.get('ratelimit-remaining')]).toEqual([200, '9']);
  });

  it.each([
    ['withdraw', 5, ['POST /api/v1/withdraw']],
    ['balance', 60, ['GET /api/v1/balance']],
    ['history', 60, ['GET /api/v1/history', 'GET /api/v1/history/summary']],
    ['other', 100, ['GET /api/v1/deposit/info', 'GET /api/v1/webhooks', 'GET /api/v1/orders/preview?resource=ENERGY&amount=65000&duration=3600']],
    ['prices', 300, ['GET /api/v1/prices', 'GET /api/v1/prices/best?resource=ENERGY', 'GET /api/v1/prices/stats', 'GET /api/v1/prices/history?period=1h']],
  ] as const)('%s: %i per minute, shared by its endpoints', async (_group, limit, endpoints) => {
    await mock.state.advance(60_000); // fresh windows
    const acct = mock.state.createAccount({ trx_sun: 1e12 });
    let i = 0;
    const call = () => {
      const [method, path] = endpoints[i++ % endpoints.length]!.split(' ') as [string, string];
      const body = method === 'POST' ? { address: TARGET, amount: 50_000_000, currency: 'TRX' } : undefined;
      return raw(mock.url, method, path, { key: acct.api_key, body });
    };
    const { passed, limited } = await exhaust(call, limit + 5);
    expect(passed).toBe(limit);
    expect(limited.headers.get('ratelimit-limit')).toBe(String(limit));
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('the SDK gets RateLimitedError carrying Retry-After', async () => {
    await mock.state.advance(60_000);
    const acct = mock.state.createAccount({ trx_sun: 1e9 });
    const sdk = new TrxRent({ baseUrl: mock.url, apiKey: acct.api_key, maxRetries: 0 });
    for (let i = 0; i < 5; i++) await sdk.withdrawals.create({ address: TARGET, amount: 50_000_000, currency: 'TRX' });
    const error = await sdk.withdrawals.create({ address: TARGET, amount: 50_000_000, currency: 'TRX' }).catch((e: unknown) => e as any);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfterMs).toBe(60_000);
  });
});

describe('configuration and scope', () => {
  it('limits are per IP (X-Forwarded-For in-process; the socket address over HTTP)', async () => {
    const state = createMockState({ clock: createManualClock(T0) });
    const server = setupServer(...createHandlers(state, { rateLimits: { balance: 2 } }));
    server.listen({ onUnhandledRequest: 'error' });
    try {
      const get = (ip: string) => fetch('http://mock.test/api/v1/balance', { headers: { 'x-api-key': state.demo.api_key, 'x-forwarded-for': ip } });
      expect([(await get('10.0.0.1')).status, (await get('10.0.0.1')).status, (await get('10.0.0.1')).status]).toEqual([200, 200, 429]);
      expect((await get('10.0.0.2')).status).toBe(200);
    } finally {
      server.close();
      state.dispose();
    }
  });

  it('numbers and window are configurable; rateLimits: false turns them off', async () => {
    const tight = await manualServer({ rateLimits: { prices: 2, windowMs: 1_000 } });
    const off = await manualServer({ rateLimits: false });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await raw(tight.url, 'GET', '/api/v1/prices')).status);
      expect(statuses).toEqual([200, 200, 429]);
      await tight.state.advance(1_000);
      expect((await raw(tight.url, 'GET', '/api/v1/prices')).status).toBe(200);
      for (let i = 0; i < 400; i++) {
        const r = await raw(off.url, 'GET', '/api/v1/prices');
        expect(r.status).toBe(200);
        expect(r.headers.get('ratelimit-limit')).toBeNull();
      }
    } finally {
      await tight.close();
      await off.close();
    }
  });

  it('/__mock helpers and unknown routes are not limited', async () => {
    const tight = await manualServer({ rateLimits: { other: 1, prices: 1 } });
    try {
      for (let i = 0; i < 5; i++) {
        expect((await raw(tight.url, 'GET', '/__mock/state')).status).toBe(200);
        expect((await raw(tight.url, 'GET', '/api/v1/unknown')).status).toBe(404);
      }
    } finally {
      await tight.close();
    }
  });
});

afterEach(() => {
  expect(mock.state.checkInvariants().problems).toEqual([]);
});
