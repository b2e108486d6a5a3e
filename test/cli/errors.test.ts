/**
 * Errors that say what to do (in-process, against servers on 127.0.0.1): the cause of a
 * connection failure and its URL, where a rejected key came from, minimums checked before
 * sending, and why a provider did not quote.
 */
import { type Server, createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { classifyFailure } from '../../src/http/transport.js';
import { ADDRESS, errorLine, json, runCliInProcess, tempDir } from './run.js';

let mock: MockServer;
let env: Record<string, string>;
let silent: Server;
let silentUrl: string;
let closedUrl: string;

function listen(server: Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 5 });
  env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
  // A server that accepts connections and never answers (timeouts).
  silent = createServer(() => {});
  silentUrl = `http://127.0.0.1:${await listen(silent)}`;
  // A port nothing listens on (refused).
  const gone = createServer();
  closedUrl = `http://127.0.0.1:${await listen(gone)}`;
  await new Promise((r) => gone.close(r));
});
afterAll(async () => {
  silent?.close();
  await mock?.close();
});

/** A fetch that fails the way undici does for a system error `code`. */
function failingFetch(code: string, message = code): typeof fetch {
  return async () => {
    throw new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });
  };
}

describe('connection errors name the cause and the URL', () => {
  it('refused: nothing listening, with where the base URL came from', async () => {
    const r = await runCliInProcess(['balance', '--json'], { env: { ...env, TRX_RENT_BASE_URL: closedUrl, TRX_RENT_MAX_RETRIES: '0' } });
    expect(r.code).toBe(1);
    const e = errorLine(r);
    expect(e.code).toBe('CONNECTION_ERROR');
    expect(e.message).toBe(`GET /api/v1/balance to ${closedUrl} failed: connection refused (ECONNREFUSED)`);
    expect(e.hint).toMatch(/^nothing is listening at 127\.0\.0\.1:\d+ \(base URL from TRX_RENT_BASE_URL\): is the server running/);
    expect(e.hint).toContain('fix TRX_RENT_BASE_URL');
  });

  it('refused with --base-url names the flag', async () => {
    const r = await runCliInProcess(['prices', '--base-url', closedUrl, '--no-json'], { env: { TRX_RENT_MAX_RETRIES: '0' } });
    expect(r.stderr).toMatch(/error CONNECTION_ERROR: GET \/api\/v1\/prices to http:\/\/127\.0\.0\.1:\d+ failed: connection refused/);
    expect(r.stderr).toContain('(base URL from --base-url)');
  });

  it('DNS: the host name does not resolve', async () => {
    const r = await runCliInProcess(['prices', '--json', '--base-url', 'http://api.trx-rent.invalid'], {
      env: { TRX_RENT_MAX_RETRIES: '0' },
      fetch: failingFetch('ENOTFOUND', 'getaddrinfo ENOTFOUND api.trx-rent.invalid'),
    });
    const e = errorLine(r);
    expect(e.message).toMatch(/to http:\/\/api\.trx-rent\.invalid failed: host not found \(DNS\) \(ENOTFOUND\)/);
    expect(e.hint).toMatch(/host name in http:\/\/api\.trx-rent\.invalid\/api\/v1\/prices \(base URL from --base-url\) does not resolve/);
  });

  it('TLS: https to a plain-http server fails the handshake', async () => {
    const r = await runCliInProcess(['prices', '--json', '--base-url', mock.url.replace('http:', 'https:')], { env: { TRX_RENT_MAX_RETRIES: '0' } });
    const e = errorLine(r);
    expect(e.code).toBe('CONNECTION_ERROR');
    expect(e.message).toMatch(/TLS handshake failed/);
    expect(e.hint).toMatch(/an http:\/\/ server needs an http:\/\/ base URL/);
  });

  it('timeout: a server that never answers (TRX_RENT_TIMEOUT), exit 1', async () => {
    const r = await runCliInProcess(['balance', '--json'], {
      env: { ...env, TRX_RENT_BASE_URL: silentUrl, TRX_RENT_TIMEOUT: '1s', TRX_RENT_MAX_RETRIES: '0' },
    });
    expect(r.code).toBe(1);
    const e = errorLine(r);
    expect(e.code).toBe('TIMEOUT');
    expect(e.message).toBe(`GET /api/v1/balance to ${silentUrl} timed out after 1000 ms`);
    expect(e.hint).toMatch(/did not answer in time; check the network and the base URL \(from TRX_RENT_BASE_URL\)/);
  });

  it('classifies the system errors under fetch', () => {
    const wrap = (code: string) => new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
    expect(classifyFailure(wrap('ECONNREFUSED')).cause).toBe('refused');
    expect(classifyFailure(wrap('EAI_AGAIN')).cause).toBe('dns');
    expect(classifyFailure(wrap('DEPTH_ZERO_SELF_SIGNED_CERT')).cause).toBe('tls');
    expect(classifyFailure(wrap('CERT_HAS_EXPIRED')).cause).toBe('tls');
    expect(classifyFailure(wrap('UND_ERR_CONNECT_TIMEOUT')).cause).toBe('timeout');
    expect(classifyFailure(wrap('ECONNRESET')).cause).toBe('reset');
    expect(classifyFailure(wrap('EHOSTUNREACH')).cause).toBe('unreachable');
    // localhost tries ::1 and 127.0.0.1: an AggregateError of both
    const both = new TypeError('fetch failed', {
      cause: Object.assign(new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })]), { code: 'ECONNREFUSED' }),
    });
    expect(classifyFailure(both)).toEqual({ cause: 'refused', syscode: 'ECONNREFUSED' });
  });
});

