/**
 * Every example in every `--help` (src/cli/examples.ts) runs against the mock as written. Only
 * what an example cannot know is filled in: placeholders (`T...`, an order id, a key id, files it
 * names), the origin (the mock's instead of api.example.com) and shell redirections (stdin from
 * the named file, `>`/`>>` dropped), and a confirmation is answered yes (`--yes`, as the
 * reader at a terminal would). Commands that serve until interrupted (mock, webhooks listen) get
 * Ctrl+C after they started; `mcp` (a stdio server) runs as the built binary and ends when its
 * client closes stdin. An example that fails here fails for a reader too.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLES } from '../../src/cli/examples.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { buildTrxTransfer, privateKeyToTronAddress, signTransaction } from '../../src/protocol/tron-transaction.js';
import { KEYS } from '../x402/helpers.js';
import { ADDRESS, json, runCliInProcess, tempDir } from './run.js';

let mock: MockServer;
let env: Record<string, string>;
let configDir: string;
const files = mkdtempSync(join(tmpdir(), 'trx-rent-examples-'));
let orderId = '';
let keyId = '';
let signed = '';

/** Commands that serve until interrupted: they get Ctrl+C once they have run a while. */
const SERVING = [/^mock\b/, /^webhooks listen\b/, /^rules run\b/];
const BIN = join(import.meta.dirname, '..', '..', 'bin', 'trx-rent.js');

/** Shell words of an example (quotes kept together, `# comment` dropped). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.replace(/\s+#.*$/, '').matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** An example as a run: argv, environment, stdin. */
function prepare(example: string): { args: string[]; env: Record<string, string>; input?: string } {
  const runEnv = { ...env };
  let input: string | undefined;
  const w = words(example);
  // Leading VAR=value assignments.
  while (w[0] && /^[A-Z0-9_]+=/.test(w[0])) {
    const [name, value] = w.shift()!.split(/=(.*)/s) as [string, string];
    runEnv[name] = value === '...' ? KEYS.tron : value;
  }
  expect(w.shift(), example).toBe('trx-rent');
  const args: string[] = [];
  for (let i = 0; i < w.length; i++) {
    const word = w[i]!;
    if (word === '>' || word === '>>') {
      i++; // the script goes to stdout here
      continue;
    }
    if (word === '<') {
      input = signed;
      i++;
      continue;
    }
    args.push(w[i - 1] === '--port' ? '0' : fill(word)); // any free port
  }
  return { args, env: runEnv, ...(input !== undefined ? { input } : {}) };
}

/** Placeholders and files an example names, made real. */
function fill(word: string): string {
  if (word === 'T...') return ADDRESS;
  if (word === 'https://api.example.com') return mock.url;
  if (word === 'https://example.com/hook') return 'http://127.0.0.1:9/hook';
  if (/^efdfc09b/.test(word)) return word.length > 8 ? orderId : orderId.slice(0, 8);
  if (word === 'key_123') return keyId;
  if (/\.(json|jsonl|txt)$/.test(word)) return join(files, basename(word)); // ./key.txt, /var/lib/trx-rent/rules.journal.jsonl
  return word;
}

beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 21, timings: { selectMs: 20, fillMs: 30, verifyMs: 40 } });
  env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
  configDir = tempDir();
  // A profile called work (examples name it), an order to look at, a key to revoke.
  expect((await runCliInProcess(['login', '--profile', 'work', '--base-url', mock.url], { configDir, env })).code).toBe(0);
  const order = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--yes', '--wait', '--json'], { env, configDir });
  expect(order.code, order.stderr).toBe(0);
  orderId = json(order).id;
  const key = await runCliInProcess(['keys', 'create', '--name', 'spare', '--permissions', 'view_orders', '--json'], { env, configDir });
  expect(key.code, key.stderr).toBe(0);
  keyId = json(key).id;
  // Files the examples name: an API key, a wallet key, signed transactions (a deposit to the
  // platform with the memo, and a plain transfer to broadcast).
  writeFileSync(join(files, 'key.txt'), `${mock.apiKey}\n`, { mode: 0o600 });
  writeFileSync(join(files, 'wallet.json'), KEYS.tron, { mode: 0o600 });
  // The HD wallet's words `keys derive` reads (BIP-39's test vector).
  writeFileSync(join(files, 'words.txt'), 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about\n', { mode: 0o600 });
  const payer = '1f'.repeat(32);
  mock.state.chain.fundTrx(privateKeyToTronAddress(payer), 50_000_000n);
  const memo =
    mock.state.getAccount(mock.state.demo.account_id)!.memo ??
    (await (await fetch(`${mock.url}/api/v1/deposit/info`, { headers: { 'x-api-key': mock.apiKey } })).json()).memo;
  const deposit = signTransaction(
    buildTrxTransfer({ from: privateKeyToTronAddress(payer), to: mock.state.platformAddress, amountSun: 2_000_000n, memo, now: mock.state.now() }),
    payer,
  );
  writeFileSync(join(files, 'tx.json'), JSON.stringify(deposit));
  const transfer = signTransaction(
    buildTrxTransfer({ from: privateKeyToTronAddress(payer), to: ADDRESS, amountSun: 1_000_000n, now: mock.state.now() + 1 }),
    payer,
  );
  signed = JSON.stringify(transfer);
  writeFileSync(join(files, 'signed-tx.json'), signed);
  // The rules file the `rules` examples name: examples/rules/rules.json as shipped (its address,
  // TRON's docs' example account, is an account on the mock's chain from genesis, so its rentals
  // fill), its webhook's origin made loopback (`rules check` connects to it; nobody listens on port 9).
  const rulesFile = readFileSync(join(import.meta.dirname, '..', '..', 'examples', 'rules', 'rules.json'), 'utf8');
  writeFileSync(join(files, 'rules.json'), rulesFile.replace('https://hooks.example.com/', 'http://127.0.0.1:9/'));
  // The journal the `rules plan` and `rules log` examples read, as a run would have left it (they refuse a missing one).
  writeFileSync(
    join(files, 'rules.journal.jsonl'),
    `${JSON.stringify({ ts: Date.now(), kind: 'suppressed', rule: 'hot-wallet', window: 'energy_below:2026-12-07T10:00Z', reason: 'max_price' })}\n`,
  );
});
afterAll(async () => {
  await mock?.close();
});

