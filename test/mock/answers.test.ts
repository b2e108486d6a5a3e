/**
 * The node:http adapter writes the answers of one event-loop turn together: under many
 * concurrent connections each still gets its own answer (status, body, idempotent replay) and
 * the request log sees every one.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer, RequestLogEntry } from '../../src/mock/index.js';
import { TARGET, manualServer } from './helpers.js';

let mock: MockServer;
const log: RequestLogEntry[] = [];

beforeAll(async () => {
  mock = await manualServer({ demoBalance: { trx_sun: 1_000_000_000_000 }, onRequest: (e) => log.push(e) });
});
afterAll(() => mock.close());

/** One request on its own connection (no keep-alive pool), so they arrive together. */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${mock.url}${path}`, { method, headers: { ...headers, connection: 'close' }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('answers written per event-loop turn', () => {
  it('60 concurrent requests of different kinds each get their own answer', async () => {
    const auth = { 'x-api-key': mock.apiKey, 'content-type': 'application/json' };
    const jobs = Array.from({ length: 60 }, (_, i) => {
      switch (i % 4) {
        case 0:
          return send(
            'POST',
            '/api/v1/orders',
            { ...auth, 'idempotency-key': `k${i}` },
            JSON.stringify({ resource_type: 'ENERGY', amount: 65_000 + i, duration_sec: 3600, target_address: TARGET }),
          );
        case 1:
          return send('GET', '/api/v1/prices', {});
        case 2:
          return send('GET', `/api/v1/nope-${i}`, {});
        default:
          return send('POST', '/api/v1/orders', { 'content-type': 'application/json' }, '{}');
      }
    });
    const results = await Promise.all(jobs);
    results.forEach((r, i) => {
      if (i % 4 === 0) {
        expect(r.status, `request ${i}`).toBe(201);
        expect(JSON.parse(r.text)).toMatchObject({ amount: 65_000 + i, status: 'PENDING' });
      } else if (i % 4 === 1) {
        expect(r.status).toBe(200);
        expect(Array.isArray(JSON.parse(r.text))).toBe(true);
      } else if (i % 4 === 2) {
        expect(r.status).toBe(404);
        expect(JSON.parse(r.text).error.message).toContain(`/api/v1/nope-${i}`);
      } else {
        expect(r.status).toBe(401);
        expect(JSON.parse(r.text).error.code).toBe('UNAUTHORIZED');
      }
      expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.text));
    });
    // A replay of one of them answers with the stored order.
    const again = await send(
      'POST',
      '/api/v1/orders',
      { ...auth, 'idempotency-key': 'k8' },
      JSON.stringify({ resource_type: 'ENERGY', amount: 65_008, duration_sec: 3600, target_address: TARGET }),
    );
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(JSON.parse(again.text).id).toBe(JSON.parse(results[8]!.text).id);
    expect(log.filter((e) => e.path.startsWith('/api/v1/')).length).toBe(61);
  });
});
