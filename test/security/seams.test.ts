/**
 * Issue 22, the CLI and mock seams, against real processes (the built CLI: `npm run build` first):
 * - a profile's key goes only to the origin `login` saved it for (rule 1);
 * - a base URL with user:pass@ is refused and never echoed; a key a server echoes is masked (rule 1);
 * - `deposit prepare` refuses instructions that do not match what was asked (rule 4);
 * - a SUN amount that is not a safe non-negative integer is INVALID_RESPONSE (rule 3);
 * - `webhooks verify` checks the timestamp by default (rule 5);
 * - the spawned mock refuses a cross-origin form post and a rebinding Host (rule 6);
 * - with colour forced on, server text carries no colour codes to the terminal (rule 4).
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { startMockServer } from '../../src/mock/index.js';
import { signWebhookPayload } from '../../src/webhooks/index.js';
import { BIN, CONTROL, type CliRun, type Hostile, type Seen, hostileServer, json, runCli } from './hostile.js';

const KEY = `sk_live_${'5a'.repeat(32)}`;
const OTHER_KEY = `sk_live_${'7b'.repeat(32)}`;
const ADDRESS = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
const BALANCE = { trx: 1_000_000, usdt: 0, trx_locked: 0 };

const servers: Hostile[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(handler: (req: Seen, res: Parameters<Parameters<typeof hostileServer>[0]>[1]) => void): Promise<Hostile> {
  const s = await hostileServer(handler);
  servers.push(s);
  return s;
}

/** Every API key any request to `s` carried. */
const keysSeen = (s: Hostile) => s.seen.map((r) => r.headers['x-api-key']).filter(Boolean);

function errorOf(run: CliRun): { code: string; message: string; hint?: string } {
  const line = run.stderr.split('\n').find((l) => l.startsWith('{"error"'));
  expect(line, run.stderr).toBeDefined();
  return JSON.parse(line!).error;
}

/** The built CLI with `input` on stdin (runCli gives none), bounded in time. */
function runCliWithInput(args: string[], input: string, env: Record<string, string>): Promise<CliRun> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('TRX_RENT_') && k !== 'FORCE_COLOR' && k !== 'NO_COLOR') clean[k] = v;
  const configDir = mkdtempSync(join(tmpdir(), 'trx-rent-sec-'));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...clean, TRX_RENT_CONFIG_DIR: configDir, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`trx-rent ${args.join(' ')} did not finish in 15 s\n${stderr}`));
    }, 15_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}

