/**
 * `onRetry`: the SDK tells a listener before each retry waits (what answered, how long the wait
 * is), so a program can show why nothing moves; against the in-process mock with chaos rules
 * answering 429 (with Retry-After) and 503. A listener that throws does not stop the retry; the
 * TRON node client and the x402 client take the same listener.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RetryEvent, TrxRent } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { TronNode } from '../../src/tron/node.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 77 });
});
afterAll(async () => {
  await mock?.close();
});
beforeEach(() => {
  mock.chaos.setRules([]);
});

describe('onRetry', () => {
  it("is told of a 429 (the server's Retry-After) and a 503 (backoff) before each wait; the call then succeeds", async () => {
    const events: RetryEvent[] = [];
    const client = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, retry: { baseDelayMs: 5, maxDelayMs: 20 }, onRetry: (e) => events.push(e) });
    mock.chaos.setRules([
      { route: 'GET /api/v1/prices', kind: 429, times: 1 },
      { route: 'GET /api/v1/prices', kind: 503, times: 1 },
    ]);
    const prices = await client.prices.list();
    expect(Array.isArray(prices)).toBe(true);
    const host = new URL(mock.url).host;
    expect(events).toEqual([
      { label: 'GET /api/v1/prices', host, status: 429, code: 'RATE_LIMITED', retry: 1, maxRetries: 2, delayMs: 1000, retryAfter: true },
      { label: 'GET /api/v1/prices', host, status: 503, code: expect.any(String), retry: 2, maxRetries: 2, delayMs: expect.any(Number), retryAfter: false },
    ]);
    expect(events[1]!.delayMs).toBeLessThanOrEqual(20);
  });

  it('a listener that throws does not stop the retry; no listener, no event (and the same result)', async () => {
    const hits = () => mock.chaos.log.filter((h) => h.path === '/api/v1/prices').length;
    const before = hits();
    mock.chaos.setRules([{ route: 'GET /api/v1/prices', kind: 503, times: 2 }]);
    const throwing = new TrxRent({
      baseUrl: mock.url,
      apiKey: mock.apiKey,
      retry: { baseDelayMs: 1, maxDelayMs: 2 },
      onRetry: () => {
        throw new Error('listener failed');
      },
    });
    await expect(throwing.prices.list()).resolves.toBeDefined();
    mock.chaos.setRules([{ route: 'GET /api/v1/prices', kind: 503, times: 2 }]);
    const quiet = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    await expect(quiet.prices.list()).resolves.toBeDefined();
    // Both calls went through two injected 503s each before their answer.
    expect(hits() - before).toBe(4);
  });

  it('the TRON node client tells it too (a read retried after 429)', async () => {
    const events: RetryEvent[] = [];
    const node = new TronNode({ baseUrl: mock.url, onRetry: (e) => events.push(e) });
    mock.chaos.setRules([{ route: 'POST /wallet/getnowblock', kind: 429, times: 1 }]);
    const block = await node.getNowBlock();
    expect(block.number).toBeGreaterThanOrEqual(0);
    expect(events).toMatchObject([{ label: 'POST /wallet/getnowblock', status: 429, retry: 1, delayMs: 1000, retryAfter: true }]);
  });
});
