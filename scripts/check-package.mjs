#!/usr/bin/env node
// `npm run test:package`: what a user gets from `npm install trx-rent`, checked on the real tarball.
//
//  1. build (unless --no-build), `npm pack` into a temp dir; the tarball ships only dist/, bin/,
//     README.md, package.json (+ LICENSE), with no tests, sources or source maps, and every file
//     package.json points at (exports, main, module, types, bin);
//  2. publint and attw on that tarball (attw with --profile node16, see ATTW below);
//  3. a fresh project outside the repo (so nothing resolves from the repo's node_modules) installs
//     the tarball (production dependencies only), then:
//     - import() and require() every public entry and check its exports (+ small smoke calls);
//     - tsc --noEmit on consumer files with moduleResolution bundler (module esnext) and node16
//       (module node16, an ESM .ts and a CommonJS .cts), skipLibCheck off, the repo's TypeScript;
//     - `npx trx-rent --version` and `--help`;
//  4. footprint: production node_modules bytes and package count, with the tarball alone and with
//     the payment extras added; minified + gzip sizes of `trx-rent` and `trx-rent/webhooks`.
// Prints a table, writes bench/results/footprint.json, exits 1 on any failure.
//
//   node scripts/check-package.mjs [--no-build] [--isolated] [--keep] [--no-extras]
//     --no-build   pack the existing dist/ as it is
//     --no-msw     skip installing msw for trx-rent/mock/msw
//     --isolated   build and pack a private copy of the sources (for a shared checkout where
//                  someone else's `tsup` may wipe dist/ mid-check); the repo's dist/ is untouched
import { toolBin } from './lib/tools.mjs';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { freshDir, leakingAncestor } from './lib/fresh-dir.mjs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MB, coreBundleSizes, fmtKB, fmtMB, largestPackages, nodeModulesFootprint } from './lib/footprint.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = new Set(process.argv.slice(2));
const isolated = args.has('--isolated');
const build = isolated || !args.has('--no-build');
const keep = args.has('--keep');
const withExtras = !args.has('--no-extras');
const withMsw = !args.has('--no-msw');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const bin = (name) => join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name);

/** Payment extras a user adds for x402 (the optional peers, at the versions we test). */
const EXTRAS = ['viem@2.57.1', 'tronweb@6.5.1', '@x402/core@2.27.0', '@x402/evm@2.27.0'];
// The same goals as `npm run size` (scripts/size.mjs), which enforces them; reported here.
const GOALS = { installBytes: 13 * MB, installPackages: 40, webhooksGzip: 2000 };

/** Exports each public entry must have; smoke calls run in the fresh project (see writeChecks). */
const EXPECTED = {
  'trx-rent': [
    'TrxRent',
    'TrxRentError',
    'ValidationError',
    'InvalidAddressError',
    'InsufficientBalanceError',
    'NotFoundError',
    'UnauthorizedError',
    'RateLimitedError',
    'ConnectionError',
    'TimeoutError',
    'OrderFailedError',
    'isTronAddress',
    'toTronAddress',
    'trxToSun',
    'sunToTrx',
    'decimalToAtomic',
    'atomicToDecimal',
    'SUN_PER_TRX',
    'LIMITS',
  ],
  'trx-rent/webhooks': ['verifyWebhookSignature', 'constructWebhookEvent', 'signWebhookPayload', 'WebhookSignatureError', 'getSignatureHeader', 'isKnownEvent'],
  'trx-rent/schemas': ['CreateOrderRequest', 'Order', 'Balance', 'ErrorEnvelope', 'Webhook', 'tronAddress'],
  'trx-rent/mock': ['startMockServer', 'createMockState', 'createFetchHandler', 'createPipeline', 'ALL_ROUTES'],
  'trx-rent/x402': ['X402Client', 'MissingPeerDependencyError'],
  'trx-rent/rules': ['RuleRunner', 'FileJournal', 'MemoryJournal', 'loadRules', 'parseRules', 'parseRulesYaml', 'rulesJsonSchema', 'parseCron', 'backtest'],
  'trx-rent/signers': [
    'fromPrivateKey',
    'fromTronWeb',
    'fromSignFunction',
    'fromAwsKms',
    'signTransactionWith',
    'toSigner',
    'withPermissionId',
    'permissionCheck',
  ],
};

