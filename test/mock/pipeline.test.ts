/**
 * The one pipeline: every route family (account, paid, TRON node, helpers) runs the same stages.
 * Paid routes get chaos and rate limits like the account API; routes answer only on their exact
 * paths; an unexpected error is a 500 that names nothing internal; the fetch adapter and the
 * node:http server answer alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ROUTES, type MockServer, type RouteDef, createFetchHandler, createManualClock, createMockState, createPipeline } from '../../src/mock/index.js';
import { T0, manualServer, raw } from './helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await manualServer({ rateLimits: { x402: 2, windowMs: 60_000 } });
});
afterAll(async () => {
  await mock.close();
});

describe('paid routes run the shared stages', () => {
  it('are rate limited in their own group (429 RATE_LIMITED with RateLimit headers), before any challenge', async () => {
    const first = await raw(mock.url, 'GET', '/x402/tron/prices');
    expect(first.status).toBe(402);
    expect(first.headers.get('ratelimit-limit')).toBe('2');
    expect(first.headers.get('ratelimit-remaining')).toBe('1');
    expect((await raw(mock.url, 'GET', '/x402/tron/network')).status).toBe(402);
    const third = await raw(mock.url, 'GET', '/x402/tron/prices');
    expect(third.status).toBe(429);
    expect(third.json.error.code).toBe('RATE_LIMITED');
    expect(third.json.error.details.group).toBe('x402');
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    // the account API's groups are untouched by the paid group's use
    expect((await raw(mock.url, 'GET', '/api/v1/prices')).status).toBe(200);
  });

  it('get chaos faults: 500, 503 and 429 envelopes, and a dropped connection', async () => {
    const state = createMockState({ clock: createManualClock(T0) });
    const handle = createFetchHandler(state, { rateLimits: false });
    try {
      for (const [kind, status, code] of [
        ['500', 500, 'INTERNAL_ERROR'],
        ['503', 503, 'MAINTENANCE'],
        ['429', 429, 'RATE_LIMITED'],
      ] as const) {
        const res = await handle(new Request('http://mock.test/x402/tron/prices', { headers: { 'x-mock-chaos': kind } }));
        expect(res.status, kind).toBe(status);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
        expect(res.headers.get('x-mock-chaos')).toBe(kind);
      }
      const dropped = await handle(new Request('http://mock.test/x402/tron/prices', { headers: { 'x-mock-chaos': 'drop' } }));
      expect(dropped.type).toBe('error');
      // seeded chaos at rate 1 reaches paid routes too
      const always = createFetchHandler(state, { rateLimits: false, chaos: { rate: 1, kinds: [503] } });
      expect((await always(new Request('http://mock.test/x402/tron/network'))).status).toBe(503);
    } finally {
      state.dispose();
    }
  });
});

describe('exact paths', () => {
  it('answer only under /api/v1/ and /x402/tron/, never under another prefix', async () => {
    const cases: Array<[string, string, number]> = [
      ['GET', '/api/v1/api/v1/prices', 404],
      ['GET', '/prefix/api/v1/prices', 404],
      ['GET', '/API/V1/PRICES', 404],
      ['GET', '/x402/tron/wallet/getnowblock', 404],
      ['POST', '/x402/tron/wallet/getnowblock', 404],
      ['GET', '/api/v1/prices/', 200],
      ['GET', '/api/v1/prices', 200],
    ];
    for (const [method, path, status] of cases) {
      const res = await raw(mock.url, method, path);
      expect(res.status, `${method} ${path}`).toBe(status);
      if (status === 404) expect(res.json.error.code).toBe('NOT_FOUND');
    }
  });

  it('/x402/tron/rpc/{method} is paid whether the method is two segments or one with %2F; anything else is a free 400', async () => {
    const state = createMockState({ clock: createManualClock(T0) });
    const handle = createFetchHandler(state, { rateLimits: false });
    try {
      for (const path of ['/x402/tron/rpc/wallet/getnowblock', '/x402/tron/rpc/wallet%2Fgetnowblock', '/x402/tron/rpc/getnowblock']) {
        const res = await handle(new Request(`http://mock.test${path}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }));
        expect(res.status, path).toBe(402);
      }
      const smuggled = await handle(
        new Request('http://mock.test/x402/tron/rpc/x/wallet/broadcasttransaction', {
          method: 'POST',
          body: '{}',
          headers: { 'content-type': 'application/json' },
        }),
      );
      expect(smuggled.status).toBe(400);
      expect(((await smuggled.json()) as { error: { details: { field: string } } }).error.details.field).toBe('method');
      // the simulated node itself stays at /wallet/* (free, as a TRON node is)
      expect((await handle(new Request('http://mock.test/wallet/getnowblock', { method: 'POST' }))).status).toBe(200);
    } finally {
      state.dispose();
    }
  });
});

describe('errors', () => {
  it('an unexpected error is a 500 INTERNAL_ERROR envelope that leaks nothing', async () => {
    const state = createMockState({ clock: createManualClock(T0) });
    const boom: RouteDef = {
      method: 'GET',
      path: '/api/v1/boom',
      group: 'other',
      auth: 'public',
      handle() {
        throw new Error('ENOENT /home/dev/.secrets/key.json sk_live_abc');
      },
    };
    const pipeline = createPipeline(state, [boom, ...ALL_ROUTES], { rateLimits: false });
    try {
      const res = await pipeline.handle({
        method: 'GET',
        path: '/api/v1/boom',
        query: '',
        headers: new Headers(),
        body: '',
        ip: '127.0.0.1',
        origin: 'http://mock.test',
      });
      expect(res?.status).toBe(500);
      const body = JSON.parse(res!.body) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('INTERNAL_ERROR');
      expect(res!.body).not.toMatch(/ENOENT|secrets|sk_live/);
      // no route: null, so each adapter decides (404 envelope, or msw passing it on)
      expect(
        await pipeline.handle({ method: 'GET', path: '/elsewhere', query: '', headers: new Headers(), body: '', ip: '127.0.0.1', origin: 'http://mock.test' }),
      ).toBeNull();
    } finally {
      state.dispose();
    }
  });

  it('the fetch adapter and the HTTP server give the same status and body', async () => {
    const a = await manualServer({ seed: 5 });
    const stateB = createMockState({ seed: 5, clock: createManualClock(T0) });
    const handle = createFetchHandler(stateB, { rateLimits: false });
    try {
      for (const path of [
        '/api/v1/prices',
        '/api/v1/orders/preview?resource=ENERGY&amount=65000&duration=3600',
        '/api/v1/nope',
        '/x402/tron/account/nope',
        '/wallet/getnowblock',
      ]) {
        const viaHttp = await raw(a.url, 'GET', path);
        const viaFetch = await handle(new Request(`${a.url}${path}`));
        expect(viaFetch.status, path).toBe(viaHttp.status);
        expect(await viaFetch.text(), path).toBe(viaHttp.text);
      }
    } finally {
      await a.close();
      stateB.dispose();
    }
  });
});

describe("the fetch adapter as the SDK's fetch", () => {
  it('runs the README walk without sockets: order placed, clock advanced, order FILLED', async () => {
    const { TrxRent } = await import('../../src/index.js');
    const state = createMockState({ clock: createManualClock(T0) });
    const client = new TrxRent({
      baseUrl: 'https://api.test',
      apiKey: state.demo.api_key,
      fetch: createFetchHandler(state, { rateLimits: false }),
      maxRetries: 0,
    });
    try {
      const order = await client.orders.create({
        resource_type: 'ENERGY',
        amount: 65_000,
        duration_sec: 3600,
        target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
      });
      expect(order.status).toBe('PENDING');
      await state.advance(1_000);
      expect((await client.orders.get(order.id)).status).toBe('FILLED');
    } finally {
      state.dispose();
    }
  });
});

describe('the contract', () => {
  it('the mock serves its OpenAPI document at /openapi.json, naming itself as the server', async () => {
    const { buildOpenApiDocument } = await import('../../src/openapi/document.js');
    const res = await raw(mock.url, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.json).toEqual(buildOpenApiDocument({ serverUrl: mock.url }));
    expect(res.json.openapi).toBe('3.1.0');
  });
});
