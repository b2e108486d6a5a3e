/**
 * The README runs as written. Every fenced block of README.md is claimed by exactly one test in
 * test/docs/readme*.test.ts (`block(marker)` or `save(marker)`, a string only that block holds),
 * and each is run ALONE, in a fresh folder of this clone, with only what the README tells a reader to have (the `export …` line of a mock,
 * the variables its table names), never with another block's leftovers:
 * - a program block (```js, its file name on its first line) is saved under that name and run
 *   with `node` (no TypeScript tooling: the README promises plain Node);
 * - the webhook receiver (TypeScript for a fetch host) is compiled as such a host does, imported,
 *   and handed a signed delivery; the msw block is a test file run with vitest;
 * - the rules file is saved as rules.json and checked by `trx-rent rules check`.
 * The shell blocks are in readme-sandbox.test.ts, the set-up block in readme-setup.test.ts.
 * Needs the build (dist/): blocks import `trx-rent` through the package's own exports.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { verifyWebhookSignature } from '../../src/webhooks/index.js';
import { paid } from '../workflows/payouts-helpers.js';
import { type Block, background, bash, block, fileName, freshFolder, outsideRequests, readmeBlocks, root, run, shellEnv } from './readme-blocks.js';

/** Save a program block under its own name in a fresh folder; its path. */
function save(marker: string): { dir: string; file: string } {
  const b = block(marker);
  const dir = freshFolder(fileName(b).replace(/\.\w+$/, ''));
  writeFileSync(join(dir, fileName(b)), b.code);
  return { dir, file: fileName(b) };
}

/** Each block gets a mock of its own: nothing another block did is there. */
let mock: MockServer;
/** What the `export …` line `trx-rent mock` prints gives a shell. */
let exported: Record<string, string>;
beforeEach(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 24, timings: { selectMs: 20, fillMs: 30, verifyMs: 40 } });
  exported = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey, TRX_RENT_TRON_NODE: mock.url };
});
afterEach(async () => {
  await mock?.close();
});

/** A sender as `trx-rent mock --wallet key.txt` makes one: 1000 TRX and 1000 USDT. */
function wallet() {
  const privateKey = randomBytes(32).toString('hex');
  const address = privateKeyToTronAddress(privateKey);
  const chain = mock.state.chain;
  chain.fundTrx(address, 1_000_000_000n);
  chain.syntheticTransfer({ token: chain.token('USDT')!, to: address, amount: 1_000_000_000n, label: `readme wallet ${address}` });
  return { privateKey, address };
}

/** Run a saved program with node, in its folder, with `env` on top of a fresh shell's. */
function node(saved: { dir: string; file: string }, env: Record<string, string>, timeout = 90_000) {
  return run(process.execPath, [saved.file], { cwd: saved.dir, env: shellEnv(saved.dir, env), timeout });
}

/** Blocks claimed by no marker or by several, and markers that match no block or several. */
function coverage(blocks: Block[], claims: string[]): string[] {
  const count = (b: Block) => claims.filter((c) => b.code.includes(c)).length;
  return [
    ...blocks.filter((b) => count(b) !== 1).map((b) => `README.md:${b.line} (${b.lang}) is claimed ${count(b)} times`),
    ...claims
      .filter((c) => blocks.filter((b) => b.code.includes(c)).length !== 1)
      .map((c) => `${JSON.stringify(c)} matches ${blocks.filter((b) => b.code.includes(c)).length} blocks`),
  ];
}

