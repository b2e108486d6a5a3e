/**
 * Rule 6: the mock stays up and stays local. Hostile requests get the spec's error envelope
 * (400/413), never a 500; control routes validate what they are given; CORS is off unless asked
 * for; binding beyond loopback warns that the demo key and control routes are then reachable.
 */
import { request } from 'node:http';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { BIN } from './hostile.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false });
});
afterAll(async () => {
  await mock.close();
});

/** A raw request: node's client sends the path exactly as given (fetch would normalise it). */
function raw(method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request(
      `${mock.url}${path}`,
      { method, headers: { 'x-api-key': mock.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

function envelope(text: string): { code: string; message: string } {
  const parsed = JSON.parse(text) as { error?: { code: string; message: string } };
  expect(parsed.error).toBeDefined();
  return parsed.error!;
}

describe('security: the mock stays up', () => {
  it('malformed percent-escapes in the path answer 400 with the error envelope', async () => {
    for (const path of ['/api/v1/orders/%E0%A4%A', '/api/v1/orders/%zz', '/x402/tron/account/%', '/__mock/providers/%c0']) {
      const res = await raw('GET', path);
      expect(res.status, path).toBe(400);
      expect(envelope(res.body).code, path).toBe('VALIDATION_ERROR');
    }
  });

  it('bad JSON, oversized bodies and invalid control requests get 400/413 envelopes, never 500', async () => {
    const bad = await raw('POST', '/api/v1/orders', '{"amount":');
    expect(bad.status).toBe(400);
    const big = await raw('POST', '/api/v1/orders', JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }));
    expect(big.status).toBe(413);
    expect(envelope(big.body).code).toBe('VALIDATION_ERROR');
    const cases: Array<[string, string]> = [
      ['/__mock/x402/config', '{bad json'],
      ['/__mock/x402/config', JSON.stringify({ version: 2, gasfreeTransferFee: 'lots' })],
      ['/__mock/x402/config', JSON.stringify({ nonsense: true })],
      ['/__mock/clock/advance', JSON.stringify({ ms: 'soon' })],
      ['/__mock/chain/fund', JSON.stringify({ address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW', amount_sun: 1e300 })],
      ['/__mock/credit', '[]'],
    ];
    for (const [path, body] of cases) {
      const res = await raw('POST', path, body);
      expect(res.status, `${path} ${body}`).toBe(400);
      expect(envelope(res.body).code, `${path} ${body}`).toBe('VALIDATION_ERROR');
    }
  });

  it('CORS is off unless asked for', async () => {
    const res = await raw('GET', '/api/v1/prices', undefined, { origin: 'https://evil.example' });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const withCors = await startMockServer({ port: 0, cors: true });
    try {
      const allowed = await fetch(`${withCors.url}/api/v1/prices`, { headers: { origin: 'https://app.example' } });
      expect(allowed.headers.get('access-control-allow-origin')).toBeTruthy();
    } finally {
      await withCors.close();
    }
  });

  it('binding to a non-loopback address prints a warning that the demo key and control routes are reachable', async () => {
    const child = spawn(process.execPath, [BIN, 'mock', '--host', '0.0.0.0', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no warning in 10 s:\n${out}`)), 10_000);
        const check = setInterval(() => {
          if (/warning/i.test(out) && /listening|http:\/\//i.test(out)) {
            clearTimeout(timer);
            clearInterval(check);
            resolve();
          }
        }, 50);
      });
      expect(out).toMatch(/warning/i);
      expect(out).toMatch(/demo key|api key/i);
      expect(out).toMatch(/__mock|control/i);
    } finally {
      child.kill('SIGINT');
    }
  });
});
