#!/usr/bin/env node
// `npm run test:bundlers`: the packed tarball as an app's bundler sees it, for a browser, with
// none of the optional peers (viem, @x402/*, tronweb, the MCP SDK, yaml, msw) installed.
//
//  1. build (unless --no-build) and `npm pack` into a fresh directory (lib/fresh-dir.mjs);
//  2. a fresh project installs the tarball (production dependencies; npm installs no optional
//     peer), and the check makes sure none of the peers is there;
//  3. four small apps import the browser-relevant entries (`trx-rent`, `trx-rent/webhooks`,
//     `trx-rent/schemas`, `trx-rent/x402`), and esbuild (the one tsup brings), Rollup with
//     @rollup/plugin-node-resolve and webpack 5 (both installed on demand, scripts/tools/) bundle
//     them for a browser: ES modules, code splitting, browser export conditions; esbuild and
//     webpack minify. A bundler error fails, and so does a warning that hides one (Rollup's
//     unresolved import, which it turns into an external; webpack's "Critical dependency");
//  4. each bundle runs in Node: the core builds a client, checks an address, converts TRX, gets
//     a ValidationError by its name (minified bundles must keep it) and derives an HD address
//     (a lazy chunk with @scure/bip32); the webhooks app signs and verifies; the schemas app
//     parses; the x402 app asks for a payment, which needs the absent peers, and must get a
//     MissingPeerDependencyError naming the install command.
//
// Node, Bun and Deno importing the tarball are `npm run test:managers` (scripts/package-managers.mjs).
//
//   node scripts/bundlers.mjs [--no-build] [--keep] [--tarball FILE] [esbuild] [rollup] [webpack]
//     --tarball FILE   check this tarball instead of packing the repo (e.g. an older build)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freshDir } from './lib/fresh-dir.mjs';
import { toolDir } from './lib/tools.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const given = args.includes('--tarball') ? args[args.indexOf('--tarball') + 1] : undefined;
if (args.includes('--tarball') && !given?.endsWith('.tgz')) throw new Error('--tarball needs a .tgz file');
const picked = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--tarball');
const wanted = (name) => picked.length === 0 || picked.includes(name);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const sh = (cmd, argv, opts = {}) => execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000, ...opts });
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const PEERS = Object.keys(pkg.peerDependencies);

// The test vector of BIP-39 (English, "abandon" x 11 + "about"); its first address on TRON's
// path m/44'/195'/0'/0/0, as tronweb's TronWeb.fromMnemonic derives it.
const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

/** The apps, each printing one JSON line; `expected` is what every bundler's build must print. */
const APPS = {
  core: {
    code: `
import { TrxRent, ValidationError, isTronAddress, trxToSun } from 'trx-rent';
const client = new TrxRent({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test' });
const error = await client.orders.get('..').catch((e) => e);
const [derived] = await client.chain.deriveAddresses({ mnemonic: ${JSON.stringify(MNEMONIC)}, count: 1 });
console.log(JSON.stringify({
  address: isTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'),
  sun: trxToSun('1.5'),
  error: error instanceof ValidationError ? error.name + ' ' + error.code : String(error),
  derived: derived.path + ' ' + derived.address,
}));
`,
    expected: { address: true, sun: 1_500_000, error: 'ValidationError VALIDATION_ERROR', derived: "m/44'/195'/0'/0/0 TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH" },
  },
  webhooks: {
    code: `
import { signWebhookPayload, verifyWebhookSignature } from 'trx-rent/webhooks';
const body = JSON.stringify({ event: 'order.filled', data: { id: 'o1' }, timestamp: 1 });
const header = await signWebhookPayload(body, 'secret');
console.log(JSON.stringify({ verified: await verifyWebhookSignature(body, header, 'secret'), forged: await verifyWebhookSignature(body, header, 'other') }));
`,
    expected: { verified: true, forged: false },
  },
  schemas: {
    code: `
import { CreateOrderRequest } from 'trx-rent/schemas';
const ok = CreateOrderRequest.safeParse({ resource_type: 'ENERGY', amount: 65000, duration_sec: 3600, target_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' });
const bad = CreateOrderRequest.safeParse({ resource_type: 'ENERGY', amount: -1 });
console.log(JSON.stringify({ ok: ok.success, bad: bad.success }));
`,
    expected: { ok: true, bad: false },
  },
  x402: {
    code: `
import { X402Client, evmPayer } from 'trx-rent/x402';
const payer = evmPayer({ privateKey: '11'.repeat(32) });
new X402Client({ baseUrl: 'http://127.0.0.1:9', payers: [payer] });
const error = await payer.register({}).catch((e) => e);
console.log(JSON.stringify({ payer: payer.kind, error: error.name + ' ' + error.code, install: /npm install viem@[0-9.]+ @x402\\/core@[0-9.]+ @x402\\/evm@[0-9.]+/.test(error.message) }));
`,
    expected: { payer: 'evm', error: 'MissingPeerDependencyError MISSING_PEER_DEPENDENCY', install: true },
  },
};