// ---------------------------------------------------------------------------------------------
class StepFailed extends Error {}
/** Steps the rest depends on: when one fails, the script stops and reports. */
const FATAL = new Set(['build (tsup)', 'npm pack', 'fresh project: npm install <tarball>']);
const checks = [];
const footprint = { node: process.version, date: new Date().toISOString(), version: pkg.version };
const t0 = Date.now();
const work = freshDir('trx-rent-package-');
let project;
/** The package directory that is built and packed: the repo, or its private copy with --isolated. */
let pkgRoot = root;

try {
  if (isolated) {
    pkgRoot = join(work, 'source');
    const skip = new Set(['node_modules', 'dist', '.git', '.tmp', 'coverage']);
    cpSync(root, pkgRoot, { recursive: true, filter: (src) => !skip.has(src.slice(root.length).split(/[\\/]/).filter(Boolean)[0]) || src === root });
    symlinkSync(join(root, 'node_modules'), join(pkgRoot, 'node_modules'), 'dir');
  }
  if (build) step('build (tsup)', () => must(run(npm, ['run', 'build', '--silent'], { cwd: pkgRoot }), 'npm run build'));

  const tarball = step('npm pack', () => {
    const r = must(run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: pkgRoot }), 'npm pack');
    const info = JSON.parse(r.stdout)[0];
    footprint.tarball = { file: info.filename, bytes: info.size, unpackedBytes: info.unpackedSize, files: info.entryCount };
    return { path: join(work, info.filename), files: info.files.map((f) => f.path), info };
  });

  step('tarball contents', () => checkFiles(tarball.files));
  step('publint', () => publint(tarball.path));
  step('attw (--profile node16)', () => attw(tarball.path));

  project = join(work, 'project');
  step('fresh project: npm install <tarball>', () => {
    mkdirSync(project);
    const leak = leakingAncestor(dirname(project));
    if (leak) throw new Error(`${leak}/node_modules exists: resolution would leak out of the fresh project`);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2));
    must(run(npm, ['install', tarball.path, '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project }), 'npm install');
    const installed = JSON.parse(readFileSync(join(project, 'node_modules', 'trx-rent', 'package.json'), 'utf8'));
    if (installed.version !== pkg.version) throw new Error(`installed trx-rent@${installed.version}, expected ${pkg.version}`);
    const peers = Object.keys(pkg.peerDependencies ?? {}).filter((p) => existsSync(join(project, 'node_modules', p)));
    if (peers.length) throw new Error(`optional peers were installed without being asked for: ${peers.join(', ')}`);
  });

  footprint.install = step('footprint: production install (tarball alone)', () => measureInstall(project));

  writeChecks(project);
  step('import() every entry (ESM)', () => entryCheck('check-import.mjs'));
  step('require() every entry (CommonJS)', () => entryCheck('check-require.cjs'));
  step('tsc --noEmit, moduleResolution bundler', () => tsc('tsconfig.bundler.json'));
  step('tsc --noEmit, moduleResolution node16 (ESM + CJS consumers)', () => tsc('tsconfig.node16.json'));
  step('npx trx-rent --version', () => {
    const r = must(run('npx', ['trx-rent', '--version'], { cwd: project }), 'npx trx-rent --version');
    if (r.stdout.trim() !== pkg.version) throw new Error(`printed ${JSON.stringify(r.stdout.trim())}, expected ${pkg.version}`);
    return r.stdout.trim();
  });
  step('npx trx-rent --help', () => {
    const r = must(run('npx', ['trx-rent', '--help'], { cwd: project }), 'npx trx-rent --help');
    if (!/Usage/i.test(r.stdout)) throw new Error('no usage text on stdout');
  });

  // YAML rules files need the optional peer yaml: without it the CLI names the install command;
  // with the tested version installed, the same file checks.
  step('a YAML rules file: the missing peer names `npm install yaml@…`, then it reads', () => {
    const file = join(project, 'rules.yaml');
    writeFileSync(file, 'rules:\n  - id: morning\n    trigger: { type: schedule, cron: "0 9 * * *" }\n    action: { type: notify }\n');
    const missing = run('npx', ['trx-rent', 'rules', 'check', file], { cwd: project });
    if (missing.status === 0 || !missing.stderr.includes(`npm install yaml@${pkg.devDependencies.yaml}`))
      throw new Error(`without yaml: exit ${missing.status}, ${missing.stderr.slice(0, 300)}`);
    must(
      run(npm, ['install', `yaml@${pkg.devDependencies.yaml}`, '--no-save', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project }),
      'npm install yaml',
    );
    const r = must(run('npx', ['trx-rent', 'rules', 'check', file], { cwd: project }), 'trx-rent rules check rules.yaml');
    if (!r.stdout.includes('morning')) throw new Error(`no explanation: ${r.stdout.slice(0, 300)}`);
    rmSync(join(project, 'node_modules', 'yaml'), { recursive: true, force: true });
  });

  if (withExtras) {
    step('fresh project: npm install payment extras', () =>
      must(run(npm, ['install', ...EXTRAS, '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project }), 'npm install extras'),
    );
    footprint.installWithExtras = step('footprint: production install with payment extras', () => measureInstall(project));
    step('import() every entry with the extras installed', () => entryCheck('check-import.mjs'));
  }

  // trx-rent/mock/msw needs its optional peer msw: installed here (the repo's tested version),
  // the entry is imported and required, round-trips a request through msw, and type-checks for
  // node16 CommonJS and ESM consumers and for bundlers.
  if (withMsw) {
    step('fresh project: npm install msw (the peer of trx-rent/mock/msw)', () =>
      must(
        run(npm, ['install', `msw@${pkg.devDependencies.msw}`, '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: project }),
        'npm install msw',
      ),
    );
    writeMswChecks(project);
    step('trx-rent/mock/msw with msw: import() (ESM), a request through setupServer', () => mswCheck('check-msw.mjs'));
    step('trx-rent/mock/msw with msw: require() (CommonJS)', () => mswCheck('check-msw.cjs'));
    step(
      'tsc --noEmit, trx-rent/mock/msw, node16 (ESM + CJS) and bundler',
      () => `node16: ${tsc('tsconfig.msw.node16.json')}; bundler: ${tsc('tsconfig.msw.bundler.json')}`,
    );
  }

  footprint.bundles = await stepAsync('footprint: core bundle sizes (esbuild minify + gzip -9)', async () => {
    const sizes = await coreBundleSizes(join(project, 'node_modules', 'trx-rent'));
    const webhooks = sizes['trx-rent/webhooks'];
    if (webhooks.imports.length) throw new Error(`trx-rent/webhooks imports ${webhooks.imports.join(', ')}: it must have no dependencies`);
    if (webhooks.gzip > GOALS.webhooksGzip) throw new Error(`trx-rent/webhooks is ${webhooks.gzip} B gzip, goal < ${GOALS.webhooksGzip} B`);
    return sizes;
  });
} catch (error) {
  // A step that others depend on failed; it is already recorded. Fall through to the report.
  if (!(error instanceof StepFailed)) checks.push({ name: 'internal error', ok: false, detail: error.stack ?? String(error), ms: 0 });
} finally {
  report();
  if (keep) console.log(`\nKept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
process.exit(checks.every((c) => c.ok) ? 0 : 1);

// ---------------------------------------------------------------------------------------------
function step(name, fn) {
  const start = Date.now();
  try {
    const value = fn();
    checks.push({ name, ok: true, ms: Date.now() - start, detail: typeof value === 'string' ? value : '' });
    return value;
  } catch (error) {
    return failed(name, start, error);
  }
}

async function stepAsync(name, fn) {
  const start = Date.now();
  try {
    const value = await fn();
    checks.push({ name, ok: true, ms: Date.now() - start, detail: '' });
    return value;
  } catch (error) {
    return failed(name, start, error);
  }
}

function failed(name, start, error) {
  checks.push({ name, ok: false, ms: Date.now() - start, detail: error instanceof Error ? error.message : String(error) });
  if (FATAL.has(name)) throw new StepFailed(name);
  return undefined;
}

function run(cmd, argv, { cwd, timeout = 10 * 60_000 } = {}) {
  const r = spawnSync(cmd, argv, {
    cwd,
    encoding: 'utf8',
    timeout,
    maxBuffer: 64 * 1024 * 1024,
    shell: process.platform === 'win32',
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', npm_config_update_notifier: 'false' },
  });
  return { status: r.status, stdout: r.stdout ?? '', stderr: (r.stderr ?? '') + (r.error ? String(r.error) : '') };
}

function must(r, what) {
  if (r.status !== 0) {
    const tail = `${r.stdout}\n${r.stderr}`
      .trim()
      .split('\n')
      .filter((l) => !/Unknown user config/.test(l))
      .slice(-25)
      .join('\n');
    throw new Error(`${what} exited ${r.status}:\n${tail}`);
  }
  return r;
}

// --- tarball -----------------------------------------------------------------------------------
function checkFiles(files) {
  const problems = [];
  // Docs users read from node_modules: the READMEs the main README links to, and the examples.
  const allowed = /^(package\.json|README\.md|LICEN[CS]E(\.(md|txt))?|dist\/.+|bin\/.+|examples\/[^/]+\.ts|src\/(cli|mock|x402)\/README\.md)$/i;
  const forbidden =
    /(\.map$|\.tsbuildinfo$|\.test\.|\.spec\.|(^|\/)(test|tests|bench|scripts|coverage|\.tmp|node_modules)\/|\.tgz$|^src\/(?!(cli|mock|x402)\/README\.md$))/;
  for (const f of files) {
    if (!allowed.test(f)) problems.push(`ships ${f} (outside dist/, bin/, README.md, package.json, LICENSE)`);
    else if (forbidden.test(f)) problems.push(`ships ${f} (not needed by users)`);
  }
  const set = new Set(files);
  const targets = new Set();
  const walk = (v) => (typeof v === 'string' ? targets.add(v) : v && typeof v === 'object' && Object.values(v).forEach(walk));
  walk(pkg.exports);
  for (const f of [pkg.main, pkg.module, pkg.types, ...Object.values(typeof pkg.bin === 'string' ? { x: pkg.bin } : (pkg.bin ?? {}))]) if (f) targets.add(f);
  for (const t of targets) {
    const f = t.replace(/^\.\//, '');
    if (!set.has(f)) problems.push(`package.json points at ${t}, which is not in the tarball`);
  }
  for (const b of Object.values(pkg.bin ?? {})) {
    const text = readFileSync(join(pkgRoot, b), 'utf8');
    if (!text.startsWith('#!/usr/bin/env node')) problems.push(`${b} has no "#!/usr/bin/env node" line`);
  }
  if (problems.length) throw new Error(problems.join('\n'));
  const notes = [];
  // Links a user cannot follow on npm: README pointing into folders the tarball does not ship.
  const readme = readFileSync(join(pkgRoot, 'README.md'), 'utf8');
  const shipped = new Set(files);
  const dangling = [...new Set([...readme.matchAll(/`((?:src|examples|test|bench|scripts)\/[^`\s]+)`/g)].map((m) => m[1]))].filter((f) => !shipped.has(f));
  if (dangling.length) notes.push(`note: README names files not in the package: ${dangling.join(', ')}`);
  return `${files.length} files${notes.length ? `; ${notes.join('; ')}` : ''}`;
}

function publint(tarball) {
  const r = run(bin('publint'), ['run', tarball, '--level', 'warning']);
  const out = `${r.stdout}\n${r.stderr}`.trim();
  if (r.status !== 0 || /^Errors:/m.test(out)) throw new Error(`publint reported errors:\n${out}`);
  return /Warnings:/m.test(out) ? `warnings:\n${out}` : 'no errors or warnings';
}

/*
 * ATTW: `--profile node16` checks node16 (CJS and ESM) and bundler resolution, and leaves out
 * node10 (`moduleResolution: "node"`). Under node10 TypeScript ignores `exports`, so the subpath
 * entries (`trx-rent/webhooks` …) cannot resolve without a `typesVersions` map; node10 is the
 * resolution of TypeScript < 4.7-era projects, and trx-rent needs Node >= 20.19 and TS 5. The
 * strict profile's node10 findings are printed as notes, not failures. The ESM-only CLI is a
 * `bin`, not an export, so attw does not look at it and needs no ignore rule. We pass the very
 * tarball we checked (equivalent to `attw --pack`, without packing — and rebuilding — twice).
 */
function attw(tarball) {
  // attw is installed on demand (scripts/tools/attw), not a devDependency.
  const attwBin = toolBin('attw');
  const strict = run(process.execPath, [attwBin, tarball, '--format', 'json']);
  const node16 = run(process.execPath, [attwBin, tarball, '--profile', 'node16', '--format', 'table-flipped', '--no-emoji', '--no-color']);
  let notes = '';
  try {
    const json = JSON.parse(strict.stdout);
    const problems = json.analysis?.problems ?? [];
    const kinds = [...new Set(problems.map((p) => `${p.kind}${p.resolutionKind ? ` (${p.resolutionKind})` : ''}${p.entrypoint ? ` ${p.entrypoint}` : ''}`))];
    notes = kinds.length ? `strict profile notes: ${kinds.join('; ')}` : 'strict profile: no problems';
  } catch {
    notes = 'strict profile: no JSON output';
  }
  if (node16.status !== 0) throw new Error(`attw --profile node16 found problems:\n${node16.stdout}\n${node16.stderr}`.trim());
  return notes;
}

// --- fresh project -----------------------------------------------------------------------------
function measureInstall(dir) {
  const fp = nodeModulesFootprint(join(dir, 'node_modules'));
  const largest = largestPackages(join(dir, 'node_modules'), 8);
  return { bytes: fp.bytes, mb: +(fp.bytes / MB).toFixed(2), files: fp.files, packages: fp.packages, duplicates: fp.duplicates, largest, list: fp.list };
}

function writeChecks(dir) {
  const expected = JSON.stringify(EXPECTED);
  // Smoke calls per entry, run only when the entry loaded; every failure is reported, none crashes the script.
  const smoke = `
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const smoke = {
  'trx-rent': async (m) => {
    if (m.trxToSun('1.5') !== 1500000 || m.sunToTrx(1500000) !== '1.5') throw new Error('trxToSun/sunToTrx');
    if (!m.isTronAddress(USDT) || m.isTronAddress(USDT.slice(0, -1) + 'u')) throw new Error('isTronAddress');
    const client = new m.TrxRent({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test_x' });
    if (typeof client.orders?.create !== 'function') throw new Error('client.orders.create');
    if (!(new m.ValidationError({ code: 'VALIDATION_ERROR', message: 'x' }) instanceof m.TrxRentError)) throw new Error('error classes');
  },
  'trx-rent/webhooks': async (m) => {
    const header = await m.signWebhookPayload('{}', 'secret');
    if (!(await m.verifyWebhookSignature('{}', header, 'secret'))) throw new Error('verify');
    if (await m.verifyWebhookSignature('{} ', header, 'secret')) throw new Error('verify accepted a changed body');
  },
  'trx-rent/schemas': async (m) => {
    if (typeof m.Order?.safeParse !== 'function') throw new Error('Order is not a zod schema');
  },
  'trx-rent/mock': async (m, all) => {
    // The README's in-process round trip: the mock on loopback, the client against it.
    const mock = await m.startMockServer({ port: 0 });
    try {
      if (!/^http:\\/\\/(127\\.0\\.0\\.1|localhost)/.test(mock.url)) throw new Error('mock.url ' + mock.url + ' is not loopback');
      const core = all['trx-rent'];
      if (core) {
        const client = new core.TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, maxRetries: 0 });
        const balance = await client.balance.get();
        if (typeof balance !== 'object' || balance === null) throw new Error('balance.get() returned ' + balance);
      }
    } finally {
      await mock.close();
    }
  },
};`;
  const body = (load) => `
const expected = ${expected};
${smoke}
const out = {};
const all = {};
for (const [entry, names] of Object.entries(expected)) {
  try {
    const m = ${load};
    all[entry] = m;
    const missing = names.filter((n) => m[n] === undefined);
    out[entry] = { exports: Object.keys(m).length, missing };
  } catch (error) {
    out[entry] = { error: String(error?.stack ?? error).split('\\n').slice(0, 4).join(' | ') };
  }
}
for (const [entry, fn] of Object.entries(smoke)) {
  if (!all[entry] || out[entry].missing.length) continue;
  try {
    await Promise.race([fn(all[entry], all), new Promise((_, reject) => setTimeout(() => reject(new Error('smoke test timed out')), 20000).unref())]);
  } catch (error) {
    out[entry].smoke = String(error?.message ?? error);
  }
}
console.log('@@RESULT@@' + JSON.stringify(out));
`;
  writeFileSync(join(dir, 'check-import.mjs'), body('await import(entry)'));
  writeFileSync(join(dir, 'check-require.cjs'), `(async () => {${body('require(entry)')}})().catch((e) => { console.error(e); process.exit(1); });`);

  // Type-level consumers. @ts-expect-error lines prove the types are real (an `any` would make them unused: an error).
  const files = {
    'consumer-core.ts': `
import { TrxRent, TrxRentError, ValidationError, InsufficientBalanceError, isTronAddress, trxToSun, sunToTrx, type TrxRentOptions, type Order, type Balance } from 'trx-rent';
const options: TrxRentOptions = { baseUrl: 'http://127.0.0.1:8787', apiKey: 'sk_test' };
const client = new TrxRent(options);
export async function buy(): Promise<Order> {
  const sun: number = trxToSun('1.5');
  const trx: string = sunToTrx(sun);
  // @ts-expect-error trxToSun returns a number
  const wrong: string = trxToSun('1');
  const ok: boolean = isTronAddress(trx);
  const balance: Balance = await client.balance.get();
  void [wrong, ok, balance];
  try {
    return await client.orders.create({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW' });
  } catch (error) {
    if (error instanceof InsufficientBalanceError || error instanceof ValidationError) throw error;
    if (error instanceof TrxRentError) console.error(error.code, error.status);
    throw error;
  }
}
`,
    'consumer-webhooks.ts': `
import { verifyWebhookSignature, constructWebhookEvent, signWebhookPayload, WebhookSignatureError, isKnownEvent, type WebhookEvent } from 'trx-rent/webhooks';
export async function receive(raw: string, header: string | undefined, secret: string): Promise<string> {
  const valid: boolean = await verifyWebhookSignature(raw, header, secret);
  const signed: string = await signWebhookPayload(new TextEncoder().encode(raw), secret);
  try {
    const event: WebhookEvent = await constructWebhookEvent(raw, header, secret, { toleranceSec: 300 });
    if (isKnownEvent(event) && event.event === 'order.filled') return event.data.id;
    // @ts-expect-error the timestamp is a number
    const t: string = event.timestamp;
    return String(t) + valid + signed;
  } catch (error) {
    if (error instanceof WebhookSignatureError) return error.reason;
    throw error;
  }
}
`,
    'consumer-schemas.ts': `
import { CreateOrderRequest, Order } from 'trx-rent/schemas';
export const parsed = Order.safeParse({});
export const request = CreateOrderRequest.parse({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW' });
export const amount: number = request.amount;
`,
    'consumer-mock.ts': `
import { startMockServer, createMockState, createFetchHandler } from 'trx-rent/mock';
export async function withMock(): Promise<string> {
  const mock = await startMockServer({ port: 0 });
  const url: string = mock.url;
  await mock.close();
  const handle: (request: Request) => Promise<Response> = createFetchHandler(createMockState({ clock: 'manual' }));
  void handle;
  return url;
}
`,
    'consumer-x402.ts': `
import { X402Client } from 'trx-rent/x402';
export const Client: typeof X402Client = X402Client;
`,
    'consumer-cjs.cts': `
import { TrxRent, trxToSun } from 'trx-rent';
import { verifyWebhookSignature } from 'trx-rent/webhooks';
import { Order } from 'trx-rent/schemas';
import { startMockServer } from 'trx-rent/mock';
import { X402Client } from 'trx-rent/x402';
export const sun: number = trxToSun('1');
export const values = [TrxRent, verifyWebhookSignature, Order, startMockServer, X402Client];
`,
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text.trimStart());
  const esmFiles = Object.keys(files).filter((f) => f.endsWith('.ts'));
  const common = {
    target: 'ES2022',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ['node'],
    typeRoots: [join(root, 'node_modules', '@types')],
  };
  writeFileSync(
    join(dir, 'tsconfig.bundler.json'),
    JSON.stringify({ compilerOptions: { ...common, module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'] }, files: esmFiles }, null, 2),
  );
  writeFileSync(
    join(dir, 'tsconfig.node16.json'),
    JSON.stringify(
      { compilerOptions: { ...common, module: 'Node16', moduleResolution: 'Node16', lib: ['ES2022'] }, files: [...esmFiles, 'consumer-cjs.cts'] },
      null,
      2,
    ),
  );
}

function entryCheck(file) {
  const r = run(process.execPath, [file], { cwd: project, timeout: 120_000 });
  const line = r.stdout.split('\n').find((l) => l.startsWith('@@RESULT@@'));
  if (!line) throw new Error(`${file} crashed (exit ${r.status}):\n${r.stderr.trim().split('\n').slice(-15).join('\n')}`);
  const result = JSON.parse(line.slice('@@RESULT@@'.length));
  const problems = [];
  for (const [entry, v] of Object.entries(result)) {
    if (v.error) problems.push(`${entry}: failed to load: ${v.error}`);
    else if (v.missing.length) problems.push(`${entry}: missing exports ${v.missing.join(', ')} (has ${v.exports})`);
    else if (v.smoke) problems.push(`${entry}: smoke test failed: ${v.smoke}`);
  }
  const warnings = r.stderr.split('\n').filter((l) => /Warning/.test(l));
  if (problems.length) throw new Error(problems.join('\n'));
  return `${Object.keys(result).length} entries ok${warnings.length ? `; stderr: ${[...new Set(warnings)].join(' / ')}` : ''}`;
}

/*
 * Type errors in the consumer files or in trx-rent's own .d.ts fail the check. skipLibCheck is off
 * so our declarations are checked too; errors inside other packages' declarations (msw's types
 * use DOM names such as WebSocketEventMap, so `trx-rent/mock` under a lib without "DOM" trips
 * them) are reported as notes, as we cannot fix them and skipLibCheck (the default of `tsc
 * --init`) hides them.
 */
function tsc(config) {
  const r = run(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config], { cwd: project });
  const lines = `${r.stdout}\n${r.stderr}`.trim().split('\n');
  const errors = lines.filter((l) => /error TS\d+/.test(l));
  const thirdParty = errors.filter((l) => /^node_modules\//.test(l) && !/^node_modules\/trx-rent\//.test(l));
  const own = errors.filter((l) => !thirdParty.includes(l));
  if (own.length || (r.status !== 0 && !errors.length)) {
    throw new Error(`${own.length} type errors in the consumer or trx-rent's declarations:\n${(own.length ? own : lines).slice(0, 40).join('\n')}`);
  }
  if (!thirdParty.length) return 'no errors';
  const byPackage = new Map();
  for (const l of thirdParty) {
    const name = l.match(/^node_modules\/((?:@[^/]+\/)?[^/]+)/)[1];
    byPackage.set(name, (byPackage.get(name) ?? 0) + 1);
  }
  return `no errors of ours; note: ${thirdParty.length} errors inside dependencies' own declarations (${[...byPackage].map(([n, c]) => `${n} ${c}`).join(', ')}), hidden by skipLibCheck`;
}

function writeMswChecks(dir) {
  const smoke = (mod, msw) => `
const result = {};
try {
  const m = ${mod};
  const missing = ['createHandlers', 'defaultHandlers', 'defaultState'].filter((k) => typeof m[k] !== 'function');
  if (missing.length) throw new Error('missing exports ' + missing.join(', '));
  const { setupServer } = ${msw};
  const server = setupServer(...m.defaultHandlers());
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const response = await fetch('https://api.trx-rent.test/api/v1/balance', { headers: { 'X-API-Key': m.defaultState().demo.api_key } });
    if (response.status !== 200) throw new Error('GET /api/v1/balance through msw answered ' + response.status);
    const body = await response.json();
    if (!body || typeof body !== 'object') throw new Error('no JSON body');
  } finally {
    server.close();
  }
  result.ok = true;
} catch (error) {
  result.error = String(error && error.stack || error);
}
console.log('@@MSW@@' + JSON.stringify(result));
`;
  writeFileSync(join(dir, 'check-msw.mjs'), smoke("await import('trx-rent/mock/msw')", "await import('msw/node')"));
  writeFileSync(join(dir, 'check-msw.cjs'), `(async () => {${smoke("require('trx-rent/mock/msw')", "require('msw/node')")}})();`);
  writeFileSync(
    join(dir, 'consumer-msw.ts'),
    `import { setupServer } from 'msw/node';
import { createHandlers, defaultHandlers, defaultState } from 'trx-rent/mock/msw';
import { createMockState } from 'trx-rent/mock';
export const server = setupServer(...defaultHandlers(), ...createHandlers(createMockState({ clock: 'manual' })));
export const accountId: string = defaultState().demo.account_id;
// @ts-expect-error createHandlers needs a MockState
createHandlers('state');
`,
  );
  writeFileSync(
    join(dir, 'consumer-msw-cjs.cts'),
    `import { setupServer } from 'msw/node';
import { defaultHandlers } from 'trx-rent/mock/msw';
export const server = setupServer(...defaultHandlers());
`,
  );
  const common = { target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [join(root, 'node_modules', '@types')] };
  writeFileSync(
    join(dir, 'tsconfig.msw.node16.json'),
    JSON.stringify(
      {
        compilerOptions: { ...common, module: 'Node16', moduleResolution: 'Node16', lib: ['ES2022', 'DOM'] },
        files: ['consumer-msw.ts', 'consumer-msw-cjs.cts'],
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(dir, 'tsconfig.msw.bundler.json'),
    JSON.stringify(
      { compilerOptions: { ...common, module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM'] }, files: ['consumer-msw.ts'] },
      null,
      2,
    ),
  );
}

function mswCheck(file) {
  const r = run(process.execPath, [file], { cwd: project, timeout: 120_000 });
  const line = r.stdout.split('\n').find((l) => l.startsWith('@@MSW@@'));
  if (!line) throw new Error(`${file} crashed (exit ${r.status}):\n${r.stderr.trim().split('\n').slice(-15).join('\n')}`);
  const result = JSON.parse(line.slice('@@MSW@@'.length));
  if (result.error) throw new Error(result.error);
  return 'createHandlers, defaultHandlers, defaultState; GET /api/v1/balance answered through msw';
}

// --- report ------------------------------------------------------------------------------------
function report() {
  console.log('\n## Package checks');
  console.table(checks.map((c) => ({ check: c.name, result: c.ok ? 'ok' : 'FAIL', seconds: +(c.ms / 1000).toFixed(1) })));
  for (const c of checks) {
    if (c.detail) console.log(`\n${c.ok ? '·' : '✗'} ${c.name}: ${c.detail}`);
  }

  const rows = [];
  if (footprint.tarball)
    rows.push({
      measure: 'tarball',
      value: `${fmtKB(footprint.tarball.bytes)} packed, ${fmtKB(footprint.tarball.unpackedBytes)} unpacked, ${footprint.tarball.files} files`,
      goal: '',
    });
  if (footprint.install) {
    rows.push({
      measure: 'production install, tarball alone',
      value: `${fmtMB(footprint.install.bytes)}, ${footprint.install.packages} packages`,
      goal: `< ${fmtMB(GOALS.installBytes)}, < ${GOALS.installPackages} packages: ${footprint.install.bytes < GOALS.installBytes && footprint.install.packages < GOALS.installPackages ? 'yes' : 'NO'}`,
    });
  }
  if (footprint.installWithExtras) {
    rows.push({
      measure: 'production install, with payment extras',
      value: `${fmtMB(footprint.installWithExtras.bytes)}, ${footprint.installWithExtras.packages} packages`,
      goal: '',
    });
  }
  for (const [name, s] of Object.entries(footprint.bundles ?? {})) {
    rows.push({
      measure: `${name} (min + gzip)`,
      value: `${fmtKB(s.gzip)} gzip, ${fmtKB(s.minified)} min`,
      goal:
        name === 'trx-rent/webhooks'
          ? `< 2 KB gzip, no deps: ${s.gzip <= GOALS.webhooksGzip && !s.imports.length ? 'yes' : 'NO'}`
          : `imports: ${s.imports.join(' ') || 'none'}`,
    });
  }
  if (rows.length) {
    console.log('\n## Footprint');
    console.table(rows);
    for (const [label, fp] of [
      ['tarball alone', footprint.install],
      ['with extras', footprint.installWithExtras],
    ]) {
      if (!fp) continue;
      console.log(`largest (${label}): ${fp.largest.map((p) => `${p.name} ${fmtMB(p.bytes)}`).join(', ')}`);
      if (fp.duplicates.length) console.log(`  installed in several versions: ${fp.duplicates.join(', ')}`);
    }
  }
  footprint.checks = checks.map(({ name, ok, ms }) => ({ name, ok, ms }));
  footprint.seconds = +((Date.now() - t0) / 1000).toFixed(1);
  const out = join(root, 'bench', 'results', 'footprint.json');
  let written = '';
  if (footprint.install || footprint.bundles) {
    // Read by bench/footprint.mjs (`npm run bench footprint`). Not written when nothing was measured.
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, JSON.stringify(footprint, null, 2));
    written = ` Footprint written to ${out}`;
  }
  const failedCount = checks.filter((c) => !c.ok).length;
  console.log(`\n${failedCount ? `${failedCount} check(s) FAILED` : 'All package checks passed'} in ${footprint.seconds} s.${written}`);
}
