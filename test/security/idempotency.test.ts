/**
 * A keyed POST (order, withdrawal) whose answer was lost: the SDK's error carries the
 * Idempotency-Key every attempt sent, and says the outcome is unknown, so a caller can retry
 * with the same key instead of risking a second order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, RateLimitedError, TimeoutError, TrxRent } from '../../src/index.js';
import { type Hostile, hostileServer, json } from './hostile.js';

const ORDER = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW' } as const;
const servers: Hostile[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
const client = (url: string, extra: Record<string, unknown> = {}) =>
  new TrxRent({ baseUrl: url, apiKey: 'sk_live_test', retry: { baseDelayMs: 1, maxDelayMs: 2 }, ...extra });
const keysSeen = (s: Hostile) => [...new Set(s.seen.map((r) => r.headers['idempotency-key']))];

describe('security: a lost answer keeps its idempotency key', () => {
  it('ConnectionError of orders.create carries the generated key (the one every attempt sent) and outcomeUnknown', async () => {
    const server = await hostileServer((_req, res) => void res.destroy());
    servers.push(server);
    const error = await client(server.url)
      .orders.create(ORDER)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(server.seen).toHaveLength(3); // first attempt and two retries
    expect(keysSeen(server)).toEqual([(error as ConnectionError).idempotencyKey]);
    expect((error as ConnectionError).outcomeUnknown).toBe(true);
    // retrying with it sends the same key: the service can only replay, never act twice
    await client(server.url, { maxRetries: 0 })
      .orders.create(ORDER, { idempotencyKey: (error as ConnectionError).idempotencyKey })
      .catch(() => undefined);
    expect(keysSeen(server)).toHaveLength(1);
  });

  it('TimeoutError of withdrawals.create carries the key too', async () => {
    const server = await hostileServer(() => undefined); // never answers
    servers.push(server);
    const error = await client(server.url, { timeoutMs: 150, maxRetries: 0 })
      .withdrawals.create({ address: ORDER.target_address, amount: 50_000_000, currency: 'TRX' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.seen).toHaveLength(1);
    expect((error as TimeoutError).idempotencyKey).toBe(server.seen[0]!.headers['idempotency-key']);
    expect((error as TimeoutError).idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect((error as TimeoutError).outcomeUnknown).toBe(true);
  });

  it('a lost answer then 429s: RATE_LIMITED with outcomeUnknown; 429s alone: outcome known (nothing done)', async () => {
    const lostFirst = await hostileServer((_req, res, i) =>
      i === 0 ? void res.destroy() : json(res, 429, { error: { code: 'RATE_LIMITED', message: 'slow' } }, { 'retry-after': '0' }),
    );
    servers.push(lostFirst);
    const unknown = await client(lostFirst.url)
      .orders.create(ORDER)
      .catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(RateLimitedError);
    expect((unknown as RateLimitedError).outcomeUnknown).toBe(true);
    expect(keysSeen(lostFirst)).toEqual([(unknown as RateLimitedError).idempotencyKey]);

    const only429 = await hostileServer((_req, res) => json(res, 429, { error: { code: 'RATE_LIMITED', message: 'slow' } }, { 'retry-after': '0' }));
    servers.push(only429);
    const known = await client(only429.url)
      .orders.create(ORDER)
      .catch((e: unknown) => e);
    expect((known as RateLimitedError).outcomeUnknown).toBe(false);
    expect((known as RateLimitedError).idempotencyKey).toBe(only429.seen[0]!.headers['idempotency-key']);
  });

  it('a GET error carries no key', async () => {
    const server = await hostileServer((_req, res) => void res.destroy());
    servers.push(server);
    const error = (await client(server.url, { maxRetries: 0 })
      .balance.get()
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.idempotencyKey).toBeUndefined();
    expect(error.outcomeUnknown).toBeUndefined();
  });
});
