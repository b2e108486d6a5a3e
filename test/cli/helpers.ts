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

/** Output without terminal escapes; carriage returns dropped, or made line breaks (a progress line redrawn in place). */
export function plain(s: string, cr: 'drop' | 'newline' = 'drop'): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, cr === 'drop' ? '' : '\n');
}

/** {@link plain}, with line breaks (and the blanks around them) folded to one space, for matching wrapped prompts. */
export const fold = (s: string, cr: 'drop' | 'newline' = 'drop'): string => plain(s, cr).replace(/\s*\n\s*/g, ' ');

/** A step of {@link inPty}: wait for `expect` in the output since the last step, then type `send`. */
export interface PtyStep {
  expect: RegExp;
  send: string;
}

/**
 * Feeds a terminal's output to `steps` in turn: each waits for its `expect` in the output after
 * the previous step's match (line breaks folded), then `type`s its `send` 50 ms later. A chunk
 * that holds several steps' texts (a loaded machine coalesces writes) matches them all, each in
 * the text after the one before; the output is kept whole and folded again as it grows, so an
 * escape sequence split across chunks still reads as one.
 */
export function ptySteps(steps: PtyStep[], type: (text: string) => void, cr: 'drop' | 'newline' = 'drop') {
  let output = '';
  const pending = [...steps];
  const matched: string[] = [];
  // Where the last match ended, in the folded output (text before it is settled: its escapes closed).
  let from = 0;
  return {
    feed(chunk: string): void {
      output += chunk;
      if (pending.length === 0) return;
      const folded = fold(output, cr);
      // Steps matched in one chunk type in their order, 50 ms apart.
      let typed = 0;
      for (let step = pending[0]; step; step = pending[0]) {
        const m = step.expect.exec(folded.slice(from));
        if (!m) break;
        pending.shift();
        matched.push(step.expect.source);
        from += m.index + m[0].length;
        setTimeout(() => type(step.send), 50 * ++typed);
      }
    },
    get output() {
      return output;
    },
    matched,
    unmatched: () => pending.map((s) => s.expect.source),
  };
}

/**
 * The built CLI in a pseudo-terminal (util-linux `script`), the terminal's width set by stty as
 * in a person's terminal (wide by default, so prompts do not wrap); each step waits for its
 * `expect` in the output since the last step (line breaks folded), then types its `send`.
 * Killed after `timeoutMs`. `output` is {@link plain} with the chosen carriage-return handling.
 */
export function inPty(
  args: string[],
  steps: PtyStep[] = [],
  env: Record<string, string> = {},
  timeoutMs = 20_000,
  cols = 200,
  cr: 'drop' | 'newline' = 'drop',
): Promise<{ code: number | null; output: string; matched: string[]; unmatched: string[] }> {
  const command = ['node', BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', `stty cols ${cols} rows 50 2>/dev/null; exec ${command}`, '/dev/null'], {
    cwd: ROOT,
    env: cleanEnv({ ...env, TERM: 'xterm', LINES: '50' }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const screen = ptySteps(steps, (text) => child.stdin!.write(text), cr);
  child.stdout!.on('data', (d: Buffer) => screen.feed(d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: plain(screen.output, cr), matched: screen.matched, unmatched: screen.unmatched() });
    });
  });
}
