/**
 * Spawn the built CLI (`node bin/trx-rent.js`, dist/ built by `npm test` before vitest) with an
 * isolated config dir and a clean environment, bounded in time. Only the smoke tests of the real
 * process (start-up, lazy loading, signals, pipes, a terminal) use this; everything else runs the
 * CLI in-process (./run.ts), which needs no build.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type RunResult, tempDir } from './run.js';

export { ADDRESS, type RunResult, errorLine, json, tempDir } from './run.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The CLI under test: a snapshot of the build (dist/, bin/, package.json, node_modules linked)
 * taken when the test file starts, so a rebuild running alongside (`tsup` cleans dist/) cannot
 * pull files out from under a spawned CLI. `npm test` builds before vitest.
 */
function snapshotBuild(): string {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'index.js'))) {
    throw new Error('dist/cli/index.js is missing: build first (npm test builds, or npx tsup)');
  }
  const dir = mkdtempSync(join(tmpdir(), 'trx-rent-build-'));
  cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  if (!existsSync(join(dir, 'dist', 'cli', 'index.js'))) throw new Error('the build changed while it was copied; run again');
  return dir;
}

export const BUILD = snapshotBuild();
export const BIN = join(BUILD, 'bin', 'trx-rent.js');

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string | Buffer;
  timeoutMs?: number;
  configDir?: string;
}

/** The environment a test run sees: nothing of ours from the outer shell, no colour forcing. */
export function cleanEnv(extra: Record<string, string | undefined> = {}, configDir = tempDir()): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('TRX_RENT_') || k === 'NO_COLOR' || k === 'FORCE_COLOR' || k === 'CLICOLOR_FORCE' || k === 'CLICOLOR') continue;
    if (k.startsWith('VITEST') || k === 'NODE_OPTIONS') continue;
    env[k] = v;
  }
  env.TRX_RENT_CONFIG_DIR = configDir;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function runCli(args: string[], options: RunOptions = {}): Promise<RunResult> {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: cleanEnv(options.env, options.configDir),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return collect(child, options, started);
}

export function collect(child: ChildProcess, options: { input?: string | Buffer; timeoutMs?: number }, started = Date.now()): Promise<RunResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  if (options.input !== undefined) child.stdin?.end(options.input);
  else child.stdin?.end();
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** Start a long-running CLI process (mock, webhooks listen) and wait until stderr/stdout match `ready`. */
export async function startCli(
  args: string[],
  ready: RegExp,
  options: { env?: Record<string, string | undefined>; configDir?: string; timeoutMs?: number } = {},
): Promise<{ child: ChildProcess; match: RegExpMatchArray; output: () => { stdout: string; stderr: string }; stop: () => Promise<RunResult> }> {
  const started = Date.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: cleanEnv(options.env, options.configDir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const closed = new Promise<RunResult>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - started }));
  });
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`not ready within ${options.timeoutMs ?? 15_000} ms:\n${stdout}\n--- stderr ---\n${stderr}`));
    }, options.timeoutMs ?? 15_000);
    const check = () => {
      const m = (stderr + stdout).match(ready);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.on('close', () => {
      clearTimeout(timer);
      reject(new Error(`exited before ready (${child.exitCode}):\n${stdout}\n--- stderr ---\n${stderr}`));
    });
  });
  return {
    child,
    match,
    output: () => ({ stdout, stderr }),
    stop: async () => {
      const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.kill('SIGTERM');
      const result = await closed;
      clearTimeout(killer);
      return result;
    },
  };
}
