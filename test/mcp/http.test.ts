import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { serveHttp, type ServedHttp } from '../../src/mcp/transports.js';
import { TOOLS } from '../../src/mcp/tools/index.js';
import { KEYS, TARGET, errorOf, ok } from './helpers.js';

/**
 * `trx-rent mcp --http PORT`: streamable HTTP on loopback, one spend guard and x402 budget shared
 * by every MCP session, a bearer token, Host and Origin checked so a web page cannot drive it.
 */
let mock: MockServer;
let served: ServedHttp;
const logs: string[] = [];
beforeAll(async () => {
  mock = await startMockServer({ rateLimits: false, seed: 33 });
  served = await serveHttp(
    {
      baseUrl: mock.url,
      apiKey: mock.apiKey,
      wallet: { tron: KEYS.tron },
      tronFullNode: mock.url,
      gasfreeRelayer: `${mock.url}/__mock/gasfree`,
      allowSpend: true,
      spendWithoutConfirmation: true,
      limits: { x402Budget: '0.01' },
      log: (line) => logs.push(line),
    },
    { port: 0, host: '127.0.0.1' },
  );
});
afterAll(async () => {
  await served?.close();
  await mock?.close();
});

const auth = () => ({ authorization: `Bearer ${served.token}` });
const transport = () => new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: auth() } });

async function client(): Promise<Client> {
  const c = new Client({ name: 'trx-rent-http-test', version: '1.0.0' });
  await c.connect(transport(), { timeout: 10_000 });
  return c;
}

const call = async (c: Client, name: string, args: Record<string, unknown> = {}) =>
  (await c.callTool({ name, arguments: args }, undefined, { timeout: 15_000 })) as CallToolResult;

describe('streamable HTTP on loopback', () => {
  test('serves on 127.0.0.1 at /mcp; every MCP session shares the one x402 budget', async () => {
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const a = await client();
    const b = await client();
    try {
      expect((await a.listTools()).tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
      expect(ok<{ best: unknown }>(await call(a, 'preview_order', { resource: 'ENERGY', amount: 65_000, duration: 3600 })).best).toBeTruthy();
      ok(await call(a, 'x402_network'));
      expect(errorOf(await call(a, 'x402_network')).code).toBe('PAYMENT_REFUSED');
      // another session: the same 0.01 USD budget, already spent
      expect(errorOf(await call(b, 'x402_network')).code).toBe('PAYMENT_REFUSED');
      expect(errorOf(await call(a, 'create_order', { resource_type: 'ENERGY', amount: 1, duration_sec: 3600, target_address: TARGET })).code).toBe(
        'VALIDATION_ERROR',
      );
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('confirmations travel over HTTP too: declined, nothing paid', async () => {
    const c = new Client({ name: 'trx-rent-http-test', version: '1.0.0' }, { capabilities: { elicitation: { form: {} } } });
    const asked: string[] = [];
    c.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(String(request.params.message));
      return { action: 'decline' };
    });
    await c.connect(transport(), { timeout: 10_000 });
    try {
      // (the x402 budget is the server's, spent by the test above: an order is asked instead)
      expect(errorOf(await call(c, 'create_order', { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET })).code).toBe(
        'DECLINED',
      );
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatch(/^Rent 65000 ENERGY to T\w+ for 3600 s \(MARKET\), at most \d+ SUN per unit: at most [\d.]+ TRX\. Approve\?$/);
    } finally {
      await c.close();
    }
  });

  test('a foreign Origin or Host (DNS rebinding) is refused; other paths are 404', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
    };
    const post = (headers: Record<string, string>) =>
      fetch(served.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...auth(), ...headers },
        body: JSON.stringify(init),
      });
    expect((await post({ origin: 'https://evil.example' })).status).toBe(403);
    // fetch will not send another Host; node:http will
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(served.url);
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { host: 'evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...auth() },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(JSON.stringify(init));
    });
    expect(status).toBe(403);
    expect((await fetch(served.url.replace(/\/mcp$/, '/other'))).status).toBe(404);
    expect(
      (
        await fetch(served.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...auth() },
          body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        })
      ).status,
    ).toBe(400);
  });

  test('binding anything but loopback is refused', async () => {
    await expect(serveHttp({ baseUrl: mock.url }, { port: 0, host: '0.0.0.0' })).rejects.toThrow(/loopback only/);
  });
});
