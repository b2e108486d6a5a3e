/** The same handlers in-process with msw's setupServer: default handlers, a manual-clock state, envelope, drop. */
import { http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { Order } from '../../src/schemas/orders.js';
import { createManualClock, createMockState } from '../../src/mock/index.js';
import { createHandlers, defaultHandlers, defaultState } from '../../src/mock/msw.js';
import { T0, TARGET, isErrorEnvelope } from './helpers.js';

const BASE = 'https://api.trx-rent.test';
const manual = createMockState({ clock: createManualClock(T0), seed: 11 });
const enveloped = createMockState({ clock: createManualClock(T0), seed: 12 });
const dropping = createMockState({ clock: createManualClock(T0), seed: 13 });
const server = setupServer(
  // Each state answers on its own host; `handlers` (the default state) answers everything else.
  ...createHandlers(manual, { rateLimits: false }).map((h) => scoped(h, 'manual.test')),
  ...createHandlers(enveloped, { envelope: true, rateLimits: false }).map((h) => scoped(h, 'envelope.test')),
  ...createHandlers(dropping, { rateLimits: false }).map((h) => scoped(h, 'drop.test')),
  ...defaultHandlers(),
);

/** Restrict a handler to one host by wrapping its resolver. */
function scoped(handler: ReturnType<typeof defaultHandlers>[number], host: string) {
  return http.all(`https://${host}/*`, async ({ request }) => {
    const result = await handler.run({ request, requestId: crypto.randomUUID() });
    return result?.response;
  });
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  server.close();
  for (const s of [manual, enveloped, dropping]) s.dispose();
});

const order = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET } as const;

describe('setupServer(...handlers) with the default state (real clock)', () => {
  it('lists prices, previews, places a MARKET order and sees it FILLED with fills', async () => {
    const sdk = new TrxRent({ baseUrl: BASE, apiKey: defaultState().demo.api_key, maxRetries: 0 });
    expect((await sdk.prices.list()).length).toBe(6);
    const preview = await sdk.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 });
    const before = await sdk.balance.get();
    const created = await sdk.orders.create(order);
    const filled = await sdk.orders.waitFor(created.id, { timeoutMs: 5_000, pollIntervalMs: 100 });
    expect(filled.fills!.length).toBe(1);
    expect(filled.fills![0]!.provider).toBe(preview.best!.provider);
    expect((await sdk.balance.get()).trx).toBe(before.trx - filled.total_cost_sun!);
    const missing = await fetch(`${BASE}/api/v1/nothing-here`);
    expect(missing.status).toBe(404);
    expect(isErrorEnvelope(await missing.json())).toBe(true);
  });
});

describe('createHandlers(state) with a manual clock', () => {
  it('nothing moves until the clock does', async () => {
    const sdk = new TrxRent({ baseUrl: 'https://manual.test', apiKey: manual.demo.api_key, maxRetries: 0 });
    const created = await sdk.orders.create(order);
    await new Promise((r) => setTimeout(r, 1_200));
    expect((await sdk.orders.get(created.id)).status).toBe('PENDING');
    await manual.advance(1_000);
    expect((await sdk.orders.get(created.id)).status).toBe('FILLED');
    expect(manual.checkInvariants().ok).toBe(true);
  });

  it('the /__mock helpers work in-process too', async () => {
    const res = await fetch('https://manual.test/__mock/accounts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ trx_sun: 5_000_000 }),
    });
    const acct = await res.json();
    expect(res.status).toBe(201);
    expect(acct.api_key).toMatch(/^sk_live_/);
    const b = await new TrxRent({ baseUrl: 'https://manual.test', apiKey: acct.api_key }).balance.get();
    expect(b.trx).toBe(5_000_000);
  });
});

describe('envelope mode', () => {
  it('wraps successes in {data}; errors keep the bare error envelope; the SDK reads both', async () => {
    const res = await fetch('https://envelope.test/api/v1/balance', { headers: { 'x-api-key': enveloped.demo.api_key } });
    const body = await res.json();
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data).toMatchObject({ trx: 1_000_000_000, trx_locked: 0 });
    const prices = await (await fetch('https://envelope.test/api/v1/prices')).json();
    expect(Array.isArray(prices.data)).toBe(true);
    const err = await fetch('https://envelope.test/api/v1/balance');
    expect([err.status, Object.keys(await err.json())]).toEqual([401, ['error']]);
    const sdk = new TrxRent({ baseUrl: 'https://envelope.test', apiKey: enveloped.demo.api_key, maxRetries: 0 });
    const created = await sdk.orders.create(order);
    await enveloped.advance(1_000);
    expect(Order.parse(await sdk.orders.get(created.id)).status).toBe('FILLED');
    // an official-client style read: result = body.data
    const list = (await (await fetch('https://envelope.test/api/v1/orders', { headers: { 'x-api-key': enveloped.demo.api_key } })).json()).data;
    expect(list.total).toBe(1);
  });
});

describe('chaos "drop" in-process', () => {
  it('commits, answers a network error, and the SDK retry with the same Idempotency-Key gets the original', async () => {
    let attempts = 0;
    const sdk = new TrxRent({
      baseUrl: 'https://drop.test',
      apiKey: dropping.demo.api_key,
      maxRetries: 2,
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
      hooks: {
        beforeRequest: [
          (request) => {
            attempts++;
            if (attempts === 1) request.headers.set('x-mock-chaos', 'drop');
          },
        ],
      },
    });
    const { data, response } = await sdk.orders.create(order).withResponse();
    expect(attempts).toBe(2);
    expect(response.status).toBe(200); // the replay
    expect(dropping.orders.all(dropping.demo.account_id).map((o) => o.id)).toEqual([data.id]);
    await expect(fetch('https://drop.test/api/v1/prices', { headers: { 'x-mock-chaos': 'drop' } })).rejects.toThrow();
  });
});
