#!/usr/bin/env node
// `npm run test:peers`: the optional peers are declared as ranges (`^`); this installs the packed
// tarball into fresh projects with every peer at the lowest version of its range and then at the
// newest the registry serves within it, and pays real x402 calls against the tarball's own mock:
// USDC on Base (viem + @x402/core + @x402/evm), a TRON permit signed from a private key (viem's
// accounts), a TRON payment signed by a TronWeb instance (tronweb), the msw adapter (msw), and a
// YAML rules file (yaml).
//
//   node scripts/peer-range.mjs [--no-build] [--only lowest|newest]
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { freshDir } from './lib/fresh-dir.mjs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (cmd, argv, opts = {}) => execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000, ...opts });

// The MCP SDK has its own test (test/mcp); these are the payment and mock peers.
const PEERS = ['viem', '@x402/core', '@x402/evm', 'tronweb', 'msw', 'yaml'];

/** Highest version the registry serves within `range` (npm's own resolution, no semver code here). */
function newest(name, range) {
  const out = JSON.parse(run(npm, ['view', `${name}@${range}`, 'version', '--json']));
  const versions = Array.isArray(out) ? out : [out];
  return versions.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).at(-1);
}

const SMOKE = `
import { createMockState, startMockServer } from 'trx-rent/mock';
import { X402Client, evmPayer, tronPayer } from 'trx-rent/x402';
const KEY_EVM = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const KEY_TRON = 'b6f1c8bb3e3fa2fc4a57e2a5f5e1d7c1a7e0c4d7b4f2e6a9d8c3b1a0f9e8d7c6';
const mock = await startMockServer({ port: 0, rateLimits: false });
const check = (label, ok, detail) => { if (!ok) throw new Error(label + ' failed: ' + JSON.stringify(detail)); console.log('ok', label); };
try {
  const base = new X402Client({ baseUrl: mock.url, payers: [evmPayer({ privateKey: KEY_EVM })], prefer: ['base'] });
  const a = await base.prices();
  check('USDC on Base (viem, @x402/core, @x402/evm)', a.payment?.network.startsWith('eip155:') && Array.isArray(a.data), a.payment);
  const tron = new X402Client({ baseUrl: mock.url, payers: [tronPayer({ privateKey: KEY_TRON, schemes: ['exact_permit'], fullNode: mock.url })], prefer: ['tron'] });
  const b = await tron.prices();
  check('TRON permit from a private key (viem accounts)', b.payment?.network.startsWith('tron:'), b.payment);
  const { TronWeb } = await import('tronweb');
  const tronWeb = new TronWeb({ fullHost: mock.url, privateKey: KEY_TRON });
  const viaTronWeb = new X402Client({ baseUrl: mock.url, payers: [tronPayer({ tronWeb, schemes: ['exact_permit'], fullNode: mock.url })], prefer: ['tron'] });
  const c = await viaTronWeb.prices();
  check('TRON permit signed by TronWeb (tronweb)', c.payment?.payer === b.payment?.payer, { c: c.payment, b: b.payment });
  const { setupServer } = await import('msw/node');
  const { createHandlers } = await import('trx-rent/mock/msw');
  const state = createMockState({ clock: 'manual' });
  const server = setupServer(...createHandlers(state, { rateLimits: false }));
  server.listen({ onUnhandledRequest: 'error' });
  const res = await fetch('https://api.test/api/v1/prices', { headers: { 'x-api-key': state.demo.api_key } });
  server.close();
  state.dispose?.();
  check('msw adapter (msw)', res.status === 200 && Array.isArray(await res.json()), res.status);
  const { parseRulesYaml } = await import('trx-rent/rules');
  const rules = await parseRulesYaml('rules:\\n  - id: morning\\n    trigger: { type: schedule, cron: "0 9 * * *" }\\n    action: { type: notify }\\n');
  check('YAML rules file (yaml)', rules.rules[0]?.id === 'morning', rules);
} finally {
  await mock.close();
}
`;

if (!args.includes('--no-build')) run(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
const packDir = freshDir('trx-rent-peers-pack-');
const tarball = join(packDir, JSON.parse(run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', packDir], { cwd: root }))[0].filename);

const sets = {
  lowest: Object.fromEntries(PEERS.map((p) => [p, pkg.peerDependencies[p].replace(/^\^/, '')])),
  newest: Object.fromEntries(PEERS.map((p) => [p, newest(p, pkg.peerDependencies[p])])),
};
let failed = 0;
for (const [name, versions] of Object.entries(sets)) {
  if (only && only !== name) continue;
  const dir = freshDir(`trx-rent-peers-${name}-`);
  const started = Date.now();
  try {
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `peers-${name}`, private: true, type: 'module' }));
    const specs = Object.entries(versions).map(([p, v]) => `${p}@${v}`);
    run(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball, ...specs], { cwd: dir });
    writeFileSync(join(dir, 'smoke.mjs'), SMOKE);
    const r = spawnSync(process.execPath, ['smoke.mjs'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) throw new Error(`${r.stdout}\n${r.stderr}`);
    console.log(`${name.padEnd(6)} ${specs.join(' ')}: ${r.stdout.trim().split('\n').length} checks ok (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failed++;
    console.log(
      `${name.padEnd(6)} ${Object.entries(versions)
        .map(([p, v]) => `${p}@${v}`)
        .join(' ')}: FAILED\n${error.stderr ?? error.message}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
rmSync(packDir, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