/** Bundles every app for a browser into `out`; returns notes (warnings that are not failures). */
const BUNDLERS = {
  async esbuild(project, out) {
    const esbuild = await import(pathToFileURL(createRequire(join(root, 'package.json')).resolve('esbuild')).href);
    const result = await esbuild.build({
      absWorkingDir: project,
      entryPoints: Object.fromEntries(Object.keys(APPS).map((name) => [name, `./src/${name}.js`])),
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      minify: true,
      outdir: out,
      logLevel: 'silent',
    });
    if (result.warnings.length) throw new Error(`esbuild warned:\n${(await esbuild.formatMessages(result.warnings, { kind: 'warning' })).join('\n')}`);
    return `esbuild ${esbuild.version}`;
  },

  async rollup(project, out) {
    const dir = toolDir('rollup');
    const req = createRequire(join(dir, 'package.json'));
    const { rollup, VERSION } = await import(pathToFileURL(req.resolve('rollup')).href);
    const { nodeResolve } = await import(pathToFileURL(req.resolve('@rollup/plugin-node-resolve')).href);
    const warnings = [];
    const bundle = await rollup({
      input: Object.fromEntries(Object.keys(APPS).map((name) => [name, join(project, 'src', `${name}.js`)])),
      plugins: [nodeResolve({ browser: true, preferBuiltins: false, rootDir: project })],
      onwarn: (warning) => warnings.push(warning),
    });
    await bundle.write({ dir: out, format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunk-[hash].js' });
    await bundle.close();
    // An import Rollup cannot resolve becomes an external with a warning: that is a failure here.
    const fatal = warnings.filter((w) => ['UNRESOLVED_IMPORT', 'MISSING_EXPORT', 'MISSING_NODE_BUILTINS', 'MISSING_GLOBAL_NAME'].includes(w.code));
    if (fatal.length) throw new Error(`rollup: ${fatal.map((w) => `${w.code}: ${w.message}`).join('\n')}`);
    const other = [...new Set(warnings.map((w) => w.code))];
    return `rollup ${VERSION}${other.length ? ` (notes: ${other.join(', ')})` : ''}`;
  },

  async webpack(project, out) {
    const dir = toolDir('webpack');
    const webpack = createRequire(join(dir, 'package.json'))('webpack');
    const stats = await new Promise((resolve, reject) =>
      webpack(
        {
          mode: 'production',
          target: 'web',
          context: project,
          devtool: false,
          entry: Object.fromEntries(Object.keys(APPS).map((name) => [name, `./src/${name}.js`])),
          output: { path: out, filename: '[name].js', chunkFilename: 'chunk-[contenthash].js', module: true, chunkFormat: 'module', chunkLoading: 'import' },
          experiments: { outputModule: true },
          performance: { hints: false },
          // webpack resolves from the project; its own loaders are not needed (plain ES modules).
          resolve: { modules: [join(project, 'node_modules')] },
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
    const info = stats.toJson({ all: false, errors: true, warnings: true, version: true });
    if (info.errors.length) throw new Error(`webpack: ${info.errors.map((e) => e.message).join('\n')}`);
    // "Critical dependency: the request of a dependency is an expression" is a computed import
    // webpack replaced with an empty context: an installed peer could then never load.
    if (info.warnings.length) throw new Error(`webpack warned: ${info.warnings.map((w) => w.message).join('\n')}`);
    return `webpack ${info.version}`;
  },
};

if (!args.includes('--no-build') && !given) sh(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
const work = freshDir('trx-rent-bundlers-');
const results = [];
const step = async (bundler, what, fn) => {
  const t0 = Date.now();
  try {
    const detail = await fn();
    results.push({
      bundler,
      step: what,
      ok: 'ok',
      seconds: ((Date.now() - t0) / 1000).toFixed(1),
      detail: String(detail ?? '')
        .trim()
        .split('\n')
        .at(-1)
        .slice(0, 80),
    });
    return true;
  } catch (error) {
    results.push({
      bundler,
      step: what,
      ok: 'FAILED',
      seconds: ((Date.now() - t0) / 1000).toFixed(1),
      detail: String(error.message).split('\n')[0].slice(0, 80),
    });
    // Minified bundles put a whole file on one line of a stack trace: keep the report short.
    const text = `${error.stderr ?? ''}${error.stdout ?? ''}${error.message}`.split('\n').map((line) => (line.length > 400 ? `${line.slice(0, 400)}…` : line));
    console.error(`${bundler} / ${what}:\n${text.slice(0, 60).join('\n')}`);
    return false;
  }
};

const project = join(work, 'project');
try {
  const ready = await step('npm', 'pack, install in a fresh project, no optional peer', () => {
    const tarball = given
      ? resolve(given)
      : join(work, JSON.parse(sh(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root }))[0].filename);
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'bundled-app', private: true, type: 'module' }));
    sh(npm, ['install', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error', tarball], { cwd: project });
    const present = PEERS.filter((p) => existsSync(join(project, 'node_modules', ...p.split('/'), 'package.json')));
    if (present.length) throw new Error(`optional peers were installed: ${present.join(', ')}`);
    for (const [name, app] of Object.entries(APPS)) writeFileSync(join(project, 'src', `${name}.js`), app.code);
    return `absent: ${PEERS.join(' ')}`;
  });
  if (ready) {
    for (const [name, bundle] of Object.entries(BUNDLERS)) {
      if (!wanted(name)) continue;
      const out = join(project, 'dist', name);
      if (!(await step(name, `bundle ${Object.keys(APPS).length} apps for a browser`, () => bundle(project, out)))) continue;
      for (const [app, { expected }] of Object.entries(APPS)) {
        await step(name, `run the ${app} bundle in Node`, () => {
          const r = spawnSync(process.execPath, [join(out, `${app}.js`)], { cwd: project, encoding: 'utf8', timeout: 60_000 });
          if (r.status !== 0) throw new Error(`exit ${r.status}:\n${r.stderr}`);
          const printed = JSON.parse(r.stdout.trim().split('\n').at(-1));
          if (JSON.stringify(printed) !== JSON.stringify(expected)) throw new Error(`printed ${JSON.stringify(printed)}, expected ${JSON.stringify(expected)}`);
          return r.stdout.trim();
        });
      }
    }
  }
} finally {
  if (args.includes('--keep')) console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
console.table(results);
const failed = results.filter((r) => r.ok !== 'ok').length;
console.log(`${results.length - failed} passed, ${failed} failed (bundlers, optional peers absent)`);
process.exit(failed ? 1 : 0);
