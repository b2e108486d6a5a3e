/**
 * The contract checked from the client's side, with a mock that knows nothing but the document:
 * Prism (`@stoplight/prism-cli`) serves the generated OpenAPI document on 127.0.0.1, and the
 * SDK's main calls run against it. Its responses are built from the schemas alone: static ones
 * (the first enum value, `0`, `"string"`, example dates) and dynamic ones (json-schema-faker:
 * random values, extra properties), so the SDK must parse whatever the contract allows.
 *
 * Everything is bounded by timeouts; Prism runs in its own process group and is stopped with
 * SIGTERM, then SIGKILL, also if the test process exits early.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from '../helpers/ports.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTALL_TIMEOUT_MS, toolBin } from '../../scripts/lib/tools.mjs';
import { TrxRent } from '../../src/index.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';

// Prism is installed on demand from scripts/tools/prism's lockfile (cached; see scripts/lib/tools.mjs).
let PRISM_BIN = '';
const TARGET = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
const START_TIMEOUT_MS = 60_000;

let prism: ChildProcess | undefined;
let workDir = '';
let baseUrl = '';
let output = '';

/** Kill Prism's whole process group (it is the group leader: spawned detached). */
function killGroup(signal: NodeJS.Signals): void {
  if (!prism?.pid || prism.exitCode !== null || prism.signalCode !== null) return;
  try {
    process.kill(-prism.pid, signal);
  } catch {
    // already gone
  }
}
const killOnExit = () => killGroup('SIGKILL');

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Poll until Prism answers, the process dies, or the deadline passes. */
async function waitUntilServing(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`Prism exited (${child.exitCode ?? child.signalCode}):\n${output}`);
    try {
      const r = await fetch(`${url}/api/v1/prices`, { signal: AbortSignal.timeout(2_000) });
      await r.arrayBuffer();
      if (r.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`Prism did not serve within ${START_TIMEOUT_MS} ms:\n${output}`);
}

beforeAll(
  async () => {
    PRISM_BIN = toolBin('prism', 'prism');
    workDir = mkdtempSync(join(tmpdir(), 'trx-rent-prism-'));
    const file = join(workDir, 'openapi.json');
    writeFileSync(file, JSON.stringify(buildOpenApiDocument({ version: 'test' })));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    prism = spawn(process.execPath, [PRISM_BIN, 'mock', '--host', '127.0.0.1', '--port', String(port), '--verboseLevel', 'warn', file], {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1' },
    });
    process.once('exit', killOnExit);
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-8_000);
    };
    prism.stdout?.on('data', keep);
    prism.stderr?.on('data', keep);
    await waitUntilServing(baseUrl, prism);
  },
  INSTALL_TIMEOUT_MS + START_TIMEOUT_MS + 10_000,
);

afterAll(async () => {
  if (prism) {
    killGroup('SIGTERM');
    if (!(await exited(prism, 5_000))) {
      killGroup('SIGKILL');
      await exited(prism, 5_000);
    }
    process.off('exit', killOnExit);
  }
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}, 20_000);

/** The SDK's main calls; each must resolve (parsed by the SDK's response schemas). */
async function mainCalls(sdk: TrxRent) {
  const prices = await sdk.prices.list();
  expect(Array.isArray(prices)).toBe(true);
  const preview = await sdk.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 });
  expect(Array.isArray(preview.fallbacks)).toBe(true);
  expect(typeof preview.no_providers).toBe('boolean');
  const created = await sdk.orders.create({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET });
  expect(typeof created.id).toBe('string');
  const order = await sdk.orders.get('3f1c2a7e-0000-4000-8000-000000000001');
  expect(typeof order.status).toBe('string');
  expect(Array.isArray(order.fills)).toBe(true);
  const page = await sdk.orders.list({ limit: 10 });
  expect(Array.isArray(page.orders)).toBe(true);
  const balance = await sdk.balance.get();
  expect(typeof balance.trx).toBe('number');
  const history = await sdk.history.list({ period: '30D' });
  expect(Array.isArray(history)).toBe(true);
  const summary = await sdk.history.summary();
  expect(typeof summary.total_orders).toBe('number');
  const key = await sdk.keys.create({ name: 'prism', permissions: ['view_orders'] });
  expect(typeof key.key).toBe('string');
  const revoked = await sdk.keys.revoke('key-1');
  expect(revoked.revoked).toBe(true);
  const hooks = await sdk.webhooks.list();
  expect(Array.isArray(hooks)).toBe(true);
  const hook = await sdk.webhooks.create({ url: 'https://127.0.0.1:1/hook', events: ['order.filled'] });
  expect(typeof hook.secret).toBe('string');
  return { prices, preview, created, order, balance, history, summary, key, hooks };
}

describe('the SDK against Prism serving the generated document', () => {
  const client = (headers?: Record<string, string>) =>
    new TrxRent({ baseUrl, apiKey: `sk_live_${'ab'.repeat(32)}`, maxRetries: 0, timeoutMs: 10_000, ...(headers ? { headers } : {}) });

  it('static responses (built from the schemas) parse', async () => {
    const r = await mainCalls(client());
    // What Prism made of the schemas: the first enum value, date-time examples.
    expect(r.created.status).toBe('PENDING');
    expect(r.order.resource_type).toBe('ENERGY');
    expect(Number.isNaN(Date.parse(String(r.created.created_at)))).toBe(false);
  }, 30_000);

  it('the same calls with a JWT instead of a key', async () => {
    const sdk = new TrxRent({ baseUrl, jwt: 'eyJhbGciOiJIUzI1NiJ9.e30.c2ln', maxRetries: 0, timeoutMs: 10_000 });
    await expect(sdk.balance.get()).resolves.toMatchObject({ trx: expect.any(Number) });
  }, 30_000);

  it('dynamic responses (json-schema-faker: random values, extra properties) parse, over several rounds', async () => {
    // Unseeded, so each round sees new values; a failure names the response that broke it.
    let last = '';
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      last = `${init?.method ?? 'GET'} ${String(input)} -> ${response.status} ${await response.clone().text()}`;
      return response;
    };
    const sdk = new TrxRent({
      baseUrl,
      apiKey: `sk_live_${'ab'.repeat(32)}`,
      maxRetries: 0,
      timeoutMs: 10_000,
      headers: { Prefer: 'dynamic=true' },
      fetch: recording,
    });
    const ids = new Set<string>();
    for (let round = 0; round < 10; round++) {
      try {
        ids.add((await mainCalls(sdk)).created.id);
      } catch (error) {
        throw new Error(`round ${round}: ${(error as Error).message}\nlast response: ${last.slice(0, 2_000)}`, { cause: error });
      }
    }
    expect(ids.size, 'generated, not the static example').toBeGreaterThan(1);
  }, 60_000);

  it('Prism enforces the document on requests: no credentials is a 401, which the SDK reports as such', async () => {
    const sdk = new TrxRent({ baseUrl, maxRetries: 0, timeoutMs: 10_000 });
    await expect(sdk.balance.get()).rejects.toMatchObject({ status: 401 });
  }, 30_000);
});
