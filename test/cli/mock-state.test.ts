/**
 * `trx-rent mock` over time, as a real process: --state FILE survives a kill (SIGKILL, no chance
 * to save on exit) and a restart with the same orders, balance and clock, and a new order gets a
 * new id; one log line per request on stderr (method, path, status, ms), none with --quiet.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADDRESS, startCli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'trx-rent-mock-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const READY = /"memo": "[^"]+"\s*}/;
const order = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: ADDRESS };

async function call(base: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(base + path, {
    method,
    headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as any };
}

async function until(check: () => boolean, ms = 10_000) {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('trx-rent mock --state', { timeout: 90_000 }, () => {
  it('kill -9 and restart: same orders, balance and clock; a new order gets a new id; the request log', async () => {
    const file = join(dir, 'mock.json');
    const first = await startCli(['mock', '--port', '0', '--seed', '5', '--no-rate-limits', '--state', file, '--json'], READY);
    const info = JSON.parse(first.output().stdout);
    const { url, api_key: key } = info;
    const a = await call(url, key, 'POST', '/api/v1/orders', order);
    const b = await call(url, key, 'POST', '/api/v1/orders', order);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect((await call(url, key, 'POST', '/__mock/clock/advance', { ms: 7_200_000 })).status).toBe(200);
    const orders = await call(url, key, 'GET', '/api/v1/orders');
    const balance = await call(url, key, 'GET', '/api/v1/balance');
    const clock = await call(url, key, 'GET', '/__mock/clock');
    expect(orders.json.total).toBe(2);
    // The request log: one line per request, method, path, status, ms.
    await until(() => (first.output().stderr.match(/"type":"request"/g) ?? []).length >= 6);
    const lines = first
      .output()
      .stderr.trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === 'request').map((l) => `${l.method} ${l.path} ${l.status}`)).toEqual([
      'POST /api/v1/orders 201',
      'POST /api/v1/orders 201',
      'POST /__mock/clock/advance 200',
      'GET /api/v1/orders 200',
      'GET /api/v1/balance 200',
      'GET /__mock/clock 200',
    ]);
    expect(lines.every((l) => l.type !== 'request' || (typeof l.ms === 'number' && l.ms >= 0))).toBe(true);
    expect(first.output().stderr).not.toContain(key);
    // Saved within a moment of the last request; then killed without warning.
    const savedAfter = Date.now();
    await until(() => existsSync(file) && statSync(file).mtimeMs >= savedAfter - 1_000);
    await new Promise((r) => setTimeout(r, 600));
    first.child.kill('SIGKILL');
    await first.stop();

    const second = await startCli(['mock', '--port', '0', '--no-rate-limits', '--state', file, '--json', '--quiet'], READY);
    try {
      const again = JSON.parse(second.output().stdout);
      expect(again.api_key).toBe(key);
      const base = again.url;
      const ordersAfter = await call(base, key, 'GET', '/api/v1/orders');
      expect(ordersAfter.json).toEqual(orders.json);
      expect(ordersAfter.json.orders.every((o: { status: string }) => o.status === 'FILLED')).toBe(true);
      expect((await call(base, key, 'GET', '/api/v1/balance')).json).toEqual(balance.json);
      const clockAfter = await call(base, key, 'GET', '/__mock/clock');
      // The advanced real clock keeps its two hours ahead (plus the seconds the restart took).
      expect(clockAfter.json.now - clock.json.now).toBeGreaterThanOrEqual(0);
      expect(clockAfter.json.now - clock.json.now).toBeLessThan(60_000);
      expect(clockAfter.json.now - Date.now()).toBeGreaterThan(7_100_000);
      const c = await call(base, key, 'POST', '/api/v1/orders', order);
      expect(c.status).toBe(201);
      expect([a.json.id, b.json.id]).not.toContain(c.json.id);
      // --quiet: no request lines.
      expect(second.output().stderr).not.toMatch(/"type":"request"/);
    } finally {
      expect((await second.stop()).code).toBe(0);
    }
    // Without --state, a restart never hands out an earlier id either (same seed).
    const plain1 = await startCli(['mock', '--port', '0', '--seed', '5', '--no-rate-limits', '--json', '--quiet'], READY);
    const p1 = JSON.parse(plain1.output().stdout);
    const x = await call(p1.url, p1.api_key, 'POST', '/api/v1/orders', order);
    await plain1.stop();
    const plain2 = await startCli(['mock', '--port', '0', '--seed', '5', '--no-rate-limits', '--json', '--quiet'], READY);
    const p2 = JSON.parse(plain2.output().stdout);
    const y = await call(p2.url, p2.api_key, 'POST', '/api/v1/orders', order);
    await plain2.stop();
    expect(x.status).toBe(201);
    expect(y.status).toBe(201);
    expect(y.json.id).not.toBe(x.json.id);
  });

  it('human request log lines: time, method, path, status, ms', async () => {
    const server = await startCli(['mock', '--port', '0', '--no-rate-limits', '--no-json'], /Press Ctrl\+C to stop/);
    try {
      const url = server.output().stdout.match(/listening on (\S+)/)![1]!;
      await fetch(`${url}/api/v1/prices`);
      await fetch(`${url}/api/v1/nope`);
      await until(() => /GET \/api\/v1\/nope 404/.test(server.output().stderr));
      expect(server.output().stderr).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z {2}GET \/api\/v1\/prices 200 \d+(\.\d)?ms$/m);
    } finally {
      await server.stop();
    }
  });
});
