/**
 * The must-shows of the CLI issue, through the built CLI as a real process (node bin/trx-rent.js,
 * stdout a pipe), against servers on 127.0.0.1: the --json shape of every list command, --query,
 * the cause of a connection failure (refused, DNS, timeout) and `status`. The in-process suites
 * (scripting, errors, status, waits) cover the same behaviour in depth; this file proves the
 * shipped binary agrees. Ctrl+C, "No" and table widths run in a pseudo-terminal
 * (interactive.test.ts); `api --paginate`, `--yes` and the README's recipes in recipes.test.ts.
 */
import { type Server, createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { ADDRESS, ROOT, errorLine, json, runCli } from './helpers.js';

let mock: MockServer;
let env: Record<string, string>;
let silent: Server;
let silentUrl: string;
let closedUrl: string;

const listen = (server: Server) => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));

beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 14, timings: { selectMs: 20, fillMs: 30, verifyMs: 40 } });
  env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
  silent = createServer(() => {}); // accepts, never answers
  silentUrl = `http://127.0.0.1:${await listen(silent)}`;
  const gone = createServer();
  closedUrl = `http://127.0.0.1:${await listen(gone)}`;
  await new Promise((r) => gone.close(r));
  // Something in every list: an order (and its fill in history) and a webhook.
  const order = await runCli(['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--yes', '--wait', '--json'], { env });
  expect(order.code, order.stderr).toBe(0);
  const hook = await runCli(['webhooks', 'create', '--url', 'https://example.com/hook', '--events', 'order.filled', '--json'], { env });
  expect(hook.code, hook.stderr).toBe(0);
});
afterAll(async () => {
  silent?.close();
  await mock?.close();
});

describe('the built CLI as a process', { timeout: 30_000 }, () => {
  it('every list command prints a JSON array when piped; one resource an object', async () => {
    for (const args of [['prices'], ['orders', 'list'], ['history'], ['webhooks', 'list'], ['profiles', 'list']]) {
      const r = await runCli(args, { env });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(Array.isArray(json(r)), args.join(' ')).toBe(true);
    }
    const orders = json(await runCli(['orders', 'list'], { env }));
    expect(orders.length).toBeGreaterThan(0);
    const balance = json(await runCli(['balance'], { env }));
    expect(balance).toMatchObject({ trx: expect.any(Number) });
  });

  it('--query filters without an external binary; --json FIELDS picks fields', async () => {
    const ids = await runCli(['orders', 'list', '--query', "[?status=='FILLED'].id | join(',', @)"], { env });
    expect(ids.code, ids.stderr).toBe(0);
    expect(ids.stdout.trim()).toMatch(/^[0-9a-f-]{36}(,[0-9a-f-]{36})*$/);
    const picked = json(await runCli(['orders', 'list', '--json', 'id,status'], { env }));
    expect(Object.keys(picked[0])).toEqual(['id', 'status']);
    const bad = await runCli(['orders', 'list', '--query', '[?status=='], { env });
    expect(bad.code).toBe(2);
  });

  it('connection failures name the cause and the URL: refused, DNS, timeout', async () => {
    const refused = await runCli(['balance'], { env: { ...env, TRX_RENT_BASE_URL: closedUrl, TRX_RENT_MAX_RETRIES: '0' } });
    expect(refused.code).toBe(1);
    expect(errorLine(refused).message).toBe(`GET /api/v1/balance to ${closedUrl} failed: connection refused (ECONNREFUSED)`);

    // A real getaddrinfo-style failure inside the process, with no query leaving the machine.
    const dns = await runCli(['prices', '--base-url', 'http://api.trx-rent.invalid'], {
      env: { TRX_RENT_MAX_RETRIES: '0', NODE_OPTIONS: `--require ${join(ROOT, 'test/cli/fixtures/no-dns.cjs')}` },
    });
    expect(dns.code).toBe(1);
    expect(errorLine(dns).message).toBe('GET /api/v1/prices to http://api.trx-rent.invalid failed: host not found (DNS) (ENOTFOUND)');
    expect(errorLine(dns).hint).toMatch(/does not resolve.*--base-url/);

    const timeout = await runCli(['balance'], { env: { ...env, TRX_RENT_BASE_URL: silentUrl, TRX_RENT_TIMEOUT: '1s', TRX_RENT_MAX_RETRIES: '0' } });
    expect(timeout.code).toBe(1);
    expect(errorLine(timeout)).toMatchObject({ code: 'TIMEOUT', message: `GET /api/v1/balance to ${silentUrl} timed out after 1000 ms` });
  });

  it('status: the sources, whether the key works, never the key; exit 3 for a rejected key', async () => {
    const ok = await runCli(['status'], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(json(ok)).toMatchObject({ base_url: { source: 'TRX_RENT_BASE_URL' }, api_key: { source: 'TRX_RENT_API_KEY' }, key_works: true });
    expect(ok.stdout + ok.stderr).not.toContain(mock.apiKey);
    const rejected = await runCli(['status'], { env: { ...env, TRX_RENT_API_KEY: `sk_live_${'0'.repeat(64)}` } });
    expect(rejected.code).toBe(3);
  });
});
