import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import {
  BelowMinimumOrderError,
  BroadcastFailedError,
  ConnectionError,
  DuplicateRequestError,
  ForbiddenError,
  InsufficientBalanceError,
  InternalError,
  InvalidAddressError,
  MaintenanceError,
  NotFoundError,
  PriceExceededError,
  ProviderUnavailableError,
  RateLimitedError,
  TimeoutError,
  TrxRent,
  TrxRentError,
  UnauthorizedError,
  ValidationError,
  isTrxRentError,
} from '../../src/index.js';
import { deadline } from '../../src/http/deadline.js';
import { path, segment } from '../../src/api/segment.js';
import { isLoopbackHost } from '../../src/internal/net.js';
import { backoffDelay, DEFAULT_RETRY_POLICY, parseRetryAfter } from '../../src/http/retry.js';
import { error, type Reply, scriptedServer } from '../helpers/scripted-server.js';

const KEY = `sk_live_${'ab'.repeat(32)}`;
const ADDRESS = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
const FAST = { retry: { baseDelayMs: 5, maxDelayMs: 20 } };
const orderBody = {
  id: '5d0b8a0c-8f6e-4c1e-9d1e-000000000001',
  status: 'PENDING',
  resource_type: 'ENERGY',
  order_type: 'MARKET',
  amount: 65_000,
  duration_sec: 3600,
  target_address: ADDRESS,
  created_at: '2026-11-20T00:00:00Z',
};
const orderParams = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: ADDRESS } as const;
const priceBody = [
  {
    provider: 'netts',
    is_market: false,
    energy_prices: [{ duration_sec: 3600, price_sun: 30 }],
    bandwidth_prices: [],
    available_energy: 1_000_000,
    available_bandwidth: 0,
    fetched_at: '2026-11-20T00:00:00Z',
  },
];

let servers: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function serve(handler: (req: { method: string; url: string; headers: Record<string, unknown>; body: string }, i: number) => Reply) {
  const server = await scriptedServer(handler);
  servers.push(server);
  return server;
}

describe('requests and authentication', () => {
  it('sends X-API-Key, or Authorization: Bearer for a JWT, and never both', async () => {
    const server = await serve(() => ({ status: 200, body: { trx: 1, usdt: 2, trx_locked: 3 } }));
    await new TrxRent({ apiKey: KEY, baseUrl: server.url }).balance.get();
    await new TrxRent({ jwt: 'eyJhbGciOiJIUzI1NiJ9.e30.sig', baseUrl: server.url }).balance.get();
    expect(server.requests[0]!.headers['x-api-key']).toBe(KEY);
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[1]!.headers.authorization).toBe('Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig');
    expect(server.requests[1]!.headers['x-api-key']).toBeUndefined();
  });

  it('has no silent default host: baseUrl comes from the option or TRX_RENT_BASE_URL', async () => {
    const saved = process.env.TRX_RENT_BASE_URL;
    delete process.env.TRX_RENT_BASE_URL;
    try {
      expect(() => new TrxRent({ apiKey: KEY })).toThrow(/TRX_RENT_BASE_URL/);
      const server = await serve(() => ({ status: 200, body: priceBody }));
      process.env.TRX_RENT_BASE_URL = `${server.url}/api/v1/`;
      await new TrxRent().prices.list();
      expect(server.requests[0]!.url).toBe('/api/v1/prices'); // a base ending in /api/v1 is not doubled
    } finally {
      if (saved === undefined) delete process.env.TRX_RENT_BASE_URL;
      else process.env.TRX_RENT_BASE_URL = saved;
    }
  });

  it('fails locally without credentials on authenticated endpoints, but public ones work', async () => {
    const saved = process.env.TRX_RENT_API_KEY;
    delete process.env.TRX_RENT_API_KEY;
    try {
      const server = await serve(() => ({ status: 200, body: priceBody }));
      const client = new TrxRent({ baseUrl: server.url });
      await expect(client.balance.get()).rejects.toBeInstanceOf(UnauthorizedError);
      await expect(client.prices.list()).resolves.toHaveLength(1);
      expect(server.requests).toHaveLength(1);
    } finally {
      if (saved !== undefined) process.env.TRX_RENT_API_KEY = saved;
    }
  });

  it('encodes path ids and query parameters; an id holding a slash is refused, not encoded', async () => {
    // GET /orders/:id answers the full order, fills included (the table's OrderDetail).
    const server = await serve(() => ({ status: 200, body: { ...orderBody, fills: [] } }));
    const client = new TrxRent({ apiKey: KEY, baseUrl: server.url });
    await expect(client.orders.get('a/b?c')).rejects.toMatchObject({ code: 'VALIDATION_ERROR', field: 'id' });
    await client.orders.get('a b?c#d');
    await client.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 }).catch(() => undefined);
    expect(server.requests[0]!.url).toBe('/api/v1/orders/a%20b%3Fc%23d');
    expect(server.requests[1]!.url).toBe('/api/v1/orders/preview?resource=ENERGY&amount=65000&duration=3600');
  });
});