describe('a rejected key says where it came from and how to fix that source', () => {
  const bad = `sk_live_${'cd'.repeat(32)}`;

  it('the environment: unset it (it overrides login), never printing it', async () => {
    const r = await runCliInProcess(['balance', '--json'], { env: { ...env, TRX_RENT_API_KEY: bad } });
    expect(r.code).toBe(3);
    expect(errorLine(r).hint).toMatch(/the key in TRX_RENT_API_KEY was rejected: .*`unset TRX_RENT_API_KEY` to use the profile's key/);
    expect(r.stderr).not.toContain(bad);
  });

  it('a profile: log in again to that profile; login warns about a key in the environment', async () => {
    const configDir = tempDir();
    const limited = mock.state.createAccount({ name: 'soon-revoked', trx_sun: 1_000_000 });
    const login = await runCliInProcess(['login', '--profile', 'work', '--with-token', '--base-url', mock.url], {
      configDir,
      input: limited.api_key,
      env: { TRX_RENT_API_KEY: bad },
    });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(/TRX_RENT_API_KEY is set and overrides the key saved here: `unset TRX_RENT_API_KEY`/);
    const keyId = mock.state.getAccount(limited.account_id)!.keys.values().next().value!.id;
    expect((await runCliInProcess(['keys', 'revoke', keyId, '--yes'], { configDir, env: { TRX_RENT_PROFILE: 'work' } })).code).toBe(0);
    const r = await runCliInProcess(['balance', '--json', '--profile', 'work'], { configDir });
    expect(r.code).toBe(3);
    expect(errorLine(r).hint).toMatch(/the key saved in profile work was rejected \(revoked\?\): run `trx-rent login --profile work`/);
  });
});

describe('minimums are checked before sending; preview explains a provider minimum', () => {
  it('bandwidth below its minimum: exit 2, nothing sent', async () => {
    let requests = 0;
    const counting: typeof fetch = (input, init) => {
      requests++;
      return fetch(input, init);
    };
    for (const args of [
      ['buy', '500', 'bandwidth', '--to', ADDRESS, '--duration', '1h', '--yes', '--json'],
      ['preview', '500', 'bandwidth', '--json'],
      ['preview', '1000', 'energy', '--json'],
    ]) {
      const r = await runCliInProcess(args, { env, fetch: counting });
      expect(r.code, args.join(' ')).toBe(2);
      expect(errorLine(r)).toMatchObject({ code: 'VALIDATION_ERROR' });
      expect(errorLine(r).message).toMatch(/below the minimum (bandwidth|energy) order of (1000|65000) units/);
    }
    expect(requests).toBe(0);
    const ok = await runCliInProcess(['preview', '1000', 'bandwidth', '--json'], { env });
    expect(ok.code, ok.stderr).toBe(0);
  });

  it('preview names a provider whose minimum order is above the amount', async () => {
    // TronSave (in the mock) takes energy orders from 100,000 units. Its stock is held well above
    // the amount, so the reason is the minimum and not a moment short of units (the mock's
    // market moves with real time, and a loaded machine once caught it short). It is held online
    // too: the mock takes providers offline at random polls, and offline it lists 0 units.
    mock.state.setProviderOverride('tronsave', { online: true, available_energy: 50_000_000 });
    onTestFinished(() => mock.state.setProviderOverride('tronsave', null));
    const r = await runCliInProcess(['preview', '65000', '--duration', '1h', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const doc = json(r);
    expect([doc.best, ...doc.fallbacks].map((o: { provider: string }) => o.provider)).not.toContain('tronsave');
    expect(doc.not_quoted).toContainEqual(expect.objectContaining({ provider: 'tronsave', reason: 'minimum' }));
    const human = await runCliInProcess(['preview', '65000', '--no-json'], { env });
    // The section lists providers by price, and others may be listed too (one short of units
    // at that moment, in the mock's moving market): find TronSave's line anywhere in it.
    const notQuoted = human.stdout.slice(human.stdout.indexOf('Not quoted:'));
    expect(notQuoted).toMatch(/^Not quoted:\n/);
    expect(notQuoted).toMatch(/^\s+tronsave \(\d+ SUN\/unit for 1h\): 65,000 units is below its minimum order/m);
    const big = json(await runCliInProcess(['preview', '100000', '--json'], { env }));
    expect(big.not_quoted.map((u: { provider: string }) => u.provider)).not.toContain('tronsave');
  });

  it('when no provider can fill it, buy says the amount is below every minimum', async () => {
    // Only TronSave online: it takes energy orders from 100,000 units.
    const others = ['tem', 'netts', 'itrx', 'catfee', 'powersun'];
    for (const id of others) mock.state.setProviderOverride(id, { online: false });
    mock.state.setProviderOverride('tronsave', { online: true });
    try {
      const r = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--yes', '--json'], { env });
      expect(r.code, r.stderr).toBe(1);
      expect(errorLine(r)).toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
      expect(errorLine(r).hint).toMatch(/^for 1h: 65,000 units is below the minimum order of tronsave \(or they are offline\)(; [^:]+)?: try a larger amount/);
    } finally {
      for (const id of [...others, 'tronsave']) mock.state.setProviderOverride(id, null);
    }
  });
});
