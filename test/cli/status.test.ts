/**
 * `trx-rent status` (in-process, a mock on 127.0.0.1): sources, whether the key works, the
 * permissions read-only calls prove, the balance, the clock skew and the mock's state.
 */
import { type Server, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { json, runCliInProcess, tempDir } from './run.js';

let mock: MockServer;
let env: Record<string, string>;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 77 });
  env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
});
afterAll(async () => {
  await mock?.close();
});

describe('trx-rent status', () => {
  it('against the mock: every source, the key works, permissions, balance, clock, the mock state; exit 0', async () => {
    const r = await runCliInProcess(['status', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const s = json(r);
    expect(s).toMatchObject({
      profile: { name: 'default', source: 'no current profile set' },
      base_url: { value: mock.url, source: 'TRX_RENT_BASE_URL' },
      api_key: { source: 'TRX_RENT_API_KEY' },
      reachable: true,
      key_works: true,
      permissions: { view_balance: true, view_orders: true, create_orders: null, broadcast: null },
      balance: { trx: expect.any(Number) },
      mock: { seed: 77, clock: expect.any(String) },
      problems: [],
    });
    expect(Math.abs(s.clock_skew_ms)).toBeLessThan(2_000);
    expect(JSON.stringify(s)).not.toContain(mock.apiKey);
    const human = await runCliInProcess(['status', '--no-json'], { env });
    expect(human.stdout).toMatch(/^API key\s+from TRX_RENT_API_KEY: works$/m);
    expect(human.stdout).toMatch(/^clock\s+in sync with the server/m);
    expect(human.stdout).toMatch(/^mock\s+the reference mock: clock \w+ at \S+, seed 77/m);
  });

  it('a profile saved by login is named as the source', async () => {
    const configDir = tempDir();
    await runCliInProcess(['login', '--profile', 'work', '--base-url', mock.url], { configDir, env: { TRX_RENT_API_KEY: mock.apiKey } });
    const s = json(await runCliInProcess(['status', '--json'], { configDir }));
    expect(s).toMatchObject({
      profile: { name: 'work', source: 'profile work', saved: true },
      base_url: { source: 'profile work' },
      api_key: { source: 'profile work' },
      key_works: true,
    });
  });

  it('a rejected key from the environment: exit 3, the report says where it came from', async () => {
    const r = await runCliInProcess(['status', '--json'], { env: { ...env, TRX_RENT_API_KEY: `sk_live_${'ef'.repeat(32)}` } });
    expect(r.code).toBe(3);
    const s = json(r);
    expect(s.key_works).toBe(false);
    expect(s.problems[0]).toMatchObject({ code: 'UNAUTHORIZED', hint: expect.stringContaining('unset TRX_RENT_API_KEY') });
  });

  it('a key without view_balance works: the permissions say so', async () => {
    const limited = mock.state.createAccount({ name: 'orders-only', permissions: ['view_orders'] });
    const r = await runCliInProcess(['status', '--json'], { env: { ...env, TRX_RENT_API_KEY: limited.api_key } });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ key_works: true, permissions: { view_balance: false, view_orders: true }, balance: null, problems: [] });
  });

  it('no key: exit 3; no answer: exit 1; no base URL: exit 2; the report is printed each time', async () => {
    const noKey = await runCliInProcess(['status', '--json'], { env: { TRX_RENT_BASE_URL: mock.url } });
    expect(noKey.code).toBe(3);
    expect(json(noKey)).toMatchObject({ reachable: true, api_key: null, key_works: null });
    const gone: Server = createServer();
    const port = await new Promise<number>((resolve) => gone.listen(0, '127.0.0.1', () => resolve((gone.address() as { port: number }).port)));
    await new Promise((r) => gone.close(r));
    const down = await runCliInProcess(['status', '--json'], { env: { ...env, TRX_RENT_BASE_URL: `http://127.0.0.1:${port}` } });
    expect(down.code).toBe(1);
    expect(json(down)).toMatchObject({ reachable: false, problems: [{ code: 'CONNECTION_ERROR', hint: expect.stringContaining('nothing is listening') }] });
    const none = await runCliInProcess(['status', '--json'], {});
    expect(none.code).toBe(2);
    expect(json(none).base_url).toBeNull();
  });

  it('clock skew from the Date header', async () => {
    const ahead: typeof fetch = async (url, init) => {
      const response = await fetch(url, init);
      const headers = new Headers(response.headers);
      headers.set('date', new Date(Date.now() + 120_000).toUTCString());
      return new Response(await response.arrayBuffer(), { status: response.status, headers });
    };
    const s = json(await runCliInProcess(['status', '--json'], { env, fetch: ahead }));
    expect(s.clock_skew_ms).toBeGreaterThan(118_000);
    expect(s.clock_skew_ms).toBeLessThan(122_000);
    const human = await runCliInProcess(['status', '--no-json'], { env, fetch: ahead });
    expect(human.stdout).toMatch(/this machine's clock is 1[12]\d s behind the server: webhook timestamps and x402 validity windows may be refused/);
  });
});