describe('envelopes', () => {
  it('accepts the {data} envelope and the bare body alike', async () => {
    const server = await serve((_, i) => ({ status: 200, body: i === 0 ? priceBody : { data: priceBody } }));
    const client = new TrxRent({ baseUrl: server.url });
    const bare = await client.prices.list();
    const wrapped = await client.prices.list();
    expect(wrapped).toEqual(bare);
    expect(bare[0]!.provider).toBe('netts');
  });

  it('keeps unknown fields and unknown enum values, and accepts the live service number/string variants', async () => {
    const live = {
      ...orderBody,
      status: 'PARTIALLY_FILLED',
      expires_at: '2026-11-21T00:00:00Z',
      fills: [
        {
          provider: 'netts',
          amount: 65_000,
          price_sun: 30,
          cost_sun: 1_950_000,
          tx_id: 'ab'.repeat(32),
          status: 'CONFIRMED',
          verified: false,
          tronscan_url: 'https://tronscan.org/#/transaction/x',
          delegation_tx: 'cd'.repeat(32),
        },
      ],
    };
    const server = await serve((_, i) =>
      i === 0 ? { status: 200, body: { data: live } } : { status: 200, body: [{ ...priceBody[0], fetched_at: 1_763_000_000, extra_field: true }] },
    );
    const client = new TrxRent({ apiKey: KEY, baseUrl: server.url });
    const order = await client.orders.get(orderBody.id);
    expect(order.status).toBe('PARTIALLY_FILLED');
    expect((order as Record<string, unknown>).expires_at).toBe('2026-11-21T00:00:00Z');
    expect((order.fills![0] as Record<string, unknown>).delegation_tx).toBe('cd'.repeat(32));
    const prices = await client.prices.list();
    expect(prices[0]!.fetched_at).toBe(1_763_000_000);
    expect((prices[0] as Record<string, unknown>).extra_field).toBe(true);
  });

  it('treats an error envelope on a 2xx as the error it is', async () => {
    const server = await serve(() => ({ status: 200, body: error('INSUFFICIENT_BALANCE', 'balance too low') }));
    await expect(new TrxRent({ apiKey: KEY, baseUrl: server.url }).balance.get()).rejects.toBeInstanceOf(InsufficientBalanceError);
  });

  it('a response that does not match the schema is an INVALID_RESPONSE error, not a crash later', async () => {
    const server = await serve((_, i) => (i === 0 ? { status: 200, body: { trx: 'lots' } } : { status: 200, raw: '<html>' }));
    const client = new TrxRent({ apiKey: KEY, baseUrl: server.url });
    await expect(client.balance.get()).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
    await expect(client.balance.get()).rejects.toMatchObject({ code: 'INVALID_RESPONSE', status: 200 });
  });

  it('withResponse() exposes the raw response (201 first create vs 200 replay)', async () => {
    const server = await serve((_, i) => ({ status: i === 0 ? 201 : 200, body: orderBody }));
    const client = new TrxRent({ apiKey: KEY, baseUrl: server.url });
    const first = await client.orders.create(orderParams, { idempotencyKey: 'k1' }).withResponse();
    const replay = await client.orders.create(orderParams, { idempotencyKey: 'k1' }).withResponse();
    expect(first.response.status).toBe(201);
    expect(replay.response.status).toBe(200);
    expect(replay.data).toEqual(first.data);
  });
});

