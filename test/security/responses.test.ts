/**
 * Rule 3: bounded responses. A body is read up to a cap and no further; a retry never downloads
 * an oversized body again; auto-pagination ends on an empty page, a repeated id, an offset past
 * the total, or a page limit; path ids cannot change the route.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { type Hostile, hostileServer, json } from './hostile.js';

const KEY = `sk_live_${'b2'.repeat(32)}`;
const servers: Hostile[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function order(id: string) {
  return {
    id,
    resource_type: 'ENERGY',
    order_type: 'MARKET',
    status: 'FILLED',
    amount: 65_000,
    duration_sec: 3600,
    target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
    created_at: '2026-11-20T00:00:00.000Z',
    fills: [],
  };
}

/** Streams `total` bytes of a never-ending JSON string, counting what it managed to write. */
async function firehose(status: number, total: number) {
  const sent = { bytes: 0 };
  const server = await hostileServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    res.write('{"x":"');
    const pump = (): void => {
      while (sent.bytes < total) {
        sent.bytes += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      res.end('"}');
    };
    res.on('close', () => (sent.bytes = Math.min(sent.bytes, total)));
    pump();
  });
  servers.push(server);
  return { server, sent };
}

describe('security: bounded responses', () => {
  it('a 100 MB body stops at the cap with a typed error, without reading it all', async () => {
    const { server, sent } = await firehose(200, 100 * 1024 * 1024);
    const client = new TrxRent({ baseUrl: server.url, apiKey: KEY });
    const error = await client.balance.get().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    expect(sent.bytes).toBeLessThan(60 * 1024 * 1024);
  });

  it('the cap is configurable, and a retryable status with an oversized body is not downloaded again', async () => {
    const { server } = await firehose(503, 8 * 1024 * 1024);
    const client = new TrxRent({ baseUrl: server.url, apiKey: KEY, maxResponseBytes: 100_000, maxRetries: 3, retry: { baseDelayMs: 1, maxDelayMs: 2 } });
    await expect(client.balance.get()).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    expect(server.seen).toHaveLength(1);
  });

  it('endless pagination: a page that repeats an id ends the walk', async () => {
    const server = await hostileServer((_req, res) => json(res, 200, { orders: [order('ord_same')], total: 1_000_000_000 }));
    servers.push(server);
    const client = new TrxRent({ baseUrl: server.url, apiKey: KEY });
    const ids: string[] = [];
    for await (const o of client.orders.list({ limit: 1 })) ids.push(o.id);
    expect(ids).toEqual(['ord_same']);
    expect(server.seen.length).toBeLessThanOrEqual(2);
  });

  it('endless pagination: fresh ids forever stop at the page limit with a typed error', async () => {
    const server = await hostileServer((_req, res, i) => json(res, 200, { orders: [order(`ord_${i}`)], total: 1_000_000_000 }));
    servers.push(server);
    const client = new TrxRent({ baseUrl: server.url, apiKey: KEY, maxPages: 5 });
    const ids: string[] = [];
    const walk = async () => {
      for await (const o of client.orders.list({ limit: 1 })) ids.push(o.id);
    };
    await expect(walk()).rejects.toMatchObject({ code: 'PAGINATION_LIMIT' });
    expect(ids).toHaveLength(5);
    expect(server.seen).toHaveLength(5);
  });

  it('a total smaller than the offset ends the walk', async () => {
    const server = await hostileServer((_req, res, i) => json(res, 200, { orders: [order(`ord_${i}`), order(`ord_${i}b`)], total: 1 }));
    servers.push(server);
    const client = new TrxRent({ baseUrl: server.url, apiKey: KEY });
    const ids: string[] = [];
    for await (const o of client.orders.list()) ids.push(o.id);
    expect(ids).toEqual(['ord_0', 'ord_0b']);
    expect(server.seen).toHaveLength(1);
  });

  it("'..', '.', '/' and empty ids are refused before sending; other characters are encoded", async () => {
    const server = await hostileServer((req, res) => json(res, 200, order(decodeURIComponent(req.url.split('/').pop() ?? ''))));
    servers.push(server);
    const client = new TrxRent({ baseUrl: server.url, apiKey: KEY });
    for (const id of ['..', '.', '', 'a/b', '../keys', '..%2Fkeys']) {
      await expect(client.orders.get(id), `id ${JSON.stringify(id)}`).rejects.toMatchObject({ code: 'VALIDATION_ERROR', field: 'id' });
      await expect(client.webhooks.delete(id), `id ${JSON.stringify(id)}`).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      await expect(client.keys.revoke(id), `id ${JSON.stringify(id)}`).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    expect(server.seen).toHaveLength(0);
    await client.orders.get('ord_1?x=1#y');
    expect(server.seen.map((r) => r.url)).toEqual(['/api/v1/orders/ord_1%3Fx%3D1%23y']);
  });
});