describe('security: a profile key stays with its origin (real CLI process)', { timeout: 90_000 }, () => {
  it('the key login saved for A is not sent to B from TRX_RENT_BASE_URL or --base-url; the error says how to fix it', async () => {
    const a = await server((_req, res) => json(res, 200, BALANCE));
    const b = await server((_req, res) => json(res, 200, BALANCE));
    const configDir = mkdtempSync(join(tmpdir(), 'trx-rent-sec-profile-'));
    const env = { TRX_RENT_CONFIG_DIR: configDir };

    const login = await runCli(['login', '--base-url', a.url, '--json'], { ...env, TRX_RENT_API_KEY: KEY });
    expect(login.code, login.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default).toEqual({ base_url: a.url, api_key: KEY });

    // Positive control: the profile alone, and its own origin given explicitly (any path), use the key.
    expect((await runCli(['balance', '--json'], env)).code).toBe(0);
    expect((await runCli(['balance', '--json', '--base-url', `${a.url}/api/v1`], env)).code).toBe(0);
    expect(keysSeen(a).every((k) => k === KEY)).toBe(true);
    expect(keysSeen(a).length).toBe(3);

    for (const [how, extra, args] of [
      ['TRX_RENT_BASE_URL', { TRX_RENT_BASE_URL: b.url }, []],
      ['--base-url', {}, ['--base-url', b.url]],
    ] as const) {
      const run = await runCli(['balance', '--json', ...args], { ...env, ...extra });
      expect(run.code, how).toBe(3);
      const error = errorOf(run);
      expect(error.code).toBe('UNAUTHORIZED');
      expect(error.message).toContain(b.url);
      expect(error.message).toContain(`saved for ${a.url}`);
      expect(error.hint).toContain(`trx-rent login --base-url ${b.url}`);
      expect(error.hint).toContain('TRX_RENT_API_KEY');
      expect(run.stderr + run.stdout).not.toContain(KEY);
    }
    expect(b.seen).toHaveLength(0); // nothing reached B at all

    // A key given for this run is used for B, and only that key.
    const explicit = await runCli(['balance', '--json'], { ...env, TRX_RENT_BASE_URL: b.url, TRX_RENT_API_KEY: OTHER_KEY });
    expect(explicit.code, explicit.stderr).toBe(0);
    expect(keysSeen(b)).toEqual([OTHER_KEY]);

    // Moving the profile to B would move the key: refused.
    const moved = await runCli(['config', 'set', 'base_url', b.url, '--json'], env);
    expect(moved.code).toBe(2);
    expect(errorOf(moved).hint).toContain(`trx-rent login --base-url ${b.url}`);
    expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default.base_url).toBe(a.url);
  });

  it("trx-rent mcp on another origin than the profile's says why it has no API key (the key is bound to its origin)", async () => {
    const a = await server((_req, res) => json(res, 200, BALANCE));
    const b = await server((_req, res) => json(res, 200, BALANCE));
    const configDir = mkdtempSync(join(tmpdir(), 'trx-rent-sec-mcp-'));
    const env = { TRX_RENT_CONFIG_DIR: configDir };
    expect((await runCli(['login', '--base-url', a.url, '--json'], { ...env, TRX_RENT_API_KEY: KEY })).code).toBe(0);

    // stdin is empty: the stdio server starts, writes its start line and exits when stdin closes.
    const run = await runCli(['mcp', '--base-url', b.url], env);
    expect(run.code, run.stderr).toBe(0);
    const start = run.stderr.split('\n').find((l) => l.startsWith('trx-rent mcp: on '));
    expect(start, run.stderr).toBeDefined();
    expect(start).toContain('no API key (only public tools work)');
    expect(start).toContain(`saved for ${a.url}`);
    expect(start).toContain(`trx-rent login --base-url ${b.url}`);
    expect(run.stderr + run.stdout).not.toContain(KEY);

    // Positive control: on the profile's own origin the key is used and no reason is given.
    const own = await runCli(['mcp'], env);
    expect(own.code, own.stderr).toBe(0);
    expect(own.stderr).toContain('API key from profile');
    expect(own.stderr).not.toContain('only public tools work');
  });

  it('a base URL with user:pass@ is refused by the CLI (flag, environment) and the SDK, and the password is never echoed', async () => {
    const home = await server((_req, res) => json(res, 200, BALANCE));
    const withUserinfo = home.url.replace('http://', 'http://alice:hunter2secret@');
    for (const [how, args, env] of [
      ['--base-url', ['balance', '--json', '--base-url', withUserinfo], { TRX_RENT_API_KEY: KEY }],
      ['TRX_RENT_BASE_URL', ['balance', '--json'], { TRX_RENT_API_KEY: KEY, TRX_RENT_BASE_URL: withUserinfo }],
      ['prices (no key)', ['prices', '--json'], { TRX_RENT_BASE_URL: withUserinfo }],
      ['status', ['status', '--json'], { TRX_RENT_BASE_URL: withUserinfo }],
      ['login', ['login', '--json', '--base-url', withUserinfo], { TRX_RENT_API_KEY: KEY }],
    ] as const) {
      const run = await runCli([...args], { ...env });
      expect(run.code, how).not.toBe(0);
      expect(run.stderr + run.stdout, how).not.toContain('hunter2secret');
      expect(run.stderr + run.stdout, how).toMatch(/user name or password/);
    }
    expect(home.seen).toHaveLength(0);

    const sdk = (() => {
      try {
        return new TrxRent({ baseUrl: withUserinfo, apiKey: KEY });
      } catch (error) {
        return error;
      }
    })();
    expect(sdk).toMatchObject({ code: 'CONFIGURATION_ERROR', details: { field: 'baseUrl' } });
    expect(JSON.stringify({ message: (sdk as Error).message, details: (sdk as { details?: unknown }).details })).not.toContain('hunter2secret');
    // A malformed one is not echoed either.
    const malformed = (() => {
      try {
        return new TrxRent({ baseUrl: 'http://alice:hunter2/secret@:bad', apiKey: KEY });
      } catch (error) {
        return error as Error;
      }
    })();
    expect(malformed).toMatchObject({ code: 'CONFIGURATION_ERROR' });
    expect((malformed as Error).message).not.toContain('hunter2');
  });

  it('CONNECTION_ERROR messages never carry URL userinfo (fetch names the URL it refused)', async () => {
    const failing: typeof fetch = async (input) => {
      throw new TypeError(`Request cannot be constructed from a URL that includes credentials: ${String(input).replace('http://', 'http://bob:pa55word@')}`);
    };
    const error = (await new TrxRent({ baseUrl: 'http://127.0.0.1:9', apiKey: KEY, fetch: failing, maxRetries: 0 }).balance
      .get()
      .catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ code: 'CONNECTION_ERROR' });
    expect(`${error.message} ${JSON.stringify((error as { details?: unknown }).details)}`).not.toContain('pa55word');
  });

  it('an API key a server echoes back in an error body is masked in the SDK error and in the CLI report', async () => {
    const plainKey = 'acct-key-0123456789abcdef'; // not key-shaped: masked because it is ours, not by pattern
    const echo = await server((req, res) => {
      const key = String(req.headers['x-api-key']);
      json(res, 401, { error: { code: 'UNAUTHORIZED', message: `key ${key} is revoked`, details: { key, nested: [{ again: `k=${key}` }] } } });
    });
    for (const key of [KEY, plainKey]) {
      const error = (await new TrxRent({ baseUrl: echo.url, apiKey: key }).balance.get().catch((e: unknown) => e)) as Error & { details?: unknown };
      expect(error).toMatchObject({ code: 'UNAUTHORIZED' });
      expect(error.message).toContain('[redacted]');
      expect(`${error.message} ${JSON.stringify(error.details)}`).not.toContain(key);
    }
    const run = await runCli(['balance', '--json'], { TRX_RENT_BASE_URL: echo.url, TRX_RENT_API_KEY: plainKey });
    expect(run.code).toBe(3);
    expect(run.stderr + run.stdout).not.toContain(plainKey);
  });
});