describe("the examples a --help shows are the table's (so each runs below)", () => {
  // buy's own help once carried an example of its own (`--duration 1d --max-price 40`) that the
  // table did not hold, and it failed on the mock's market: a day's energy costs about 90 SUN a unit.
  for (const path of ['buy', 'ensure', 'chain balance', 'mock accounts']) {
    it(`${path} --help: every example line is in EXAMPLES['${path}'], and there are some`, async () => {
      const help = await runCliInProcess([...path.split(' '), '--help'], { configDir });
      expect(help.code, help.stderr).toBe(0);
      const shown = help.stdout
        .split('\n')
        .filter((l) => /^\s+(\$ )?trx-rent /.test(l))
        .map((l) => l.replace(/^\s+(\$ )?/, ''));
      expect(shown.length).toBeGreaterThan(0);
      expect(shown).toEqual(EXAMPLES[path]);
    });
  }
});

describe('every --help example runs against the mock', () => {
  const all = Object.entries(EXAMPLES).flatMap(([path, examples]) => examples.map((example) => ({ path, example })));

  it('there are examples to run (one table, read here)', () => {
    expect(all.length).toBeGreaterThan(30);
  });

  for (const { path, example } of all) {
    it(`${path}: ${example}`, async () => {
      const { args, env: runEnv, input } = prepare(example);
      const command = args.filter((a) => !a.startsWith('-')).join(' ');
      if (/^mcp\b/.test(command)) {
        // The stdio server needs the process's own streams: the built binary, stdin closed at once.
        const child = spawnSync(process.execPath, [BIN, ...args], {
          env: { PATH: process.env.PATH, TRX_RENT_CONFIG_DIR: configDir, ...runEnv },
          input: '',
          timeout: 20_000,
          encoding: 'utf8',
        });
        expect(child.status, `${args.join(' ')}\n${child.stderr}`).toBe(0);
        expect(child.stderr).not.toMatch(/^error [A-Z_]+:|"error":\{/m);
        return;
      }
      const serving = SERVING.some((re) => re.test(command));
      const run = (extra: string[]) =>
        runCliInProcess([...args, ...extra], {
          env: runEnv,
          configDir,
          ...(input !== undefined ? { input } : {}),
          timeoutMs: 30_000,
          ...(serving ? { untilSignal: () => new Promise<string>((resolve) => setTimeout(() => resolve('SIGINT'), 1_000)) } : {}),
        });
      let r = await run([]);
      // No terminal here to answer the confirmation a reader would see: answer it with --yes.
      if (r.code === 2 && /CONFIRMATION_REQUIRED/.test(r.stderr)) r = await run(['--yes']);
      const ok = serving ? [0, 130] : [0];
      expect(ok, `${args.join(' ')}\n${r.stderr}`).toContain(r.code);
      expect(r.stderr, args.join(' ')).not.toMatch(/^error [A-Z_]+:|"error":\{/m);
      // A rules run reports a failed step as a decision and goes on: that is a failure here too.
      expect(r.stdout + r.stderr, args.join(' ')).not.toMatch(/"outcome":"error"|^\S+: error - /m);
    });
  }
});
