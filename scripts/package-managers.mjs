#!/usr/bin/env node
// `npm run test:managers`: the packed tarball as users of other package managers and runtimes get
// it. pnpm (current major, default settings), Bun and Deno come from the npm registry (pnpm as
// its package; Bun and Deno as their platform binary packages, installed with --ignore-scripts:
// those packages hold the plain binary), cached under .tmp/managers/.
//  - npm, pnpm and Bun each install the tarball into a fresh project; on the running Node (20.x)
//    every public entry is imported and `trx-rent --version` and `trx-rent demo` run; Bun's
//    runtime imports every entry of its install too;
//  - Deno imports `trx-rent` and `trx-rent/webhooks` with no permission flags at all (no
//    --allow-env, --allow-read, --allow-net): it builds a client, checks an address and signs and
//    verifies a webhook, so nothing reads the environment without being allowed to; and again in
//    a pseudo-terminal without --no-prompt, where Deno would ask the person for each variable read.
//
//   node scripts/package-managers.mjs [--no-build] [npm] [pnpm] [bun] [deno]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { freshDir } from './lib/fresh-dir.mjs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const picked = args.filter((a) => !a.startsWith('--'));
const wanted = (name) => picked.length === 0 || picked.includes(name);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const TOOLS = {
  pnpm: 'pnpm@12',
  bun: `@oven/bun-${process.platform}-${process.arch === 'arm64' ? 'aarch64' : 'x64'}@1`,
  deno: `@deno/${process.platform}-${process.arch === 'arm64' ? 'arm64' : 'x64'}-glibc@2`,
};
const tools = join(root, '.tmp', 'managers');
const ENTRIES = ['trx-rent', 'trx-rent/webhooks', 'trx-rent/schemas', 'trx-rent/mock', 'trx-rent/x402', 'trx-rent/signers'];
const sh = (cmd, argv, opts = {}) => execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000, ...opts });

/** Installs a tool package into .tmp/managers (once) and returns the path of its binary. */
function tool(name) {
  const spec = TOOLS[name];
  const dir = join(tools, name);
  const pkgName = spec.slice(0, spec.lastIndexOf('@'));
  const bin = {
    pnpm: join(dir, 'node_modules', 'pnpm', 'bin', 'pnpm.mjs'),
    bun: join(dir, 'node_modules', pkgName, 'bin', 'bun'),
    deno: join(dir, 'node_modules', pkgName, 'deno'),
  }[name];
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `tool-${name}`, private: true }));
    sh(npm, ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', spec], { cwd: dir });
  }
  return bin;
}

const CHECK_ENTRIES = `
const entries = ${JSON.stringify(ENTRIES)};
for (const entry of entries) {
  const mod = await import(entry);
  if (Object.keys(mod).length === 0) throw new Error(entry + ' exports nothing');
}
const { TrxRent, isTronAddress } = await import('trx-rent');
new TrxRent({ baseUrl: 'http://127.0.0.1:1', apiKey: 'sk_test' });
if (!isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')) throw new Error('address check');
console.log('imported ' + entries.length + ' entries');
`;

const DENO_CHECK = `
import { TrxRent, isTronAddress, ValidationError } from 'trx-rent';
import { signWebhookPayload, verifyWebhookSignature } from 'trx-rent/webhooks';
const client = new TrxRent({ baseUrl: 'https://api.example.com', apiKey: 'sk_test' });
const error = await client.orders.get('..').catch((e) => e);
if (!(error instanceof ValidationError)) throw new Error('a bad id must fail before any request: ' + error);
if (!isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')) throw new Error('address check');
const body = JSON.stringify({ event: 'order.filled', data: { id: 'o1' }, timestamp: 1 });
const header = await signWebhookPayload(body, 'secret');
if (!(await verifyWebhookSignature(body, header, 'secret'))) throw new Error('webhook verification');
console.log('deno: client, address and webhook ok without --allow-env');
`;