describe('security: deposit prepare checks what it tells people to pay (real CLI process)', { timeout: 90_000 }, () => {
  const memo = 'TRXR-7Q2K';
  const hex = Buffer.from(memo).toString('hex');
  const good = { address: ADDRESS, memo, amount_sun: 5_000_000, memo_hex: hex, note: 'sign and submit' };

  it('refuses another amount, a memo_hex that is not the memo, or an address failing its checksum; prints nothing to pay', async () => {
    const badChecksum = `${ADDRESS.slice(0, -1)}${ADDRESS.endsWith('W') ? 'X' : 'W'}`;
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['amount', { ...good, amount_sun: 5_000_000_000 }, /amount_sun/],
      ['amount as string', { ...good, amount_sun: '5000001' }, /amount_sun/],
      ['memo hex', { ...good, memo_hex: Buffer.from('TRXR-ATTACKER').toString('hex') }, /memo_hex/],
      ['checksum', { ...good, address: badChecksum }, /checksum/],
    ];
    for (const [what, body, reason] of cases) {
      const hostile = await server((_req, res) => json(res, 200, body));
      for (const mode of ['--json', '--no-json']) {
        const run = await runCli(['deposit', 'prepare', '5', mode], { TRX_RENT_BASE_URL: hostile.url, TRX_RENT_API_KEY: KEY });
        expect(run.code, `${what} ${mode}`).toBe(1);
        expect(run.stdout, `${what} ${mode}`).toBe('');
        expect(run.stderr, what).toMatch(/INVALID_RESPONSE/);
        expect(run.stderr, what).toMatch(reason);
        expect(run.stderr, what).not.toContain(String(body.address === badChecksum ? badChecksum : '5000 TRX'));
      }
      // The request asked for exactly 5 TRX.
      expect(JSON.parse(hostile.seen[0]!.body)).toEqual({ amount_sun: 5_000_000 });
    }
    // Positive control: a matching answer is shown.
    const honest = await server((_req, res) => json(res, 200, { ...good, memo_hex: hex.toUpperCase() }));
    const ok = await runCli(['deposit', 'prepare', '5', '--no-json'], { TRX_RENT_BASE_URL: honest.url, TRX_RENT_API_KEY: KEY });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain(ADDRESS);
    expect(ok.stdout).toContain('5 TRX');
  });
});

