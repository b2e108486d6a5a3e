/**
 * What the README tests share: README.md's fenced blocks (read from the file, never copied into a
 * test), how a test claims one (`block(marker)`, a string only that block holds; readme.test.ts
 * holds every block to exactly one claim), fresh folders inside the clone, and children run the way a user's shell runs
 * them: no inherited TRX_RENT_* settings, an own config directory, npm offline (tests talk only
 * to 127.0.0.1), and the world beyond loopback replaced by a recorder (`outside-world.mjs`).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { plain, ptySteps } from '../cli/helpers.js';

export const root = fileURLToPath(new URL('../..', import.meta.url));
export const readmeText = readFileSync(join(root, 'README.md'), 'utf8');

/** One fenced block: its language, the line of its first content line, its text. */
export interface Block {
  lang: string;
  line: number;
  code: string;
}

/** Every fenced block of README.md, in order. */
export function readmeBlocks(): Block[] {
  const lines = readmeText.split('\n');
  const found: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i + 1;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== '```'; i++) body.push(lines[i]!);
    found.push({ lang: open[1]!, line: start + 1, code: `${body.join('\n')}\n` });
  }
  return found;
}

/** The one block containing `marker` (a test claims a block by a string only it holds). */
export function block(marker: string): Block {
  const found = readmeBlocks().filter((b) => b.code.includes(marker));
  if (found.length !== 1) throw new Error(`${found.length} README blocks contain ${JSON.stringify(marker)}; a claim names exactly one`);
  return found[0]!;
}

/** The file name a program block gives on its first line (`// tour.mjs`). */
export function fileName(b: Block): string {
  const name = /^\/\/ ([\w.-]+\.(?:mjs|ts))\n/.exec(b.code)?.[1];
  if (!name) throw new Error(`the block at README.md:${b.line} does not name its file on its first line`);
  return name;
}

/** The block's commands: one per line, comments and blank lines dropped. */
export function commands(b: Block): string[] {
  return b.code
    .split('\n')
    .map((l) => l.replace(/\s+#\s.*$/, '').trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** A fresh empty folder inside the clone (`.tmp/readme/…`), where `import 'trx-rent'` and `npx trx-rent` find this clone. */
export function freshFolder(name: string): string {
  const base = join(root, '.tmp', 'readme');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, `${name}-`));
}

/** `trx-rent` on PATH as `npm link` puts it there: a bin folder with a link to the clone's bin. */
export function linkedBin(): string {
  const dir = join(root, '.tmp', 'readme-bin');
  if (!existsSync(join(dir, 'trx-rent'))) {
    mkdirSync(dir, { recursive: true });
    try {
      symlinkSync(join(root, 'bin', 'trx-rent.js'), join(dir, 'trx-rent'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return dir;
}

/** Hosts a block names that are not ours to reach (a webhook URL in an example): answered by the recorder. */
export const STUBBED_HOSTS = ['hooks.example.com'];

/**
 * The environment of a user's fresh shell: PATH (with `trx-rent` linked), HOME, an own config
 * directory, npm offline and quiet, no colour; node processes load the outside-world recorder,
 * which logs to `<configDir>/outside.jsonl`.
 */
export function shellEnv(configDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const recorder = pathToFileURL(join(root, 'test', 'helpers', 'outside-world.mjs')).href;
  return {
    PATH: `${linkedBin()}:${process.env.PATH ?? ''}`,
    HOME: process.env.HOME ?? configDir,
    TRX_RENT_CONFIG_DIR: configDir,
    NO_COLOR: '1',
    npm_config_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    NODE_OPTIONS: `--import=${recorder}`,
    TRX_RENT_TEST_STUB_HOSTS: STUBBED_HOSTS.join(','),
    TRX_RENT_TEST_OUTSIDE_LOG: join(configDir, 'outside.jsonl'),
    ...extra,
  };
}

/** What the recorder saw leave for the stubbed hosts (method, url, headers, body). */
export function outsideRequests(configDir: string): Array<{ method: string; url: string; headers: Record<string, string>; body: string }> {
  const file = join(configDir, 'outside.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Run a child to its end (killed after `timeout`) without blocking this process (an in-process mock may be its server). */
export function run(command: string, args: string[], options: { cwd: string; env: Record<string, string>; timeout: number }): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(command, args, { ...options, encoding: 'utf8', maxBuffer: 16 << 20, killSignal: 'SIGKILL' }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** Run one command line with bash, as typed at a prompt. */
export function bash(line: string, options: { cwd: string; env: Record<string, string>; timeout: number }): Promise<Ran> {
  return run('bash', ['-c', line], options);
}

/** A long-running command line (a server, a watcher) in its own process group; `stop` sends a signal to the group. */
export function background(line: string, options: { cwd: string; env: Record<string, string> }) {
  const child: ChildProcess = spawn('bash', ['-c', `exec ${line}`], { ...options, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const closed = new Promise<number | null>((resolve) => child.once('close', (code, signal) => resolve(code ?? (signal ? 128 : null))));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  return {
    output: () => ({ stdout, stderr }),
    /** Wait (bounded) until `ready` holds. */
    async until(ready: () => boolean, timeoutMs: number, what: string): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      let exited = false;
      void closed.then(() => (exited = true));
      while (!ready()) {
        if (exited) throw new Error(`${line} exited before ${what}:\n${stdout}\n${stderr}`);
        if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms:\n${stdout}\n${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    /** Signal the group and wait for it to end (SIGKILL after 10 s); resolves with the exit code. */
    async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // already gone
        }
      }, 10_000);
      const code = await closed;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * One command line in a pseudo-terminal (util-linux `script`), as typed at a prompt: each step
 * waits for its `expect` in the output since the last step, then types its `send`.
 */
export function linePty(
  line: string,
  steps: Array<{ expect: RegExp; send: string }>,
  options: { cwd: string; env: Record<string, string>; timeout: number },
): Promise<{ code: number | null; output: string; unmatched: string[] }> {
  const child = spawn('script', ['-qfec', `stty cols 200 rows 50 2>/dev/null; ${line}`, '/dev/null'], {
    cwd: options.cwd,
    env: { ...options.env, TERM: 'xterm', LINES: '50' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const screen = ptySteps(steps, (text) => child.stdin!.write(text));
  child.stdout!.on('data', (d: Buffer) => screen.feed(d.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: plain(screen.output), unmatched: screen.unmatched() });
    });
  });
}