/** The markers the README tests claim (each once): the single-quoted first argument of block() and save(). */
const claims = [
  ...new Set(
    ['readme.test.ts', 'readme-sandbox.test.ts', 'readme-setup.test.ts']
      .map((f) => readFileSync(join(root, 'test', 'docs', f), 'utf8'))
      .flatMap((s) => [...s.matchAll(/\b(?:block|save)\(\s*'((?:[^'\\]|\\.)*)'/g)].map((m) => m[1]!.replace(/\\(.)/g, '$1'))),
  ),
];

describe('every README block is claimed by one test', () => {
  it('each fenced block holds exactly one marker that a readme test claims and runs', () => {
    expect(readmeBlocks().length).toBeGreaterThanOrEqual(17);
    expect(coverage(readmeBlocks(), claims)).toEqual([]);
  });

  it('the check can fail: a block nobody claims, a marker two blocks hold', () => {
    expect(coverage(readmeBlocks(), claims.slice(1))).toEqual([expect.stringMatching(/^README\.md:\d+ \(\w+\) is claimed 0 times$/)]);
    expect(coverage(readmeBlocks(), [...claims, 'npx trx-rent']).some((p) => p.startsWith('"npx trx-rent" matches'))).toBe(true);
  });
});

describe("the README's program blocks, each alone in a fresh folder, run with node", { timeout: 120_000 }, () => {
  it('tour.mjs (the account API): preview, order, fill, balance, every page, a withdrawal', async () => {
    const before = mock.state.balance(mock.state.demo.account_id).trx;
    const r = await node(save('await client.orders.preview('), exported);
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/ TRX available/);
    expect(r.stdout).toMatch(/https:\/\/tronscan\.org\//); // a fill's explorer link
    expect(mock.state.balance(mock.state.demo.account_id).trx).toBeLessThan(before - 50_000_000); // the order and the 50 TRX withdrawal
  });

  it('send.mjs: estimate, send and ensure against the mock and its node, with the variables of its table', async () => {
    const sender = wallet();
    const to = privateKeyToTronAddress(randomBytes(32).toString('hex'));
    const r = await node(save('client.transfers.send('), { ...exported, TRON_ADDRESS: sender.address, TRON_KEY: sender.privateKey, TO_ADDRESS: to });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^energy \d+ burn \d+ rent \d+ saving -?\d+$/m);
    expect(r.stdout).toMatch(/^sent [0-9a-f]{64} \d+ SUN instead of \d+ saved -?\d+ confirmed included$/m);
    const chain = mock.state.chain;
    expect(chain.tokenBalance(to, chain.token('USDT')!.address)).toBe(10_000_000n);
  });

  it('payouts.mjs: two rows paid once each with one rental; the batch object on the same journal pays nothing again', async () => {
    const sender = wallet();
    const to = privateKeyToTronAddress(randomBytes(32).toString('hex'));
    const saved = save('client.transfers.sendMany(');
    const r = await node(saved, { ...exported, TRON_ADDRESS: sender.address, TRON_KEY: sender.privateKey, TO_ADDRESS: to });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^2 paid; \d+ SUN rented instead of \d+ SUN burnt$/m);
    expect(r.stdout).toMatch(/^\d+ orders, \d+ SUN against \d+ SUN sent one by one$/m);
    const sent = paid(mock, sender.address);
    expect(sent.get(to)).toEqual({ count: 1, atomic: 10_000_000n });
    expect(sent.get('TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW')).toEqual({ count: 1, atomic: 2_500_000n });
    expect(existsSync(join(saved.dir, 'payouts.journal'))).toBe(true);
  });

  it('mock-server.mjs: a mock in-process, a client on it, closed', async () => {
    const r = await node(save('startMockServer('), {});
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  });

  it('x402.mjs: pays the mock from any TRON and EVM keys in the environment and prints the data', async () => {
    const r = await node(save('new X402Client('), {
      TRX_RENT_BASE_URL: mock.url,
      TRON_KEY: randomBytes(32).toString('hex'),
      BASE_KEY: `0x${randomBytes(32).toString('hex')}`,
    });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/^\d+ providers; paid 0\.01 USD$/m);
  });

  it('rules.json is valid as written: trx-rent rules check explains every rule', async () => {
    const dir = freshFolder('rules-check');
    writeFileSync(join(dir, 'rules.json'), block('"id": "hot-wallet"').code);
    const r = await bash('trx-rent rules check rules.json', { cwd: dir, env: shellEnv(dir, { RULES_WEBHOOK_SECRET: 'whsec_readme_rules' }), timeout: 60_000 });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    for (const id of ['hot-wallet', 'cheap-stock', 'morning-top-up', 'renew-before-expiry']) expect(r.stdout).toContain(id);
  });

  it('rules-runner.mjs with that rules.json: a rule acts on the mock, the signed webhook is notified, SIGTERM stops it cleanly', async () => {
    const saved = save('new RuleRunner(');
    writeFileSync(join(saved.dir, 'rules.json'), block('"id": "hot-wallet"').code);
    const secret = 'whsec_readme_rules';
    const runner = background(`node ${saved.file}`, { cwd: saved.dir, env: shellEnv(saved.dir, { ...exported, RULES_WEBHOOK_SECRET: secret }) });
    const journal = join(saved.dir, 'rules.journal.jsonl');
    // On a fresh mock the market is below cheap-stock's price, or hot-wallet's address below its level: a rule buys.
    const done = () =>
      existsSync(journal) &&
      readFileSync(journal, 'utf8')
        .split('\n')
        .filter(Boolean)
        .some((l) => (JSON.parse(l) as { kind: string }).kind === 'done');
    try {
      await runner.until(done, 90_000, 'a rule done in the journal');
    } finally {
      expect(await runner.stop('SIGTERM'), JSON.stringify(runner.output())).toBe(0);
    }
    const hooks = outsideRequests(saved.dir).filter((h) => h.url === 'https://hooks.example.com/trx-rent');
    expect(hooks.length).toBeGreaterThan(0);
    for (const hook of hooks) expect(await verifyWebhookSignature(hook.body, hook.headers['x-service-signature'] ?? '', secret)).toBe(true);
  });
});