describe('security: SUN amounts stay exact on the way in', () => {
  it('a SUN amount beyond 2^53, fractional or negative is INVALID_RESPONSE (SDK and CLI), never a rounded number', async () => {
    for (const trx of ['9007199254740993', '9007199254740992', '1.5', '-1', '"9007199254740993"', '1e300']) {
      const hostile = await server((_req, res) => {
        const text = `{"trx":${trx},"usdt":0,"trx_locked":0}`;
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        res.end(text);
      });
      const error = await new TrxRent({ baseUrl: hostile.url, apiKey: KEY }).balance.get().catch((e: unknown) => e);
      expect(error, trx).toMatchObject({ code: 'INVALID_RESPONSE' });
      expect((error as Error).message, trx).toContain('trx');
      const run = await runCli(['balance', '--json'], { TRX_RENT_BASE_URL: hostile.url, TRX_RENT_API_KEY: KEY });
      expect(run.code, trx).not.toBe(0);
      expect(run.stdout, trx).toBe('');
      expect(errorOf(run).code, trx).toBe('INVALID_RESPONSE');
    }
    // 2^53 - 1 is exact and passes; unknown fields stay.
    const edge = await server((_req, res) => json(res, 200, { trx: Number.MAX_SAFE_INTEGER, usdt: 0, trx_locked: 0, bonus: 'kept' }));
    await expect(new TrxRent({ baseUrl: edge.url, apiKey: KEY }).balance.get()).resolves.toMatchObject({ trx: Number.MAX_SAFE_INTEGER, bonus: 'kept' });
  });

  it('an order cost beyond 2^53 is refused; a fractional per-unit price (the spec: number, SUN per unit) is kept', async () => {
    const order = {
      id: 'ord_1',
      status: 'FILLED',
      resource_type: 'ENERGY',
      order_type: 'MARKET',
      amount: 65_000,
      duration_sec: 3600,
      target_address: ADDRESS,
      max_price_sun: 60.5,
      created_at: '2026-11-20T00:00:00.000Z',
      total_cost_sun: 2 ** 60,
      total_fee_sun: 0,
      fills: [],
    };
    const hostile = await server((_req, res) => json(res, 200, order));
    const client = new TrxRent({ baseUrl: hostile.url, apiKey: KEY });
    await expect(client.orders.get('ord_1')).rejects.toMatchObject({ code: 'INVALID_RESPONSE', message: expect.stringContaining('total_cost_sun') });
    const fine = await server((_req, res) => json(res, 200, { ...order, total_cost_sun: 3_932_500 }));
    await expect(new TrxRent({ baseUrl: fine.url, apiKey: KEY }).orders.get('ord_1')).resolves.toMatchObject({
      max_price_sun: 60.5,
      total_cost_sun: 3_932_500,
    });
    const negative = await server((_req, res) => json(res, 200, { ...order, max_price_sun: -5 }));
    await expect(new TrxRent({ baseUrl: negative.url, apiKey: KEY }).orders.get('ord_1')).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
  });
});