describe('promise semantics', () => {
  it('a call starts at once: fire-and-forget really sends, and awaiting twice sends once', async () => {
    const server = await serve(() => ({ status: 200, body: { deleted: true } }));
    const client = new TrxRent({ apiKey: KEY, baseUrl: server.url });
    void client.webhooks.delete('wh_1');
    await expect.poll(() => server.requests.length, { timeout: 2000, interval: 5 }).toBe(1);
    const pending = client.webhooks.delete('wh_2');
    await pending;
    await pending;
    await pending.withResponse();
    expect(server.requests.map((r) => r.url)).toEqual(['/api/v1/webhooks/wh_1', '/api/v1/webhooks/wh_2']);
  });

  it('a validation failure is a rejected promise, never a synchronous throw', async () => {
    const client = new TrxRent({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9' });
    let promise: Promise<unknown> | undefined;
    expect(() => {
      promise = client.orders.create({ ...orderParams, amount: 1 });
    }).not.toThrow();
    await expect(promise).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('typed errors follow the body code under both statuses', () => {
  const cases: Array<[string, number[], new (...a: never[]) => TrxRentError]> = [
    ['UNAUTHORIZED', [401], UnauthorizedError],
    ['FORBIDDEN', [403], ForbiddenError],
    ['NOT_FOUND', [404], NotFoundError],
    ['DUPLICATE_REQUEST', [409], DuplicateRequestError],
    ['VALIDATION_ERROR', [422, 400], ValidationError],
    ['INSUFFICIENT_BALANCE', [422, 402, 400], InsufficientBalanceError],
    ['BELOW_MINIMUM_ORDER', [422], BelowMinimumOrderError],
    ['INVALID_ADDRESS', [422], InvalidAddressError],
    ['PRICE_EXCEEDED', [422], PriceExceededError],
    ['RATE_LIMITED', [429], RateLimitedError],
    ['PROVIDER_UNAVAILABLE', [503], ProviderUnavailableError],
    ['MAINTENANCE', [503], MaintenanceError],
    ['INTERNAL_ERROR', [500], InternalError],
    ['BROADCAST_FAILED', [502], BroadcastFailedError],
  ];
  for (const [code, statuses, Class] of cases) {
    for (const status of statuses) {
      it(`${code} as ${status}`, async () => {
        const server = await serve(() => ({ status, body: error(code, `msg ${code}`, { field: 'amount', min: 65000 }) }));
        const client = new TrxRent({ apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
        const err = await client.balance.get().catch((e: unknown) => e);
        expect(err).toBeInstanceOf(Class);
        expect(err).toBeInstanceOf(TrxRentError);
        expect(err).toMatchObject({ code, status, message: `msg ${code}`, details: { field: 'amount', min: 65000 } });
        expect((err as TrxRentError).headers?.get('content-type')).toBe('application/json');
      });
    }
  }

  it('an unknown code keeps its code on a plain TrxRentError', async () => {
    const server = await serve(() => ({ status: 400, body: error('INSUFFICIENT_FUNDS', 'old name') }));
    const err = await new TrxRent({ apiKey: KEY, baseUrl: server.url }).balance.get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TrxRentError);
    expect(err).not.toBeInstanceOf(InsufficientBalanceError);
    expect(err).toMatchObject({ code: 'INSUFFICIENT_FUNDS', status: 400 });
  });

  it('a non-JSON error body (proxy HTML) still gives a typed error by status', async () => {
    const server = await serve(() => ({ status: 404, raw: '<html>Not Found</html>', headers: { 'content-type': 'text/html' } }));
    const err = await new TrxRent({ apiKey: KEY, baseUrl: server.url }).orders.get('x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
  });
});

describe('retries', () => {
  it('retries a GET on 503 and succeeds', async () => {
    const server = await serve((_, i) => (i < 2 ? { status: 503, body: error('PROVIDER_UNAVAILABLE') } : { status: 200, body: priceBody }));
    await expect(new TrxRent({ baseUrl: server.url, ...FAST }).prices.list()).resolves.toHaveLength(1);
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after maxRetries and throws the last typed error', async () => {
    const server = await serve(() => ({ status: 500, body: error('INTERNAL_ERROR') }));
    await expect(new TrxRent({ baseUrl: server.url, maxRetries: 1, ...FAST }).prices.list()).rejects.toBeInstanceOf(InternalError);
    expect(server.requests).toHaveLength(2);
  });

  it('honours Retry-After in seconds on 429', async () => {
    const server = await serve((_, i) =>
      i === 0 ? { status: 429, body: error('RATE_LIMITED'), headers: { 'retry-after': '1' } } : { status: 200, body: priceBody },
    );
    const started = Date.now();
    await new TrxRent({ baseUrl: server.url, ...FAST }).prices.list();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it('honours Retry-After as an HTTP date', () => {
    const now = Date.parse('2026-11-20T10:00:00Z');
    expect(parseRetryAfter('Fri, 20 Nov 2026 10:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('does not wait out a Retry-After beyond the cap: throws RateLimitedError with retryAfterMs', async () => {
    const server = await serve(() => ({ status: 429, body: error('RATE_LIMITED', 'slow down'), headers: { 'retry-after': '3600' } }));
    const err = await new TrxRent({ baseUrl: server.url, ...FAST }).prices.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).retryAfterMs).toBe(3_600_000);
    expect(server.requests).toHaveLength(1);
  });

  it('backoff is exponential with full jitter and a ceiling', () => {
    const policy = DEFAULT_RETRY_POLICY;
    expect(backoffDelay(0, policy, () => 1)).toBe(500);
    expect(backoffDelay(1, policy, () => 1)).toBe(1000);
    expect(backoffDelay(10, policy, () => 1)).toBe(8000);
    expect(backoffDelay(3, policy, () => 0)).toBe(0);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(1000);
  });

  it('retries network errors (dropped connection) on GET', async () => {
    const server = await serve((_, i) => (i === 0 ? 'drop' : { status: 200, body: priceBody }));
    await expect(new TrxRent({ baseUrl: server.url, ...FAST }).prices.list()).resolves.toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('a connection that never opens is a ConnectionError', async () => {
    const server = await serve(() => ({ status: 200, body: priceBody }));
    const url = server.url;
    await server.close();
    servers = [];
    await expect(new TrxRent({ baseUrl: url, maxRetries: 0 }).prices.list()).rejects.toBeInstanceOf(ConnectionError);
  });

  it('times out each attempt and retries; TimeoutError when all attempts time out', async () => {
    const server = await serve((_, i) => ({ status: 200, body: priceBody, delayMs: i === 0 ? 500 : 0 }));
    await expect(new TrxRent({ baseUrl: server.url, timeoutMs: 100, ...FAST }).prices.list()).resolves.toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    const slow = await serve(() => ({ status: 200, body: priceBody, delayMs: 400 }));
    await expect(new TrxRent({ baseUrl: slow.url, timeoutMs: 80, maxRetries: 1, ...FAST }).prices.list()).rejects.toBeInstanceOf(TimeoutError);
    expect(slow.requests).toHaveLength(2);
  });

  it('a timed-out attempt closes its connection at once (a script that hits a timeout can exit)', async () => {
    const { createServer } = await import('node:net');
    const asked: Array<{ closedAt?: number }> = [];
    const silent = createServer((socket) => {
      socket.once('data', () => {
        const entry: { closedAt?: number } = {};
        asked.push(entry);
        socket.on('close', () => (entry.closedAt = Date.now()));
      });
    }); // reads the request and never answers
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(silent.address() as { port: number }).port}`;
      const started = Date.now();
      await expect(new TrxRent({ baseUrl: url, timeoutMs: 100, maxRetries: 0 }).prices.list()).rejects.toBeInstanceOf(TimeoutError);
      const ended = Date.now();
      await new Promise((r) => setTimeout(r, 200));
      expect(asked).toHaveLength(1);
      // closed by the client at the deadline (before: open until the server answered, or undici's 300 s header timeout)
      expect(asked[0]!.closedAt).toBeDefined();
      expect(asked[0]!.closedAt! - started).toBeLessThan(ended - started + 150);
    } finally {
      silent.close();
    }
  });

  it('aborting the signal of a fetch that has ended leaves its kept-alive socket to the next request (what lending signals relies on)', async () => {
    // The transport lends one AbortController to several attempts in turn (src/http/transport.ts):
    // a later abort reaches the ended fetches it served. Checked here against undici itself.
    const { createServer } = await import('node:http');
    const sockets = new Set<unknown>();
    const server = createServer((req, res) => {
      sockets.add(req.socket);
      setTimeout(() => res.end(JSON.stringify({ path: req.url })), req.url === '/slow' ? 150 : 0);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const lent = new AbortController();
      const first = await fetch(`${base}/fast`, { signal: lent.signal });
      expect(await first.json()).toEqual({ path: '/fast' });
      await new Promise((r) => setTimeout(r, 20)); // the socket goes back to the pool
      const next = fetch(`${base}/slow`).then((r) => r.json()); // takes the same kept-alive socket
      await new Promise((r) => setTimeout(r, 50));
      lent.abort(); // while the next request is in flight on that socket
      expect(await next).toEqual({ path: '/slow' });
      expect(sockets.size).toBe(1);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('lent signals: attempts that time out among many, sequential and concurrent, fail alone', async () => {
    let hung = 0;
    const server = await serve((req) => {
      if (req.url.includes('/orders/hang')) {
        hung++;
        return { status: 200, body: {}, delayMs: 6_000 };
      }
      return { status: 200, body: priceBody };
    });
    // A timeout well above what a loaded machine takes for 22 quick answers (200 ms timed one out
    // on Node 24 under load), and a hang well above the timeout.
    const client = new TrxRent({ baseUrl: server.url, apiKey: KEY, timeoutMs: 1_500, maxRetries: 0 });
    for (let i = 0; i < 40; i++) await client.prices.list(); // the lent controllers go round
    // Alone: the timed-out call's controller is aborted, so it must not be lent again.
    await expect(client.orders.get('hang')).rejects.toBeInstanceOf(TimeoutError);
    for (let i = 0; i < 5; i++) expect(await client.prices.list()).toHaveLength(1);
    // First in the batch, the hanging call borrows the controller the sequential calls used, so
    // its abort also reaches their (ended) fetches.
    const all = await Promise.allSettled([
      client.orders.get('hang'),
      ...Array.from({ length: 10 }, () => client.prices.list()),
      client.orders.get('hang'),
      ...Array.from({ length: 10 }, () => client.prices.list()),
    ]);
    expect(all.map((r) => r.status)).toEqual(['rejected', ...Array(10).fill('fulfilled'), 'rejected', ...Array(10).fill('fulfilled')]);
    expect(all.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason)).toEqual([
      expect.any(TimeoutError),
      expect.any(TimeoutError),
    ]);
    expect(hung).toBe(3);
    for (let i = 0; i < 40; i++) expect(await client.prices.list()).toHaveLength(1);
  });

  it('a retried POST reuses one generated Idempotency-Key', async () => {
    const server = await serve((_, i) => (i === 0 ? 'drop' : i === 1 ? { status: 503, body: error('MAINTENANCE') } : { status: 201, body: orderBody }));
    const order = await new TrxRent({ apiKey: KEY, baseUrl: server.url, ...FAST }).orders.create(orderParams);
    expect(order.id).toBe(orderBody.id);
    const keys = server.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(typeof keys[0]).toBe('string');
    expect(new Set(keys).size).toBe(1);
    expect(server.requests.every((r) => JSON.parse(r.body).amount === 65_000)).toBe(true);
  });

  it('withdrawals.create generates a key too, and uses the caller key when given', async () => {
    const withdrawal = { id: 'w1', status: 'PENDING', amount: 50_000_000, currency: 'TRX', address: ADDRESS };
    const server = await serve((_, i) => (i % 2 === 0 ? { status: 503, body: error('MAINTENANCE') } : { status: 200, body: withdrawal }));
    const client = new TrxRent({ apiKey: KEY, baseUrl: server.url, ...FAST });
    await client.withdrawals.create({ address: ADDRESS, amount: 50_000_000, currency: 'TRX' });
    await client.withdrawals.create({ address: ADDRESS, amount: 50_000_000, currency: 'TRX' }, { idempotencyKey: 'mine' });
    const keys = server.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).toBe('mine');
    expect(keys[3]).toBe('mine');
    expect(keys[0]).not.toBe('mine');
  });

  it('a 409 on a retry means our first attempt is still in flight: wait and ask again', async () => {
    const server = await serve((_, i) =>
      i === 0 ? 'drop' : i === 1 ? { status: 409, body: error('DUPLICATE_REQUEST', 'still being processed') } : { status: 200, body: orderBody },
    );
    await expect(new TrxRent({ apiKey: KEY, baseUrl: server.url, ...FAST }).orders.create(orderParams)).resolves.toMatchObject({ id: orderBody.id });
    expect(server.requests).toHaveLength(3);
  });

  it('a 409 on the first attempt (key reused with other parameters) is thrown at once', async () => {
    const server = await serve(() => ({ status: 409, body: error('DUPLICATE_REQUEST', 'different parameters') }));
    await expect(new TrxRent({ apiKey: KEY, baseUrl: server.url, ...FAST }).orders.create(orderParams, { idempotencyKey: 'used' })).rejects.toBeInstanceOf(
      DuplicateRequestError,
    );
    expect(server.requests).toHaveLength(1);
  });

  it('never retries a POST without an Idempotency-Key', async () => {
    const server = await serve(() => ({ status: 503, body: error('MAINTENANCE') }));
    const client = new TrxRent({ apiKey: KEY, baseUrl: server.url, ...FAST });
    await expect(client.webhooks.create({ url: 'https://example.com/hook', events: ['order.filled'] })).rejects.toBeInstanceOf(MaintenanceError);
    expect(server.requests).toHaveLength(1);
    const dropped = await serve(() => 'drop');
    await expect(new TrxRent({ apiKey: KEY, baseUrl: dropped.url, ...FAST }).keys.create({ name: 'ci', permissions: ['view_orders'] })).rejects.toBeInstanceOf(
      ConnectionError,
    );
    expect(dropped.requests).toHaveLength(1);
  });

  it('does not retry 4xx other than 408/429', async () => {
    const server = await serve(() => ({ status: 422, body: error('PRICE_EXCEEDED') }));
    await expect(new TrxRent({ apiKey: KEY, baseUrl: server.url, ...FAST }).orders.get('x')).rejects.toBeInstanceOf(PriceExceededError);
    expect(server.requests).toHaveLength(1);
  });

  it('a caller abort stops at once and is not retried', async () => {
    const server = await serve(() => ({ status: 200, body: priceBody, delayMs: 1000 }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(new TrxRent({ baseUrl: server.url, ...FAST }).prices.list({ signal: controller.signal })).rejects.toThrow();
    expect(server.requests).toHaveLength(1);
  });
});

describe('local validation sends nothing', () => {
  const invalid: Array<[string, (c: TrxRent) => Promise<unknown>, string, new (...a: never[]) => TrxRentError]> = [
    ['energy below 65000', (c) => c.orders.create({ ...orderParams, amount: 64_999 }), 'amount', ValidationError],
    [
      'bad checksum address',
      (c) => c.orders.create({ ...orderParams, target_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u' }),
      'target_address',
      InvalidAddressError,
    ],
    ['unknown resource', (c) => c.orders.create({ ...orderParams, resource_type: 'GAS' as never }), 'resource_type', ValidationError],
    ['unknown order type', (c) => c.orders.create({ ...orderParams, order_type: 'FOK' as never }), 'order_type', ValidationError],
    ['fractional duration', (c) => c.orders.create({ ...orderParams, duration_sec: 1.5 }), 'duration_sec', ValidationError],
    ['zero duration', (c) => c.orders.create({ ...orderParams, duration_sec: 0 }), 'duration_sec', ValidationError],
    ['LIMIT without a cap', (c) => c.orders.create({ ...orderParams, order_type: 'LIMIT' }), 'max_price_sun', ValidationError],
    ['unknown field', (c) => c.orders.create({ ...orderParams, energy_amount: 1 } as never), '', ValidationError],
    ['preview below minimum', (c) => c.orders.preview({ resource: 'ENERGY', amount: 100, duration: 3600 }), 'amount', ValidationError],
    ['withdrawal below 50 TRX', (c) => c.withdrawals.create({ address: ADDRESS, amount: 49_999_999, currency: 'TRX' }), 'amount', ValidationError],
    ['withdrawal currency', (c) => c.withdrawals.create({ address: ADDRESS, amount: 50_000_000, currency: 'BTC' as never }), 'currency', ValidationError],
    ['withdrawal address', (c) => c.withdrawals.create({ address: 'T123', amount: 50_000_000, currency: 'TRX' }), 'address', InvalidAddressError],
    ['deposit below 1 TRX', (c) => c.deposits.prepare({ amount_sun: 999_999 }), 'amount_sun', ValidationError],
    ['list limit 0', (c) => c.orders.list({ limit: 0 }), 'limit', ValidationError],
    ['list limit 101', (c) => c.orders.list({ limit: 101 }), 'limit', ValidationError],
    ['list status', (c) => c.orders.list({ status: 'DONE' as never }), 'status', ValidationError],
    ['history period', (c) => c.history.list({ period: '1Y' as never }), 'period', ValidationError],
    ['key permissions', (c) => c.keys.create({ name: 'x', permissions: ['admin' as never] }), 'permissions.0', ValidationError],
    ['webhook url not https', (c) => c.webhooks.create({ url: 'http://example.com/h', events: ['order.filled'] }), 'url', ValidationError],
    ['webhook no events', (c) => c.webhooks.create({ url: 'https://example.com/h', events: [] }), 'events', ValidationError],
  ];
  for (const [name, call, field, Class] of invalid) {
    it(name, async () => {
      const server = await serve(() => ({ status: 500, body: error('INTERNAL_ERROR') }));
      const client = new TrxRent({ apiKey: KEY, baseUrl: server.url });
      let thrown: unknown;
      try {
        await call(client);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toBeInstanceOf(Class);
      if (field) expect((thrown as TrxRentError).field).toBe(field);
      expect((thrown as TrxRentError).message.length).toBeGreaterThan(5);
      expect(server.requests).toHaveLength(0);
    });
  }

  it('the minimum is reported in details', async () => {
    const client = new TrxRent({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9' });
    const err = (await client.orders.create({ ...orderParams, amount: 1 }).catch((e: unknown) => e)) as ValidationError;
    // The spec's shape exactly, as the mock sends it: {field, min}.
    expect(err.details).toEqual({ field: 'amount', min: 65_000 });
  });
});

describe('hooks, custom fetch and the debug log', () => {
  it('runs beforeRequest/afterResponse hooks and a custom fetch', async () => {
    const server = await serve(() => ({ status: 200, body: priceBody }));
    const seen: string[] = [];
    const client = new TrxRent({
      baseUrl: server.url,
      fetch: (input, init) => {
        seen.push('fetch');
        return fetch(input, init);
      },
      hooks: {
        beforeRequest: [(req) => void seen.push(`before ${req.method} ${new URL(req.url).pathname}`)],
        afterResponse: [(_req, res) => void seen.push(`after ${res.status}`)],
      },
    });
    await client.prices.list();
    expect(seen).toEqual(['before GET /api/v1/prices', 'fetch', 'after 200']);
  });

  it('logs requests, statuses and retries without ever printing the key or the JWT', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJl';
    const server = await serve((_, i) =>
      i === 0 ? { status: 503, body: error('MAINTENANCE', `key ${KEY} jwt ${jwt}`) } : { status: 200, body: { trx: 1, usdt: 0, trx_locked: 0 } },
    );
    const lines: string[] = [];
    const logger = { debug: (m: string) => lines.push(m) };
    await new TrxRent({ apiKey: KEY, baseUrl: server.url, logLevel: 'debug', logger, ...FAST }).balance.get();
    await new TrxRent({ jwt, baseUrl: server.url, logLevel: 'debug', logger, ...FAST }).balance.get();
    const log = lines.join('\n');
    expect(log).toContain('GET /api/v1/balance');
    expect(log).toContain('503');
    expect(log).toMatch(/retrying in \d+ ms/);
    expect(log).not.toContain(KEY);
    expect(log).not.toContain(KEY.slice(8));
    expect(log).not.toContain(jwt);
  });
});

describe('errors keep what support needs, across builds', () => {
  it('the request id: the x-request-id header, else request_id in the body or its error envelope', async () => {
    const server = await serve((_, i) =>
      i === 0
        ? { status: 404, body: error('NOT_FOUND'), headers: { 'x-request-id': 'req_from_header' } }
        : i === 1
          ? { status: 404, body: { ...error('NOT_FOUND'), request_id: 'req_top' } }
          : i === 2
            ? { status: 404, body: { error: { code: 'NOT_FOUND', message: 'gone', request_id: 'req_inner' } } }
            : { status: 200, body: { unexpected: true }, headers: { 'x-request-id': 'req_shape' } },
    );
    const client = new TrxRent({ apiKey: KEY, baseUrl: server.url, ...FAST });
    for (const id of ['req_from_header', 'req_top', 'req_inner'])
      await expect(client.orders.get('x')).rejects.toMatchObject({ code: 'NOT_FOUND', requestId: id });
    await expect(client.balance.get()).rejects.toMatchObject({ code: 'INVALID_RESPONSE', requestId: 'req_shape' });
  });

  it('isTrxRentError and instanceof TrxRentError hold for errors of the CJS build too (a brand, not the class)', () => {
    const built = new URL('../../dist/index.cjs', import.meta.url);
    expect(existsSync(built), 'build first: npx tsup').toBe(true);
    const cjs = createRequire(import.meta.url)(built.pathname) as typeof import('../../src/index.js');
    const foreign = new cjs.ValidationError({ code: 'VALIDATION_ERROR', message: 'from the other build' });
    expect(foreign).not.toBeInstanceOf(ValidationError); // another class, as expected
    expect(isTrxRentError(foreign)).toBe(true);
    expect(foreign instanceof TrxRentError).toBe(true);
    expect(cjs.isTrxRentError(new NotFoundError({ code: 'NOT_FOUND', message: 'here' }))).toBe(true);
    expect(isTrxRentError(new Error('plain'))).toBe(false);
    expect(isTrxRentError({ code: 'NOT_FOUND' })).toBe(false);
    expect(JSON.stringify(new TrxRentError({ code: 'X', message: 'm' }))).not.toContain('trx-rent.error');
  });
});

describe('request plumbing', () => {
  it('path: every segment encoded; dot segments, slashes (also encoded) and non-strings refused with field id', () => {
    expect(path`/api/v1/orders/${'a b?c#d&e'}`).toBe('/api/v1/orders/a%20b%3Fc%23d%26e');
    expect(segment('%zz')).toBe('%25zz');
    for (const bad of ['', '.', '..', 'a/b', '%2e%2E', '..%2F', 'a%5cb', 'a\\b', 42, undefined]) {
      expect(() => path`/x/${bad}`, String(bad)).toThrow(
        expect.objectContaining({ code: 'VALIDATION_ERROR', details: expect.objectContaining({ field: 'id' }) }),
      );
    }
  });

  it('loopback hosts are told apart from the rest', () => {
    for (const host of ['localhost', 'api.localhost', '127.0.0.1', '127.9.8.7', '[::1]', '::1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com', '[::2]', '127.0.0.1.nip.io'])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('a JWT is refused over plain http to another host too; https is fine', async () => {
    let sent = 0;
    const fetchStub: typeof fetch = async () => {
      sent++;
      return new Response(JSON.stringify({ trx: 1, usdt: 0, trx_locked: 0 }), { status: 200 });
    };
    await expect(new TrxRent({ baseUrl: 'http://api.example.test', jwt: 'eyJ.e30.sig', fetch: fetchStub }).balance.get()).rejects.toMatchObject({
      code: 'INSECURE_TRANSPORT',
    });
    await expect(new TrxRent({ baseUrl: 'https://api.example.test', apiKey: KEY, fetch: fetchStub }).balance.get()).resolves.toMatchObject({ trx: 1 });
    expect(sent).toBe(1);
  });

  it('deadlines sharing a timeout fire in order; a cancelled one never fires', async () => {
    const fired: string[] = [];
    const a = deadline(30, () => fired.push('a'));
    deadline(30, () => fired.push('b'));
    const c = deadline(30, () => fired.push('c'));
    deadline(10, () => fired.push('short'));
    a.cancel();
    await new Promise((r) => setTimeout(r, 15));
    expect(fired).toEqual(['short']);
    c.cancel();
    await new Promise((r) => setTimeout(r, 40));
    expect(fired).toEqual(['short', 'b']);
  });

  it('a redirect answer is final, even for a GET with retries left', async () => {
    const server = await serve(() => ({ status: 302, headers: { location: '/elsewhere' } }));
    const error = await new TrxRent({ baseUrl: server.url, maxRetries: 3, ...FAST }).prices.list().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'REDIRECT_REFUSED', status: 302, details: { location: `${server.url}/elsewhere` } });
    expect(server.requests).toHaveLength(1);
  });

  it("a browser's opaque redirect (status 0, type opaqueredirect) is refused too", async () => {
    // What a browser's fetch gives for `redirect: 'manual'`; Node cannot make one, so a stand-in.
    const opaque = { status: 0, type: 'opaqueredirect', ok: false, headers: new Headers(), body: null } as unknown as Response;
    const error = await new TrxRent({ baseUrl: 'http://127.0.0.1:9', fetch: async () => opaque, maxRetries: 0 }).prices.list().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'REDIRECT_REFUSED', status: 0 });
  });
});