describe("the README's TypeScript blocks, as their hosts run them", { timeout: 120_000 }, () => {
  it('the webhook receiver, compiled as a fetch host compiles it: a signed delivery 200 and handed to handle(), a forged one 400', async () => {
    const dir = freshFolder('webhook-receiver');
    const esbuild = await import('esbuild');
    const { code } = await esbuild.transform(block('constructWebhookEvent(raw').code, { loader: 'ts', format: 'esm', target: 'node20' });
    writeFileSync(join(dir, 'receiver.mjs'), code);
    writeFileSync(
      join(dir, 'host.mjs'),
      `import receiver from ${JSON.stringify(pathToFileURL(join(dir, 'receiver.mjs')).href)};
import { signWebhookPayload } from 'trx-rent/webhooks';
const body = JSON.stringify({ event: 'order.filled', data: { id: 'ord_readme', status: 'FILLED' }, timestamp: Math.floor(Date.now() / 1000) });
const secret = 'whsec_readme';
const ok = await receiver.fetch(new Request('http://x/hook', { method: 'POST', body, headers: { 'x-service-signature': await signWebhookPayload(body, secret) } }), { WEBHOOK_SECRET: secret });
const bad = await receiver.fetch(new Request('http://x/hook', { method: 'POST', body, headers: { 'x-service-signature': 'sha256=' + '0'.repeat(64) } }), { WEBHOOK_SECRET: secret });
await new Promise((r) => setTimeout(r, 10));
console.log('status', ok.status, bad.status);
`,
    );
    const r = await node({ dir, file: 'host.mjs' }, {});
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toContain('status 200 400');
    expect(r.stdout).toContain('order ord_readme filled');
  });

  it('orders.test.ts (msw + vitest) passes under vitest, alone in its folder', async () => {
    const saved = save('createHandlers(state');
    writeFileSync(join(saved.dir, 'vitest.config.mjs'), 'export default { test: { include: ["*.test.ts"] } };\n');
    const r = await run(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--root', saved.dir], {
      cwd: saved.dir,
      env: { ...shellEnv(saved.dir), CI: '1', NODE_OPTIONS: '' },
      timeout: 100_000,
    });
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/Tests\s+2 passed/);
  });
});
