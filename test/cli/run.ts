/**
 * The CLI in-process: `main(argv, runtime)` from src/ (vitest runs the TypeScript directly; no
 * build needed) with captured stdout/stderr, a piped or terminal stdin, its own environment and
 * config dir, and, for long-running commands, a signal the test sends. Most CLI tests use this;
 * test/cli/helpers.ts spawns the built binary for the few that test the real process.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { main } from '../../src/cli/index.js';

/** A valid base58check TRON address (the mock delivers nothing real). */
export const ADDRESS = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function tempDir(prefix = 'trx-rent-cli-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** Parse the one JSON document a --json run must print, failing loudly if there is anything else. */
export function json<T = any>(result: { code: number | null; stdout: string; stderr: string }): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`stdout is not one JSON document (exit ${result.code}):\n${result.stdout}\n--- stderr ---\n${result.stderr}`);
  }
}

/** The `{ error }` line a failing --json run prints on stderr. */
export function errorLine(result: { stderr: string }): { code: string; message: string; hint?: string; exit_code: number } {
  const line = result.stderr.split('\n').find((l) => l.startsWith('{"error"'));
  if (!line) throw new Error(`no JSON error line on stderr:\n${result.stderr}`);
  return JSON.parse(line).error;
}

export interface InProcessOptions {
  /** Variables on top of `TRX_RENT_CONFIG_DIR` (the run sees nothing else of the outer environment). */
  env?: Record<string, string | undefined>;
  /** Piped stdin (default: empty, not a terminal). */
  input?: string | Buffer;
  /** Pretend stdin/stdout/stderr are terminals (true: all three). */
  isTTY?: boolean | { stdin?: boolean; stdout?: boolean; stderr?: boolean };
  /** Terminal width (with isTTY). */
  columns?: number;
  /** With isTTY: the terminal's keyboard (write keystrokes into it; default: nothing typed). */
  keyboard?: PassThrough;
  fetch?: typeof fetch;
  configDir?: string;
  /** The run fails (the promise rejects) when it takes longer. */
  timeoutMs?: number;
  /** Ends `mock` / `webhooks listen` (default: never; use startCliInProcess for those). */
  untilSignal?: () => Promise<string>;
}

/** A writer that keeps what is written; `isTTY`/`columns` as asked. */
function capture(isTTY: boolean, columns: number | undefined) {
  const writer = {
    text: '',
    isTTY,
    columns,
    write(chunk: string | Uint8Array) {
      writer.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      writer.listener?.();
      return true;
    },
    listener: undefined as (() => void) | undefined,
  };
  return writer;
}

function ttyFlags(isTTY: InProcessOptions['isTTY']): { stdin: boolean; stdout: boolean; stderr: boolean } {
  if (typeof isTTY === 'object') return { stdin: Boolean(isTTY.stdin), stdout: Boolean(isTTY.stdout), stderr: Boolean(isTTY.stderr) };
  return { stdin: Boolean(isTTY), stdout: Boolean(isTTY), stderr: Boolean(isTTY) };
}

function setup(args: string[], options: InProcessOptions) {
  const tty = ttyFlags(options.isTTY);
  const stdout = capture(tty.stdout, options.columns);
  const stderr = capture(tty.stderr, options.columns);
  let stdin: Readable & { isTTY?: boolean };
  if (tty.stdin) {
    stdin = options.keyboard ?? new PassThrough();
    stdin.isTTY = true;
  } else {
    stdin = Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]);
  }
  const env: Record<string, string> = { TRX_RENT_CONFIG_DIR: options.configDir ?? tempDir() };
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const started = Date.now();
  const result = main(args, {
    env,
    stdout,
    stderr,
    stdin,
    ...(options.configDir ? { configDir: options.configDir } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    untilSignal: options.untilSignal ?? (() => new Promise<string>(() => {})),
  }).then(
    (code): RunResult => ({ code, signal: null, stdout: stdout.text, stderr: stderr.text, ms: Date.now() - started }),
    // What bin/trx-rent.js does with an error main() did not turn into an exit code.
    (error: unknown): RunResult => ({
      code: 1,
      signal: null,
      stdout: stdout.text,
      stderr: `${stderr.text}${error instanceof Error ? error.message : String(error)}\n`,
      ms: Date.now() - started,
    }),
  );
  return { result, stdout, stderr, stdin };
}

function bounded<T>(promise: Promise<T>, timeoutMs: number, what: string, output: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${timeoutMs} ms\n${output()}`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Run `trx-rent ...args` in this process; resolves when it finishes. */
export function runCliInProcess(args: string[], options: InProcessOptions = {}): Promise<RunResult> {
  const { result, stdout, stderr } = setup(args, options);
  return bounded(result, options.timeoutMs ?? 20_000, `trx-rent ${args.join(' ')}`, () => `${stdout.text}\n--- stderr ---\n${stderr.text}`);
}

/**
 * Start a long-running command (`mock`, `webhooks listen`) in this process and wait until its
 * stdout/stderr match `ready`; `stop()` sends it the interrupt and resolves with its result.
 */
export async function startCliInProcess(
  args: string[],
  ready: RegExp,
  options: Omit<InProcessOptions, 'untilSignal'> = {},
): Promise<{ match: RegExpMatchArray; output: () => { stdout: string; stderr: string }; stop: (signal?: string) => Promise<RunResult> }> {
  let interrupt: (signal: string) => void = () => {};
  const interrupted = new Promise<string>((resolve) => (interrupt = resolve));
  const { result, stdout, stderr } = setup(args, { ...options, untilSignal: () => interrupted });
  const timeoutMs = options.timeoutMs ?? 15_000;
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      interrupt('SIGKILL');
      reject(new Error(`not ready within ${timeoutMs} ms:\n${stdout.text}\n--- stderr ---\n${stderr.text}`));
    }, timeoutMs);
    const check = () => {
      const m = (stderr.text + stdout.text).match(ready);
      if (m) {
        clearTimeout(timer);
        stdout.listener = stderr.listener = undefined;
        resolve(m);
      }
    };
    stdout.listener = stderr.listener = check;
    void result.then((r) => {
      clearTimeout(timer);
      if (!(stderr.text + stdout.text).match(ready)) reject(new Error(`exited before ready (${r.code}):\n${r.stdout}\n--- stderr ---\n${r.stderr}`));
    });
    check();
  });
  return {
    match,
    output: () => ({ stdout: stdout.text, stderr: stderr.text }),
    stop: (signal = 'SIGTERM') => {
      interrupt(signal);
      return bounded(result, 5_000, `trx-rent ${args.join(' ')} after ${signal}`, () => stderr.text);
    },
  };
}
