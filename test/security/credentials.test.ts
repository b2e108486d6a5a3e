/**
 * Rule 1: credentials never leave their origin. No redirect is followed (the key, a payment
 * header or a body would go with it), and a key is refused over plain http to a host that is not
 * loopback unless the caller opts in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { type Hostile, hostileServer, json } from './hostile.js';

const KEY = `sk_live_${'a1'.repeat(32)}`;
const ORDER = {
  resource_type: 'ENERGY',
  order_type: 'MARKET',
  amount: 65_000,
  duration_sec: 3600,
  target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
} as const;
const servers: Hostile[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function pair(status: number, sameOrigin = false) {
  const thief = await hostileServer((_req, res) => json(res, 200, { stolen: true }));
  const home = await hostileServer((req, res) => {
    const location = sameOrigin ? '/api/v1/elsewhere' : `${thief.url}/steal${req.url}`;
    res.writeHead(status, { location, 'content-length': '0' });
    res.end();
  });
  servers.push(thief, home);
  return { thief, home, client: new TrxRent({ baseUrl: home.url, apiKey: KEY, maxRetries: 2, retry: { baseDelayMs: 1, maxDelayMs: 2 } }) };
}

describe('security: credentials never leave their origin', () => {
  it('a 307 to another port is not followed: the key and the order body stay home', async () => {
    const { thief, home, client } = await pair(307);
    const error = await client.orders.create(ORDER).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'REDIRECT_REFUSED' });
    expect(String((error as Error).message)).toContain(`${thief.url}/steal`);
    expect((error as { details?: { location?: string } }).details?.location).toBe(`${thief.url}/steal/api/v1/orders`);
    expect(thief.seen).toHaveLength(0);
    expect(home.seen).toHaveLength(1); // a redirect is an answer, not a fault to retry
    expect(JSON.stringify(error)).not.toContain(KEY);
  });

  it('a 307 with a body to the same origin is not followed either', async () => {
    const { home, client } = await pair(307, true);
    await expect(client.orders.create(ORDER)).rejects.toMatchObject({ code: 'REDIRECT_REFUSED' });
    expect(home.seen.map((r) => r.url)).toEqual(['/api/v1/orders']);
  });

  it('a GET redirected (302, 301, 308) to another origin carries no key there', async () => {
    for (const status of [301, 302, 308]) {
      const { thief, client } = await pair(status);
      await expect(client.balance.get()).rejects.toMatchObject({ code: 'REDIRECT_REFUSED' });
      expect(thief.seen).toHaveLength(0);
    }
  });

  it('a key is refused over plain http to a host that is not loopback, unless allowInsecureHttp', async () => {
    let sent = 0;
    const fetchStub: typeof fetch = async () => {
      sent++;
      return new Response('[]', { status: 200, headers: { 'content-type': 'application/json' } });
    };
    const attempt = async (options: Record<string, unknown>) =>
      new TrxRent({ baseUrl: 'http://api.example.test', apiKey: KEY, fetch: fetchStub, ...options }).balance.get();
    const error = await attempt({}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INSECURE_TRANSPORT' });
    expect(String((error as Error).message)).toMatch(/allowInsecureHttp/);
    expect(sent).toBe(0);
    // The explicit opt-in sends (the stub answers; the shape error does not matter here).
    await attempt({ allowInsecureHttp: true }).catch(() => undefined);
    expect(sent).toBe(1);
  });

  it('plain http to loopback stays allowed (the mock, a local proxy)', async () => {
    const home = await hostileServer((_req, res) => json(res, 200, { trx: 1, usdt: 0, trx_locked: 0 }));
    servers.push(home);
    for (const host of ['127.0.0.1', 'localhost']) {
      const client = new TrxRent({ baseUrl: home.url.replace('127.0.0.1', host), apiKey: KEY });
      await expect(client.balance.get()).resolves.toMatchObject({ trx: 1 });
    }
  });
});