if (!args.includes('--no-build')) sh(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
const work = freshDir('trx-rent-managers-');
const tarball = join(work, JSON.parse(sh(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root }))[0].filename);
const results = [];
const step = (manager, what, fn) => {
  const t0 = Date.now();
  try {
    const detail = fn();
    results.push({
      manager,
      step: what,
      ok: 'ok',
      seconds: ((Date.now() - t0) / 1000).toFixed(1),
      detail: String(detail ?? '')
        .trim()
        .split('\n')
        .at(-1)
        .slice(0, 70),
    });
    return true;
  } catch (error) {
    results.push({ manager, step: what, ok: 'FAILED', seconds: ((Date.now() - t0) / 1000).toFixed(1), detail: '' });
    console.error(`${manager} / ${what}:\n${error.stderr ?? ''}${error.stdout ?? ''}${error.message}`);
    return false;
  }
};

const installers = {
  npm: (dir) => sh(npm, ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: dir }),
  // pnpm with its defaults: dependency install scripts are not run, strict node_modules layout.
  pnpm: (dir) => sh(process.execPath, [tool('pnpm'), 'add', tarball], { cwd: dir, env: { ...process.env, CI: '1', npm_config_user_agent: '' } }),
  bun: (dir) => sh(tool('bun'), ['add', tarball], { cwd: dir }),
};
for (const [manager, install] of Object.entries(installers)) {
  if (!wanted(manager)) continue;
  const dir = join(work, manager);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `with-${manager}`, private: true, type: 'module' }));
  if (!step(manager, 'install the tarball', () => install(dir))) continue;
  writeFileSync(join(dir, 'check.mjs'), CHECK_ENTRIES);
  step(manager, `import every entry (node ${process.versions.node})`, () => sh(process.execPath, ['check.mjs'], { cwd: dir }));
  // Bun's own runtime too, not only its installer.
  if (manager === 'bun') step(manager, 'import every entry (bun runtime)', () => sh(tool('bun'), ['check.mjs'], { cwd: dir }));
  const cli = join(dir, 'node_modules', 'trx-rent', 'bin', 'trx-rent.js');
  step(manager, 'trx-rent --version', () => sh(process.execPath, [cli, '--version'], { cwd: dir }));
  step(manager, 'trx-rent demo', () => {
    const out = sh(process.execPath, [cli, 'demo'], {
      cwd: dir,
      env: { PATH: process.env.PATH, NO_COLOR: '1', TRX_RENT_CONFIG_DIR: join(dir, '.config') },
      timeout: 120_000,
    });
    if (!/fill/i.test(out)) throw new Error(`the demo printed no fill:\n${out}`);
    return `${out.split('\n').length} lines`;
  });
}
if (wanted('deno')) {
  const dir = join(work, 'deno');
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'with-deno', private: true, type: 'module' }));
  if (
    step('deno', 'install the tarball (npm, production)', () =>
      sh(npm, ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: dir }),
    )
  ) {
    writeFileSync(join(dir, 'check.mjs'), DENO_CHECK);
    const deno = tool('deno');
    const denoEnv = { PATH: process.env.PATH, DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(tools, 'deno-dir') };
    step('deno', `${sh(deno, ['--version']).split('\n')[0]}, no permission flags`, () =>
      sh(deno, ['run', '--no-prompt', '--node-modules-dir=manual', 'check.mjs'], { cwd: dir, env: denoEnv }),
    );
    // At a terminal Deno asks the person before a read it was not allowed (one prompt per
    // variable); the SDK reads only what is already allowed, so no prompt may appear. Run in a
    // pseudo-terminal (util-linux `script`, as test/cli/interactive.test.ts does) without
    // --no-prompt: a prompt shows as Deno's "requests env access" text (or hangs to the timeout).
    if (spawnSync('script', ['--version']).status === 0) {
      step('deno', 'at a terminal: no permission prompt', () => {
        const command = [deno, 'run', '--node-modules-dir=manual', 'check.mjs'].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
        const out = sh('script', ['-qfec', command, '/dev/null'], {
          cwd: dir,
          env: { ...denoEnv, TERM: 'xterm', TRX_RENT_BASE_URL: 'https://api.example.com' },
          timeout: 60_000,
        });
        if (/requests \S+ access/.test(out)) throw new Error(`Deno prompted for a permission:\n${out}`);
        if (!/without --allow-env/.test(out)) throw new Error(`the check did not finish:\n${out}`);
        return 'no prompt';
      });
    }
  }
}
rmSync(work, { recursive: true, force: true });
console.table(results);
const failed = results.filter((r) => r.ok !== 'ok').length;
console.log(`${results.length - failed} passed, ${failed} failed (package managers and runtimes)`);
process.exit(failed ? 1 : 0);
