import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TrxRent, trxToSun } from '../../src/index.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { buildTrxTransfer, privateKeyToTronAddress, signTransaction } from '../../src/protocol/tron-transaction.js';

/**
 * Secret hygiene of the SDK: with debug logging on, through success, failure and retry paths,
 * nothing written to the log, stdout, stderr or an error's message/stack may contain the API
 * key, the JWT, a webhook secret or a private key.
 */
const PRIVATE_KEY = '7e'.repeat(32);
let mock: MockServer;
const captured: string[] = [];
const originals = { out: process.stdout.write, err: process.stderr.write };

beforeAll(async () => {
  mock = await startMockServer({
    seed: 5,
    rateLimits: false,
    chaos: { rate: 0.3, slowMs: 300, seed: 9 },
    timings: { selectMs: 10, fillMs: 10, verifyMs: 10, depositCreditMs: 10 },
  });
  const tap = (original: typeof process.stdout.write) =>
    function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      captured.push(String(chunk));
      return (original as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof process.stdout.write;
  process.stdout.write = tap(originals.out);
  process.stderr.write = tap(originals.err);
});
afterAll(async () => {
  process.stdout.write = originals.out;
  process.stderr.write = originals.err;
  await mock.close();
});

describe('secrets never reach logs or errors', () => {
  it('through success, failure and retry paths with debug logging', async () => {
    const logs: string[] = [];
    // The default logger writes with console.error; record what it is given.
    const consoleError = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void logs.push(args.map(String).join(' ')));
    const options = {
      baseUrl: mock.url,
      logLevel: 'debug' as const,
      timeoutMs: 150,
      maxRetries: 8,
      retry: { baseDelayMs: 5, maxDelayMs: 60 },
      logger: { debug: (l: string) => void logs.push(l) },
    };
    const byKey = new TrxRent({ ...options, apiKey: mock.apiKey });
    const byJwt = new TrxRent({ ...options, logger: undefined, jwt: mock.jwt }); // the default stderr logger
    const wrongKey = `sk_live_${'0f'.repeat(32)}`;
    const stranger = new TrxRent({ ...options, apiKey: wrongKey, maxRetries: 0 });
    const errors: unknown[] = [];
    const attempt = async (p: Promise<unknown>) => p.catch((e: unknown) => void errors.push(e));
    // POSTs without an Idempotency-Key are (rightly) never retried by the SDK; under chaos the
    // test retries them itself, keeping every failure for the scan.
    const until = async <T>(call: () => Promise<T>): Promise<T> => {
      for (let i = 0; ; i++) {
        try {
          return await call();
        } catch (e) {
          errors.push(e);
          if (i === 20) throw e;
        }
      }
    };

    await attempt(byKey.prices.list());
    await attempt(byJwt.balance.get());
    const order = await until(() =>
      byKey.orders.create({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW' }),
    );
    await attempt(byKey.orders.waitFor(order.id, { pollIntervalMs: 10, timeoutMs: 10_000 }));
    const hook = await until(() => byKey.webhooks.create({ url: 'https://example.com/hooks', events: ['order.filled'] }));
    const created = await until(() => byKey.keys.create({ name: 'temp', permissions: ['view_orders'] }));
    await attempt(stranger.balance.get()); // 401
    await attempt(byKey.orders.get('00000000-0000-4000-8000-000000000000')); // 404
    await attempt(byKey.withdrawals.create({ address: 'T123', amount: 1, currency: 'TRX' })); // local validation
    await attempt(new TrxRent({ ...options, baseUrl: 'http://127.0.0.1:9', apiKey: mock.apiKey, maxRetries: 1 }).balance.get()); // connection refused, retried
    const prepared = await until(() => byKey.deposits.prepare({ amount_sun: trxToSun('2') }));
    const tx = signTransaction(
      buildTrxTransfer({ from: privateKeyToTronAddress(PRIVATE_KEY), to: prepared.address, amountSun: 2_000_000n, memo: prepared.memo }),
      PRIVATE_KEY,
    );
    await attempt(byKey.deposits.submit({ signed_tx: tx }));

    await attempt(byKey.prices.list({ headers: { 'x-mock-chaos': '503' }, maxRetries: 1 })); // a forced retry, then the error
    await attempt(byJwt.prices.list({ headers: { 'x-mock-chaos': '500' }, maxRetries: 1 }));
    consoleError.mockRestore();
    expect(errors.length).toBeGreaterThanOrEqual(3);
    expect([...logs, ...captured].some((l) => /retrying/.test(l))).toBe(true); // the retry path really ran
    const everything = [...logs, ...captured, ...errors.flatMap((e) => [String(e), (e as Error).stack ?? '', JSON.stringify(e)])].join('\n');
    expect(everything).toContain('GET /api/v1/balance'); // there is output to scan
    const secrets = {
      apiKey: mock.apiKey,
      wrongKey,
      newKey: created.key!,
      jwt: mock.jwt,
      webhookSecret: hook.secret!,
      privateKey: PRIVATE_KEY,
    };
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThan(20);
      expect(everything.includes(secret), `${name} leaked`).toBe(false);
    }
  }, 60_000);
});
