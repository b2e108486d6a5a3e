/**
 * The programs in examples/ run as a user runs them, against the mock over real HTTP: compiled
 * with esbuild (type stripping only) into .tmp/ inside the package, so `import 'trx-rent'`
 * resolves through the package's own exports to the build, and run with Node in their own process.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = join(root, '.tmp', 'examples-run');
let mock: MockServer;
const children: ChildProcess[] = [];

beforeAll(async () => {
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: [join(root, 'examples/rent-energy.ts'), join(root, 'examples/webhook-receiver.ts')],
    outdir: out,
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    platform: 'node',
    target: 'node20',
    bundle: false,
    logLevel: 'silent',
  });
  // Fast fills: the examples' behaviour is the point, not the mock's pacing.
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 3, timings: { selectMs: 20, fillMs: 30, verifyMs: 40 } });
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await mock?.close();
});

/** Runs a compiled example; resolves with its output when `until` matches stdout or it exits. */
function run(name: string, env: Record<string, string>, until?: RegExp, timeoutMs = 20_000) {
  const child = spawn(process.execPath, [join(out, `${name}.mjs`)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  return {
    child,
    done: new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve({ code: null, stdout, stderr: `${stderr}\n(timed out)` });
      }, timeoutMs);
      child.stdout!.on('data', (chunk: Buffer) => {
        stdout += chunk;
        if (until?.test(stdout)) {
          clearTimeout(timer);
          resolve({ code: null, stdout, stderr });
        }
      });
      child.stderr!.on('data', (chunk: Buffer) => {
        stderr += chunk;
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    }),
  };
}

describe('examples/ against the mock', () => {
  it('rent-energy.ts previews, orders, waits for the fill and prints its cost', async () => {
    const { done } = run('rent-energy', { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey });
    const result = await done;
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^best: \S+ at \d+ SUN\/unit/m);
    expect(result.stdout).toMatch(/^filled: \d+(\.\d+)? TRX$/m);
  }, 30_000);

  it('webhook-receiver.ts verifies a real delivery from the mock and logs the filled order', async () => {
    const client = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, maxRetries: 0 });
    // Port 0 would not be known before the webhook is registered: listen first, then register.
    const receiver = run('webhook-receiver', { WEBHOOK_SECRET: 'replaced below', PORT: '0' }, /listening on (\S+)/);
    const listening = await receiver.done;
    const url = /listening on (\S+)/.exec(listening.stdout)?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/webhooks$/);
    receiver.child.kill('SIGKILL'); // it was started with a placeholder secret; restart with the real one on the same port
    await new Promise((resolve) => receiver.child.once('exit', resolve));

    const hook = await client.webhooks.create({ url: url!, events: ['order.filled'] });
    const port = new URL(url!).port;
    const real = run('webhook-receiver', { WEBHOOK_SECRET: hook.secret!, PORT: port }, /order \S+ filled for \d+ SUN/);
    // Wait until it listens again (any answer will do: an unsigned probe gets 400), then order.
    for (let i = 0; i < 100; i++) {
      const up = await fetch(url!, { method: 'POST', body: '{}' }).then(
        () => true,
        () => false,
      );
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const order = await client.orders.create({
      resource_type: 'ENERGY',
      amount: 65_000,
      duration_sec: 3600,
      target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
    });
    const result = await real.done;
    expect(result.stdout).toContain(`order ${order.id} filled for`);
    await client.webhooks.delete(hook.id);
  }, 30_000);
});
