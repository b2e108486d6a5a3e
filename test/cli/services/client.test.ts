/**
 * The client service: the run's request limits (TRX_RENT_TIMEOUT, TRX_RENT_MAX_RETRIES) reach
 * every request, malformed ones are usage errors, and a client is made only once the settings
 * give a base URL (and a key, when the command needs one).
 */
import { describe, expect, it } from 'vitest';
import { unknown } from 'zod';
import { ClientService, requestLimits } from '../../../src/cli/services/client.js';
import type { ConfigService } from '../../../src/cli/services/config.js';
import type { Connection } from '../../../src/cli/settings.js';

const BASE = 'http://127.0.0.1:9';

function service(env: Record<string, string>, connection: Connection, fetch: typeof globalThis.fetch = () => Promise.reject(new Error('no network'))) {
  const config = { settings: async () => connection } as unknown as ConfigService;
  return new ClientService({ config, runtime: { env, fetch }, verbose: false, version: '9.9.9', debug: () => {} });
}

const connected: Connection = {
  baseUrl: { value: BASE, source: { kind: 'flag', flag: '--base-url' } },
  apiKey: { value: 'sk_test_1', source: { kind: 'env', name: 'TRX_RENT_API_KEY' } },
};

describe('request limits', () => {
  it('reads a timeout per attempt and a retry count from the environment; the SDK defaults without them', () => {
    expect(requestLimits({})).toEqual({});
    expect(requestLimits({ TRX_RENT_TIMEOUT: '10s', TRX_RENT_MAX_RETRIES: '0' })).toEqual({ timeoutMs: 10_000, maxRetries: 0 });
    expect(requestLimits({ TRX_RENT_TIMEOUT: ' 1m ', TRX_RENT_MAX_RETRIES: '10' })).toEqual({ timeoutMs: 60_000, maxRetries: 10 });
    expect(requestLimits({ TRX_RENT_TIMEOUT: '45' })).toEqual({ timeoutMs: 45_000 });
  });

  it('a malformed limit is a usage error naming the variable', () => {
    const thrown = (env: Record<string, string>): unknown => {
      try {
        requestLimits(env);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(thrown({ TRX_RENT_TIMEOUT: 'soon' })).toMatchObject({ exitCode: 2, message: expect.stringContaining('TRX_RENT_TIMEOUT') });
    expect(thrown({ TRX_RENT_MAX_RETRIES: '11' })).toMatchObject({ exitCode: 2, message: expect.stringContaining('TRX_RENT_MAX_RETRIES') });
    expect(thrown({ TRX_RENT_MAX_RETRIES: 'many' })).toMatchObject({ exitCode: 2, message: expect.stringContaining('TRX_RENT_MAX_RETRIES') });
  });

  it('TRX_RENT_MAX_RETRIES=0 sends a failing request once, through the run fetch, with the CLI user agent', async () => {
    const seen: Request[] = [];
    const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push(new Request(input, init));
      return new Response('{"error":"busy"}', { status: 503, headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    const client = await service({ TRX_RENT_MAX_RETRIES: '0' }, connected, fetch).client();
    await expect(client.http.request({ method: 'GET', path: '/api/v1/balance', schema: unknown() })).rejects.toBeDefined();
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe(`${BASE}/api/v1/balance`);
    expect(seen[0]!.headers.get('user-agent')).toBe('trx-rent-cli/9.9.9');
  });
});

describe('the run client', () => {
  it('is made once per kind (with or without a key) and remembered as the last client', async () => {
    const clients = service({}, connected);
    const first = await clients.client();
    expect(await clients.client()).toBe(first);
    expect(clients.last).toBe(first);
    expect(first.http.baseUrl).toBe(BASE);
    const open = await clients.client({ auth: false });
    expect(open).not.toBe(first);
    expect(await clients.api('prices', { auth: false })).toBe(await open.get('prices'));
  });

  it('needs a base URL (CONFIGURATION_ERROR, exit 2) and, for an authenticated command, a key (UNAUTHORIZED, exit 3)', async () => {
    await expect(service({}, { baseUrl: undefined, apiKey: undefined }).client({ auth: false })).rejects.toMatchObject({
      code: 'CONFIGURATION_ERROR',
      exitCode: 2,
    });
    await expect(service({}, { baseUrl: connected.baseUrl, apiKey: undefined }).client()).rejects.toMatchObject({ code: 'UNAUTHORIZED', exitCode: 3 });
    await expect(service({}, { baseUrl: connected.baseUrl, apiKey: undefined }).client({ auth: false })).resolves.toBeDefined();
  });
});
