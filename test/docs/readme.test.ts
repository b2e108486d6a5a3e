/**
 * The README runs as written. Its blocks are extracted from README.md (never copied here) and run
 * against the built package and a mock on 127.0.0.1:
 * - each ```ts block, compiled with esbuild and run with node as an ES module (top-level await),
 *   with TRX_RENT_BASE_URL / TRX_RENT_API_KEY (and x402 keys) pointing at a mock; the webhook
 *   receiver is imported and handed a signed delivery; the msw block is a vitest file and runs
 *   under vitest in its own process. snippets.test.ts type-checks the same blocks.
 * - the CLI's ```sh block, with bash, on a free port instead of 8787, `npx trx-rent` as printed.
 * Needs the build (dist/): blocks import `trx-rent` through the package's own exports.
 */
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from '../helpers/ports.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { KEYS } from '../x402/helpers.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
// Inside the repository, so `import 'trx-rent'` resolves through package.json's exports (self-reference).
const out = join(root, '.tmp', 'readme-run');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

function blocks(lang: string): string[] {
  return [...readme.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]!);
}
const ts = blocks('ts');
const find = (marker: string) => {
  const found = ts.filter((b) => b.includes(marker));
  expect(found, `one README block containing ${marker}`).toHaveLength(1);
  return found[0]!;
};

async function compile(name: string, code: string): Promise<string> {
  const esbuild = await import('esbuild');
  const { code: js } = await esbuild.transform(code, { loader: 'ts', format: 'esm', target: 'node20' });
  const file = join(out, `${name}.mjs`);
  writeFileSync(file, js);
  return file;
}

/** Run a child without blocking this process's event loop: the mock it talks to lives here. */
function run(command: string, args: string[], options: { cwd: string; env: Record<string, string>; timeout: number }) {
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(command, args, { ...options, encoding: 'utf8', maxBuffer: 16 << 20, killSignal: 'SIGKILL' }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

function node(file: string, env: Record<string, string>, timeout = 60_000) {
  return run(process.execPath, [file], { cwd: out, timeout, env: { PATH: process.env.PATH ?? '', ...env } });
}

let mock: MockServer;
let env: Record<string, string>;
beforeAll(async () => {
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 24, timings: { selectMs: 20, fillMs: 30, verifyMs: 40 } });
  env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
});
afterAll(async () => {
  await mock?.close();
});

describe("the README's TypeScript blocks run against the mock", { timeout: 90_000 }, () => {
  it('finds the blocks (account API, webhooks, mock server, msw test, x402)', () => {
    expect(ts.length).toBeGreaterThanOrEqual(5);
  });

  it('the account API tour: preview, order, fill, balance, every page, a withdrawal', async () => {
    const before = mock.state.balance(mock.state.demo.account_id).trx;
    const r = await node(await compile('account', find('await client.orders.preview(')), env);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/ TRX available/);
    expect(r.stdout).toMatch(/https:\/\/tronscan\.org\//); // a fill's explorer link
    expect(mock.state.balance(mock.state.demo.account_id).trx).toBeLessThan(before - 50_000_000); // the order and the 50 TRX withdrawal
  });

  it('the webhook receiver answers a signed delivery 200 and hands the order to handle(); a forged one 400', async () => {
    const receiver = await compile('webhook-receiver', find('constructWebhookEvent'));
    const harness = join(out, 'webhook-harness.mjs');
    writeFileSync(
      harness,
      `import receiver from ${JSON.stringify(pathToFileURL(receiver).href)};
import { signWebhookPayload } from 'trx-rent/webhooks';
const body = JSON.stringify({ event: 'order.filled', data: { id: 'ord_readme', status: 'FILLED' }, timestamp: Math.floor(Date.now() / 1000) });
const secret = 'whsec_readme';
const ok = await receiver.fetch(new Request('http://x/hook', { method: 'POST', body, headers: { 'x-service-signature': await signWebhookPayload(body, secret) } }), { WEBHOOK_SECRET: secret });
const bad = await receiver.fetch(new Request('http://x/hook', { method: 'POST', body, headers: { 'x-service-signature': 'sha256=' + '0'.repeat(64) } }), { WEBHOOK_SECRET: secret });
await new Promise((r) => setTimeout(r, 10));
console.log('status', ok.status, bad.status);
`,
    );
    const r = await node(harness, {});
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain('status 200 400');
    expect(r.stdout).toContain('order ord_readme filled');
  });

  it('the mock server block', async () => {
    const r = await node(await compile('mock-server', find('startMockServer(')), {});
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  });

  it('x402: pays the mock from the keys in the environment and prints the data', async () => {
    const r = await node(await compile('x402', find('new X402Client(')), { TRX_RENT_BASE_URL: mock.url, TRON_KEY: KEYS.tron, BASE_KEY: KEYS.evm });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^\d+ providers; paid 0\.01 USD$/m);
  });

  it('send USDT without burning TRX: estimate, send and ensure run against the mock and its node', async () => {
    const { privateKeyToTronAddress } = await import('../../src/protocol/tron-transaction.js');
    const chain = mock.state.chain;
    const privateKey = '5a'.repeat(32);
    const from = privateKeyToTronAddress(privateKey);
    chain.syntheticTransfer({ token: chain.token('USDT')!, to: from, amount: 50_000_000n, label: 'readme sender' });
    chain.fundTrx(from, 2_000_000n);
    const to = privateKeyToTronAddress('6b'.repeat(32));
    const r = await node(await compile('send', find('client.transfers.send(')), { ...env, TRX_RENT_TRON_NODE: mock.url, TRON_ADDRESS: from, TRON_KEY: privateKey, TO_ADDRESS: to });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^energy \d+ burn \d+ rent \d+ saving -?\d+$/m);
    expect(r.stdout).toMatch(/^sent [0-9a-f]{64} \d+ SUN instead of \d+ saved -?\d+ confirmed included$/m);
    expect(chain.tokenBalance(to, chain.token('USDT')!.address)).toBe(10_000_000n);
  });

  it('the msw + vitest example passes under vitest', () => {
    const dir = join(out, 'msw');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'orders.test.ts'), find("from 'trx-rent/mock/msw'"));
    writeFileSync(join(dir, 'vitest.config.mjs'), 'export default { test: { include: ["*.test.ts"] } };\n');
    const r = spawnSync(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--root', dir], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 80_000,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', CI: '1' },
    });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/Tests\s+2 passed/);
  });
});

describe("the README's CLI block runs with bash", () => {
  it('every line, with npx trx-rent, against a mock server it starts and stops', async () => {
    const [cli] = blocks('sh').filter((b) => b.includes('trx-rent.js mock --port 8787'));
    expect(cli).toBeDefined();
    const port = await freePort();
    const tmp = mkdtempSync(join(tmpdir(), 'trx-rent-readme-sh-'));
    const json = join(tmp, 'mock.json');
    const script = `set -euo pipefail\ntrap 'kill %1 2>/dev/null || true' EXIT\n${cli!
      .replaceAll('8787', String(port))
      .replace(/(\.\/)?mock\.json/g, json)}`;
    const r = await run('bash', ['-c', script], {
      cwd: root,
      timeout: 150_000,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmp, TRX_RENT_CONFIG_DIR: tmp, npm_config_update_notifier: 'false' },
    });
    rmSync(tmp, { recursive: true, force: true });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^"?\w+"?$/m); // prices --query '[0].provider'
    expect(r.stdout).toMatch(/"status": "FILLED"/); // orders list --json id,status
    expect(r.stdout).toMatch(/"payment"/); // --mock x402 prices
  }, 160_000);
});