describe('security: webhooks verify checks the timestamp by default (real CLI process)', () => {
  const secret = 'f'.repeat(64);
  const body = (ageSec: number) => JSON.stringify({ event: 'order.filled', data: { id: 'ord_1' }, timestamp: Math.floor(Date.now() / 1000) - ageSec });

  it('an old, correctly signed delivery is rejected without --tolerance; --tolerance 0 does not skip (verify, listen); only --no-timestamp-check does', async () => {
    const env = { TRX_RENT_WEBHOOK_SECRET: secret };
    const old = body(3600);
    const signature = await signWebhookPayload(old, secret);
    const rejected = await runCliWithInput(['webhooks', 'verify', '--signature', signature, '--json'], old, env);
    expect(rejected.code).toBe(1);
    expect(errorOf(rejected).code).toBe('WEBHOOK_SIGNATURE_INVALID');
    expect(errorOf(rejected).message).toMatch(/timestamp/i);
    expect(rejected.stdout).toBe('');

    const zero = await runCliWithInput(['webhooks', 'verify', '--signature', signature, '--tolerance', '0', '--json'], old, env);
    expect(zero.code).toBe(2);
    expect(errorOf(zero).hint).toContain('--no-timestamp-check');

    const wider = await runCliWithInput(['webhooks', 'verify', '--signature', signature, '--tolerance', '7200', '--json'], old, env);
    expect(wider.code, wider.stderr).toBe(0);
    const skipped = await runCliWithInput(['webhooks', 'verify', '--signature', signature, '--no-timestamp-check', '--json'], old, env);
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(JSON.parse(skipped.stdout).verified).toBe(true);

    // listen shares the rule: --tolerance 0 is refused before it starts listening.
    const listen = await runCli(['webhooks', 'listen', '--port', '0', '--tolerance', '0', '--json'], env);
    expect(listen.code).toBe(2);
    expect(errorOf(listen).hint).toContain('--no-timestamp-check');

    const fresh = body(5);
    const ok = await runCliWithInput(['webhooks', 'verify', '--signature', await signWebhookPayload(fresh, secret), '--json'], fresh, env);
    expect(ok.code, ok.stderr).toBe(0);
  });
});

