#!/usr/bin/env node
// `npm run test:matrix`: the core test suite (SDK against the in-process mock, webhook verifier,
// utils, schemas) on Node 20 (the running node), 22 and 24. Node 22 and
// 24 come from the npm registry as packages (`node-<platform>-<arch>@<major>`, installed with
// --ignore-scripts: the package holds the plain binary), cached under .tmp/node-matrix/<major>/,
// so nothing but the registry is needed.
//
//   node scripts/test-matrix.mjs                 # current node + latest 22.x + latest 24.x
//   node scripts/test-matrix.mjs 22 current      # only the listed majors ("current": the running node)
//   node scripts/test-matrix.mjs --offline       # use the cached binaries, no registry lookup
//   node scripts/test-matrix.mjs --props         # also the property/fuzz tests (test/props, ~15 s more per version)
//   TEST_MATRIX_TIMEOUT_MS=600000                # per-version limit (default 10 min)
//
// Needs dist/ (test/webhooks/webhooks-browser.test.ts loads the built verifier): run `npm run build` first.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cacheDir = join(root, '.tmp', 'node-matrix');
const args = process.argv.slice(2);
const offline = args.includes('--offline');
const majorsArg = args.filter((a) => !a.startsWith('--'));
const currentMajor = process.versions.node.split('.')[0];
// 'current' is the running node; a listed major equal to it runs once, on the running node.
const majors = [...new Set((majorsArg.length ? majorsArg : ['current', '22', '24']).map((m) => (m === 'current' ? currentMajor : m)))];
const timeoutMs = Number(process.env.TEST_MATRIX_TIMEOUT_MS ?? 10 * 60_000);
const suites = [
  'test/utils',
  'test/http',
  'test/errors',
  'test/internal',
  'test/protocol',
  'test/webhooks',
  'test/schemas',
  'test/resources',
  'test/tron',
  'test/architecture/light-core.test.ts',
  ...(args.includes('--props') ? ['test/props'] : []),
].filter((dir) => existsSync(join(root, dir)));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const platformPackage = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;

if (!existsSync(join(root, 'dist', 'webhooks', 'index.cjs'))) {
  console.error('dist/ is missing: run `npm run build` first (the browser-like webhook test loads the built file).');
  process.exit(1);
}

const started = Date.now();
const results = [];
for (const major of majors) {
  const t0 = Date.now();
  let node;
  try {
    node = major === currentMajor ? process.execPath : await nodeBinary(major);
  } catch (error) {
    results.push({ major, ok: false, note: `could not install Node ${major}: ${error.message}`, seconds: secs(t0) });
    continue;
  }
  const version = run(node, ['--version']).stdout.trim();
  console.log(`\n=== Node ${version} (${node}) — vitest run ${suites.join(' ')} ===`);
  const outFile = join(cacheDir, `vitest-${version}.json`);
  rmSync(outFile, { force: true });
  const code = await runWithTimeout(
    node,
    [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...suites, '--reporter=default', '--reporter=json', `--outputFile.json=${outFile}`],
    timeoutMs,
  );
  const summary = readSummary(outFile);
  results.push({
    major,
    version,
    ok: code === 0 && summary !== undefined && summary.failed === 0 && summary.passed > 0,
    ...summary,
    note: code === 'timeout' ? `timed out after ${timeoutMs / 1000}s` : code === 0 ? '' : `vitest exit ${code}`,
    seconds: secs(t0),
  });
}

console.log('\n## Core suite per Node version');
console.table(
  results.map((r) => ({
    node: r.version ?? r.major,
    result: r.ok ? 'pass' : 'FAIL',
    files: r.files ?? '',
    passed: r.passed ?? '',
    failed: r.failed ?? '',
    skipped: r.skipped ?? '',
    seconds: r.seconds,
    note: r.note ?? '',
  })),
);
console.log(`Total ${secs(started)} s; suites: ${suites.join(', ')}`);
process.exit(results.every((r) => r.ok) ? 0 : 1);

/** Path to a cached `node` of this major, installing the newest release from the registry if needed. */
async function nodeBinary(major) {
  const dir = join(cacheDir, major);
  const bin = join(dir, 'node_modules', platformPackage, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  const cached = existsSync(bin) ? tryVersion(bin) : undefined;
  if (offline) {
    if (!cached) throw new Error(`no cached binary at ${bin} (run once without --offline)`);
    return bin;
  }
  const latest = latestVersion(major);
  if (cached === `v${latest}`) return bin;
  console.log(`Installing ${platformPackage}@${latest} into ${dir} …`);
  mkdirSync(dir, { recursive: true });
  const install = run(npm, [
    'install',
    '--prefix',
    dir,
    '--no-save',
    '--ignore-scripts',
    '--no-audit',
    '--no-fund',
    '--no-package-lock',
    '--loglevel=error',
    `${platformPackage}@${latest}`,
  ]);
  if (install.status !== 0) throw new Error(`npm install failed: ${install.stderr.trim().split('\n').slice(-3).join(' ')}`);
  const got = tryVersion(bin);
  if (got !== `v${latest}`) throw new Error(`installed binary reports ${got ?? 'nothing'}, expected v${latest}`);
  return bin;
}

function latestVersion(major) {
  const view = run(npm, ['view', `${platformPackage}@${major}`, 'version', '--json']);
  if (view.status !== 0) throw new Error(`npm view ${platformPackage}@${major} failed: ${view.stderr.trim()}`);
  const parsed = JSON.parse(view.stdout);
  const versions = (Array.isArray(parsed) ? parsed : [parsed]).filter((v) => /^\d+\.\d+\.\d+$/.test(v));
  if (!versions.length) throw new Error(`no ${platformPackage} release for Node ${major}`);
  const key = (v) => v.split('.').map(Number);
  versions.sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
  return versions.at(-1);
}

function tryVersion(bin) {
  const r = run(bin, ['--version']);
  return r.status === 0 ? r.stdout.trim() : undefined;
}

function run(cmd, argv) {
  const r = spawnSync(cmd, argv, { cwd: root, encoding: 'utf8', timeout: 5 * 60_000, shell: process.platform === 'win32' });
  return { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? String(r.error ?? '') };
}

function runWithTimeout(cmd, argv, ms) {
  return new Promise((resolve) => {
    // Own process group so a timeout ends vitest and its workers together.
    const child = spawn(cmd, argv, { cwd: root, stdio: 'inherit', detached: process.platform !== 'win32' });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, ms);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(timedOut ? 'timeout' : code);
    });
  });
}

function readSummary(file) {
  try {
    const json = JSON.parse(readFileSync(file, 'utf8'));
    return {
      files: json.numTotalTestSuites === undefined ? undefined : json.testResults?.length,
      passed: json.numPassedTests,
      failed: json.numFailedTests,
      skipped: (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0),
    };
  } catch {
    return undefined;
  }
}

function secs(t0) {
  return Math.round((Date.now() - t0) / 100) / 10;
}
