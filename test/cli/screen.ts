/**
 * What a person sees, not what was written: a headless terminal emulator (`@xterm/headless`,
 * installed on demand from scripts/tools/xterm, no dependencies of its own) fed every byte a
 * program writes, so a test reads the rendered screen, where a line a redraw erased is gone.
 * `screenPty` runs the built CLI in a pseudo-terminal (util-linux `script`, as `inPty` does)
 * with its output going through the emulator; `renderScreen` renders bytes captured in-process.
 */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { toolResolve } from '../../scripts/lib/tools.mjs';
import { BIN, ROOT, cleanEnv } from './helpers.js';

interface XtermBuffer {
  cursorY: number;
  viewportY: number;
  getLine(y: number): { translateToString(trimRight?: boolean): string } | undefined;
}
interface XtermTerminal {
  write(data: string, done?: () => void): void;
  buffer: { active: XtermBuffer };
  dispose(): void;
}
type XtermModule = { Terminal: new (options: { cols: number; rows: number; allowProposedApi?: boolean }) => XtermTerminal };

let loaded: Promise<XtermModule> | undefined;

/** The emulator's module, installed on first use (slow once: `npm ci` of one package into the tools cache). */
export function loadXterm(): Promise<XtermModule> {
  loaded ??= import(pathToFileURL(toolResolve('xterm', '@xterm/headless')).href).then((m: XtermModule & { default?: XtermModule }) =>
    m.Terminal ? m : m.default!,
  );
  return loaded;
}

/** A terminal of `cols` x `rows`: write bytes in, read the screen out. */
export class Screen {
  readonly #term: XtermTerminal;
  readonly #rows: number;
  #written: Promise<void> = Promise.resolve();

  constructor(xterm: XtermModule, cols: number, rows: number) {
    this.#term = new xterm.Terminal({ cols, rows, allowProposedApi: true });
    this.#rows = rows;
  }

  /** Feeds bytes in (in order; rendering is asynchronous, {@link lines} waits for it). */
  write(data: string): void {
    this.#written = this.#written.then(() => new Promise<void>((resolve) => this.#term.write(data, resolve)));
  }

  /** The visible rows, each without trailing blanks. */
  async lines(): Promise<string[]> {
    await this.#written;
    const buffer = this.#term.buffer.active;
    return Array.from(
      { length: this.#rows },
      (_, i) =>
        buffer
          .getLine(buffer.viewportY + i)
          ?.translateToString(true)
          .trimEnd() ?? '',
    );
  }

  /** The row the cursor is on: where a prompt waits for its answer. */
  async cursorLine(): Promise<string> {
    await this.#written;
    const buffer = this.#term.buffer.active;
    return (
      buffer
        .getLine(buffer.viewportY + buffer.cursorY)
        ?.translateToString(true)
        .trimEnd() ?? ''
    );
  }

  /** The screen as one text, rows joined by line breaks, blank rows at the end dropped. */
  async text(): Promise<string> {
    return (await this.lines()).join('\n').replace(/\n+$/, '');
  }

  dispose(): void {
    this.#term.dispose();
  }
}

/** Renders `bytes` on a fresh terminal and returns its screen's text. */
export async function renderScreen(bytes: string, cols = 120, rows = 30): Promise<string> {
  const screen = new Screen(await loadXterm(), cols, rows);
  screen.write(bytes);
  const text = await screen.text();
  screen.dispose();
  return text;
}

/** The built CLI in a pseudo-terminal whose screen is rendered; see {@link screenPty}. */
export interface ScreenPty {
  screen: Screen;
  /** Resolves with the screen's text once `pattern` matches it (rejects after `timeoutMs`, or when the CLI exits first). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Types into the terminal. */
  type(text: string): void;
  /** The exit code, once the CLI exits (it is killed after the run's `timeoutMs`). */
  exited: Promise<number | null>;
}

/**
 * `trx-rent ...args` in a pseudo-terminal of `cols` x `rows` (stdin, stdout and stderr all the
 * terminal, as for a person), its output rendered by the emulator as it arrives.
 */
export async function screenPty(
  args: string[],
  env: Record<string, string>,
  options: { cols?: number; rows?: number; timeoutMs?: number } = {},
): Promise<ScreenPty> {
  const { cols = 160, rows = 40, timeoutMs = 60_000 } = options;
  const screen = new Screen(await loadXterm(), cols, rows);
  const command = ['node', BIN, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('script', ['-qfec', `stty cols ${cols} rows ${rows} 2>/dev/null; exec ${command}`, '/dev/null'], {
    cwd: ROOT,
    env: cleanEnv({ ...env, TERM: 'xterm', LINES: String(rows), COLUMNS: String(cols) }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (d: Buffer) => {
    screen.write(d.toString('utf8'));
    for (const listener of listeners) listener();
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  let done = false;
  const exited = new Promise<number | null>((resolve) => {
    child.on('close', (code) => {
      clearTimeout(killer);
      done = true;
      for (const listener of listeners) listener();
      resolve(code);
    });
  });
  const waitFor = (pattern: RegExp, waitMs = 30_000) =>
    new Promise<string>((resolve, reject) => {
      // One check at a time; output that arrives during one is checked again right after it.
      let checking = false;
      let again = false;
      let settled = false;
      const check = async () => {
        if (checking) {
          again = true;
          return;
        }
        checking = true;
        do {
          again = false;
          const exitedNow = done;
          const text = await screen.text();
          if (settled) break;
          if (pattern.test(text)) finish(() => resolve(text));
          else if (exitedNow) finish(() => reject(new Error(`the CLI exited before the screen matched ${pattern}:\n${text}`)));
        } while (again && !settled);
        checking = false;
      };
      const timer = setTimeout(async () => {
        const text = await screen.text();
        finish(() => reject(new Error(`the screen did not match ${pattern} within ${waitMs} ms:\n${text}`)));
      }, waitMs);
      const finish = (settle: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        listeners.delete(onData);
        settle();
      };
      const onData = () => void check();
      listeners.add(onData);
      void check();
    });
  return { screen, waitFor, type: (text) => child.stdin!.write(text), exited };
}