/** A raw request with exactly these headers (node's client: Host and Origin as given). */
function raw(url: string, method: string, path: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('security: the spawned mock stays local (trx-rent mock process)', () => {
  let child: ChildProcessWithoutNullStreams;
  let mock: { url: string; api_key: string };
  beforeAll(async () => {
    child = spawn(process.execPath, [BIN, 'mock', '--port', '0', '--json'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    mock = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the mock did not start in 10 s: ${out}`)), 10_000);
      const check = setInterval(() => {
        try {
          const info = JSON.parse(out) as { url: string; api_key: string };
          clearInterval(check);
          clearTimeout(timer);
          resolve(info);
        } catch {
          // not all of it yet
        }
      }, 50);
    });
  }, 20_000);
  afterAll(() => {
    child?.kill('SIGINT');
  });

  const trx = async () => JSON.parse((await raw(mock.url, 'GET', '/api/v1/balance', { 'x-api-key': mock.api_key })).body).trx as number;

  it('a cross-origin form post (text/plain, Origin: http://evil.example) to /__mock/credit is refused and credits nothing', async () => {
    const before = await trx();
    const credit = JSON.stringify({ amount_sun: 1_000_000_000 });
    const form = await raw(mock.url, 'POST', '/__mock/credit', { 'content-type': 'text/plain', origin: 'http://evil.example' }, credit);
    expect(form.status).toBe(403);
    expect(JSON.parse(form.body).error.code).toBe('FORBIDDEN');
    // Each guard holds on its own: JSON from the foreign origin, text/plain from no origin.
    expect((await raw(mock.url, 'POST', '/__mock/credit', { 'content-type': 'application/json', origin: 'http://evil.example' }, credit)).status).toBe(403);
    expect((await raw(mock.url, 'POST', '/__mock/treasury', { 'content-type': 'application/json', origin: 'null' }, '{"fail_withdrawals":true}')).status).toBe(
      403,
    );
    const plain = await raw(mock.url, 'POST', '/__mock/credit', { 'content-type': 'text/plain' }, credit);
    expect(plain.status).toBe(400);
    expect(JSON.parse(plain.body).error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'Content-Type' } });
    const form2 = await raw(mock.url, 'POST', '/api/v1/orders', { 'content-type': 'application/x-www-form-urlencoded', 'x-api-key': mock.api_key }, 'a=1');
    expect(form2.status).toBe(400);
    expect(await trx()).toBe(before);
    // Positive control: JSON from a loopback page (a dev server on another port) or a tool credits.
    expect((await raw(mock.url, 'POST', '/__mock/credit', { 'content-type': 'application/json', origin: 'http://localhost:5173' }, credit)).status).toBe(200);
    expect(await trx()).toBe(before + 1_000_000_000);
  });

  it('a rebinding Host (evil.example) is refused on /__mock/accounts and the API; loopback names pass', async () => {
    const minted = await raw(mock.url, 'POST', '/__mock/accounts', { host: 'evil.example', 'content-type': 'application/json' }, '{}');
    expect(minted.status).toBe(403);
    expect(JSON.parse(minted.body).error).toMatchObject({ code: 'FORBIDDEN', details: { field: 'Host' } });
    expect(minted.body).not.toMatch(/api_key/);
    const port = new URL(mock.url).port;
    expect((await raw(mock.url, 'GET', '/api/v1/balance', { host: `evil.example:${port}`, 'x-api-key': mock.api_key })).status).toBe(403);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      expect((await raw(mock.url, 'GET', '/api/v1/balance', { host, 'x-api-key': mock.api_key })).status, host).toBe(200);
    }
    expect((await raw(mock.url, 'POST', '/__mock/accounts', { host: `localhost:${port}`, 'content-type': 'application/json' }, '{}')).status).toBe(201);
  });

  it('bound elsewhere on purpose, any Host is served, but a foreign Origin still cannot change state', async () => {
    const exposed = await startMockServer({ port: 0, host: '0.0.0.0', rateLimits: false });
    try {
      const url = `http://127.0.0.1:${exposed.port}`;
      expect((await raw(url, 'GET', '/api/v1/balance', { host: 'my-laptop.lan', 'x-api-key': exposed.apiKey })).status).toBe(200);
      const credit = JSON.stringify({ amount_sun: 1 });
      expect(
        (await raw(url, 'POST', '/__mock/credit', { host: 'my-laptop.lan', 'content-type': 'application/json', origin: 'http://evil.example' }, credit)).status,
      ).toBe(403);
      expect(
        (await raw(url, 'POST', '/__mock/credit', { host: 'my-laptop.lan', 'content-type': 'application/json', origin: 'http://my-laptop.lan' }, credit))
          .status,
      ).toBe(200);
    } finally {
      await exposed.close();
    }
  });
});

describe('security: with colour on, server text carries no colour codes (real CLI process)', () => {
  // Our own codes only: bold, dim, red, green, yellow, magenta, cyan and their resets.
  const OURS = /\u001b\[(?:1|2|22|31|32|33|35|36|39)m/g;

  it('FORCE_COLOR=1: a provider name and an error message with colour codes reach the terminal as plain text', async () => {
    const forged = '\u001b[32m\u2713 PAID\u001b[39m\u001b[1m';
    const hostile = await server((req, res) => {
      if (req.url.startsWith('/api/v1/balance')) json(res, 400, { error: { code: 'VALIDATION_ERROR', message: `refused \u001b[31mFORGED\u001b[39m` } });
      else {
        json(res, 200, [
          {
            provider: `evil${forged}`,
            is_market: true,
            energy_prices: [{ duration_sec: 3600, price_sun: 50 }],
            bandwidth_prices: [],
            available_energy: 1_000_000,
            available_bandwidth: 0,
            fetched_at: '2026-11-20T00:00:00.000Z',
          },
        ]);
      }
    });
    const env = { TRX_RENT_BASE_URL: hostile.url, TRX_RENT_API_KEY: KEY, FORCE_COLOR: '1' };
    const prices = await runCli(['prices', '--no-json'], env);
    expect(prices.code, prices.stderr).toBe(0);
    expect(prices.stdout).toMatch(OURS); // colour is on: our own codes are there
    expect(prices.stdout).toContain('evil\u2713 PAID');
    expect(prices.stdout).not.toContain('\u001b[32m\u2713 PAID');
    expect(prices.stdout.replace(OURS, '')).not.toMatch(CONTROL);
    const balance = await runCli(['balance', '--no-json'], env);
    expect(balance.code).not.toBe(0);
    expect(balance.stderr).toMatch(OURS);
    expect(balance.stderr).toContain('refused FORGED');
    expect(balance.stderr).not.toContain('\u001b[31mFORGED');
    expect(balance.stderr.replace(OURS, '')).not.toMatch(CONTROL);
  });
});
