import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent, trxToSun } from '../../src/index.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';

/**
 * Faults the way users meet them: the SDK over real HTTP against the mock with a third of all
 * responses failing — 429 with Retry-After, 500, 503, slow responses past the client timeout,
 * and connections dropped after the server committed the write. Every create must land exactly
 * once: the generated Idempotency-Key is reused on each retry and the server replays.
 */
const TARGET = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
const CALLS = 300;
const CONCURRENCY = 12;

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({
    seed: 42,
    rateLimits: false,
    chaos: { rate: 1 / 3, slowMs: 600 },
    timings: { selectMs: 20, fillMs: 30, verifyMs: 50, withdrawalMs: 30 },
  });
});
afterAll(() => mock.close());

/** What the client went through, from its own debug log: proof the faults really happened. */
function faults(lines: string[]) {
  const count = (re: RegExp) => lines.filter((l) => re.test(l)).length;
  return {
    rateLimited: count(/RATE_LIMITED \(429\); retrying/),
    internal: count(/INTERNAL_ERROR \(500\); retrying/),
    maintenance: count(/MAINTENANCE \(503\); retrying/),
    timeouts: count(/TIMEOUT; retrying/),
    dropped: count(/CONNECTION_ERROR; retrying/),
    inFlight: count(/DUPLICATE_REQUEST \(409\); retrying/),
  };
}

function client(apiKey: string, lines: string[]) {
  // A timeout well under the mock's slow responses, and enough retries for a run of bad luck.
  return new TrxRent({
    baseUrl: mock.url,
    apiKey,
    timeoutMs: 250,
    maxRetries: 12,
    retry: { baseDelayMs: 50, maxDelayMs: 400 },
    logLevel: 'debug',
    logger: { debug: (line) => lines.push(line) },
  });
}

function expectEveryFault(lines: string[]) {
  const seen = faults(lines);
  for (const [kind, n] of Object.entries(seen)) if (kind !== 'inFlight') expect(n, kind).toBeGreaterThan(0);
  const total = seen.rateLimited + seen.internal + seen.maintenance + seen.timeouts + seen.dropped;
  expect(total).toBeGreaterThan(CALLS / 5); // about a third of first attempts, plus retries
}

async function pool<T>(count: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        const i = next++;
        results[i] = await fn(i);
      }
    }),
  );
  return results;
}

describe('chaos: a third of responses fail', () => {
  it(`${CALLS} orders.create calls make exactly ${CALLS} orders, and the balance equals the sum of the fills`, async () => {
    const start = trxToSun('100000');
    const account = mock.state.createAccount({ trx_sun: start });
    const lines: string[] = [];
    const sdk = client(account.api_key, lines);
    const ids = await pool(
      CALLS,
      async () => (await sdk.orders.create({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET })).id,
    );

    expectEveryFault(lines);
    expect(new Set(ids).size).toBe(CALLS);
    const orders = mock.state.orders.all(account.account_id);
    expect(orders).toHaveLength(CALLS);
    expect(new Set(orders.map((o) => o.id))).toEqual(new Set(ids));

    await expect
      .poll(() => mock.state.orders.all(account.account_id).every((o) => o.status === 'FILLED' || o.status === 'FAILED'), { timeout: 15_000, interval: 50 })
      .toBe(true);
    const spent = mock.state.orders
      .all(account.account_id)
      .flatMap((o) => o.fills)
      .filter((f) => f.status === 'CONFIRMED')
      .reduce((sum, f) => sum + f.cost_sun, 0);
    expect(spent).toBeGreaterThan(0);
    // Read the balance through the chaotic API too: GETs retry freely.
    const balance = await sdk.balance.get();
    expect(balance.trx_locked).toBe(0);
    expect(start - Number(balance.trx)).toBe(spent);
    expect(mock.state.checkInvariants()).toEqual({ ok: true, problems: [] });
  }, 120_000);

  it(`${CALLS} withdrawals.create calls make exactly ${CALLS} withdrawals`, async () => {
    const each = trxToSun('50');
    const start = each * CALLS + trxToSun('10');
    const account = mock.state.createAccount({ trx_sun: start });
    const lines: string[] = [];
    const sdk = client(account.api_key, lines);
    const ids = await pool(CALLS, async () => (await sdk.withdrawals.create({ address: TARGET, amount: each, currency: 'TRX' })).id);

    expectEveryFault(lines);
    expect(new Set(ids).size).toBe(CALLS);
    const mine = [...mock.state.money.withdrawals.values()].filter((w) => w.account_id === account.account_id);
    expect(mine).toHaveLength(CALLS);
    await expect.poll(() => mine.every((w) => mock.state.money.withdrawals.get(w.id)?.status === 'COMPLETED'), { timeout: 15_000, interval: 50 }).toBe(true);
    const balance = await sdk.balance.get();
    expect(Number(balance.trx)).toBe(trxToSun('10'));
    expect(balance.trx_locked).toBe(0);
    expect(mock.state.checkInvariants()).toEqual({ ok: true, problems: [] });
  }, 120_000);
});
