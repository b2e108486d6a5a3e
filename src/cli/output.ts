/**
 * Everything the CLI writes. Two modes:
 * - human (stdout is a TTY, or --no-json): tables, colour (unless NO_COLOR / --no-color /
 *   TERM=dumb), a spinner on stderr during waits;
 * - json (--json, or stdout is not a TTY): exactly one JSON document on stdout, nothing else
 *   there. Streaming commands (`webhooks listen`) write one JSON document per line.
 * Diagnostics (progress, warnings, errors) always go to stderr.
 *
 * Terminal safety lives here, once: every human line is written through `sanitizeText` (server
 * text cannot move the cursor, retitle the window, clear the screen or reorder text; only our
 * own colours pass), every JSON document through `safeJson` (exact JSON, terminal-safe escapes).
 */
import type { CliWriter } from './runtime.js';
import { safeJson, sanitizeText } from './sanitize.js';

export type OutputMode = 'json' | 'human';

export interface Styles {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  magenta(s: string): string;
}

const ANSI: Record<keyof Styles, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
  magenta: [35, 39],
};

export function makeStyles(enabled: boolean): Styles {
  const entries = Object.entries(ANSI).map(([name, [open, close]]) => [
    name,
    enabled ? (s: string) => `\u001b[${open}m${s}\u001b[${close}m` : (s: string) => s,
  ]);
  return Object.fromEntries(entries) as unknown as Styles;
}

/**
 * Colour decision for one stream: --no-color and NO_COLOR win; FORCE_COLOR / CLICOLOR_FORCE
 * force it on (FORCE_COLOR=0 forces it off); TERM=dumb and CLICOLOR=0 turn it off; otherwise
 * the stream must be a TTY.
 */
export function colorEnabled(
  stream: { isTTY?: boolean | undefined },
  env: Readonly<Record<string, string | undefined>>,
  flag: boolean | undefined,
): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return !(force === '0' || force === 'false');
  if (env.CLICOLOR_FORCE !== undefined && env.CLICOLOR_FORCE !== '' && env.CLICOLOR_FORCE !== '0') return true;
  if (env.TERM === 'dumb' || env.CLICOLOR === '0') return false;
  return Boolean(stream.isTTY);
}

/** Columns `s` takes once written (escape codes and controls take none). */
export function visibleLength(s: string): number {
  return [...sanitizeText(s)].length;
}

export interface Column {
  header: string;
  align?: 'left' | 'right';
}

/** A plain aligned table; cells may contain colour codes. */
export function renderTable(columns: Column[], rows: string[][], styles: Styles): string {
  const widths = columns.map((c, i) => Math.max(visibleLength(c.header), ...rows.map((r) => visibleLength(r[i] ?? ''))));
  const pad = (text: string, i: number) => {
    const gap = ' '.repeat(Math.max(0, (widths[i] ?? 0) - visibleLength(text)));
    return columns[i]?.align === 'right' ? gap + text : text + gap;
  };
  const lines = [columns.map((c, i) => styles.bold(pad(c.header, i))).join('  ').trimEnd()];
  for (const row of rows) lines.push(columns.map((_, i) => pad(row[i] ?? '', i)).join('  ').trimEnd());
  return `${lines.join('\n')}\n`;
}

/** Key/value block: `label  value` lines with aligned values. */
export function renderPairs(pairs: Array<[string, string]>, styles: Styles): string {
  const width = Math.max(0, ...pairs.map(([k]) => visibleLength(k)));
  return `${pairs.map(([k, v]) => `${styles.dim(k.padEnd(width))}  ${v}`).join('\n')}\n`;
}

export interface Spinner {
  update(text: string): void;
  stop(final?: string): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export class Output {
  readonly mode: OutputMode;
  /** Styles for stdout (plain in json mode). */
  readonly s: Styles;
  /** Styles for stderr. */
  readonly e: Styles;
  #emitted = false;
  readonly #stdout: CliWriter;
  readonly #stderr: CliWriter;
  readonly #spinnerAllowed: boolean;
  readonly #stdoutColor: boolean;
  readonly #stderrColor: boolean;

  constructor(options: {
    mode: OutputMode;
    stdoutColor: boolean;
    stderrColor: boolean;
    spinner: boolean;
    stdout: CliWriter;
    stderr: CliWriter;
  }) {
    this.mode = options.mode;
    this.#stdoutColor = options.mode === 'human' && options.stdoutColor;
    this.#stderrColor = options.stderrColor;
    this.s = makeStyles(this.#stdoutColor);
    this.e = makeStyles(this.#stderrColor);
    this.#stdout = options.stdout;
    this.#stderr = options.stderr;
    this.#spinnerAllowed = options.spinner;
  }

  /** Human text for stdout: controls and foreign escapes removed, our colours kept. */
  #out(text: string): void {
    this.#stdout.write(sanitizeText(text.endsWith('\n') ? text : `${text}\n`, { keepStyles: this.#stdoutColor }));
  }

  /** Human text for stderr, the same way. */
  #err(text: string): void {
    this.#stderr.write(sanitizeText(`${text}\n`, { keepStyles: this.#stderrColor }));
  }

  get json(): boolean {
    return this.mode === 'json';
  }

  /** Whether the command's result has been written (json mode allows exactly one). */
  get emitted(): boolean {
    return this.#emitted;
  }

  /**
   * The command's result: in json mode `data` as one JSON document; in human mode whatever
   * `human` renders (or `data` as indented JSON when no renderer is given).
   */
  result(data: unknown, human?: () => string): void {
    if (this.json) {
      if (this.#emitted) throw new Error('internal: a second JSON document in one run');
      this.#emitted = true;
      this.#stdout.write(`${safeJson(data, 2)}\n`);
      return;
    }
    this.#emitted = true;
    const text = human ? human() : `${safeJson(data, 2)}\n`;
    if (text) this.#out(text);
  }

  /** One JSON document per line (streaming commands in json mode). */
  line(data: unknown): void {
    this.#stdout.write(`${safeJson(data)}\n`);
  }

  /** Human text on stdout (only in human mode; json mode keeps stdout for the document). */
  print(text: string): void {
    if (this.json) return;
    this.#out(text);
  }

  /** Progress and notes for people: stderr, human mode only. */
  info(text: string): void {
    if (this.json) return;
    this.#err(text);
  }

  /** Warnings: stderr, both modes. */
  warn(text: string): void {
    this.#err(`${this.e.yellow('warning')} ${text}`);
  }

  /** A diagnostics line on stderr (verbose log, error reports), sanitised like all human text. */
  diag(text: string): void {
    this.#err(text);
  }

  /** One JSON document on stderr (the `{ error }` line of a failing json-mode run). */
  diagJson(data: unknown): void {
    this.#stderr.write(`${safeJson(data)}\n`);
  }

  /** Text that is ours alone and must reach stdout byte for byte (a completion script). */
  raw(text: string): void {
    this.#emitted = true;
    this.#stdout.write(text);
  }

  spinner(text: string): Spinner {
    if (!this.#spinnerAllowed || this.json) {
      return { update() {}, stop: (final) => final && this.info(final) };
    }
    const stream = this.#stderr;
    const keepStyles = this.#stderrColor;
    let frame = 0;
    let current = text;
    // The spinner's own \r and erase-line are written around the sanitised text, never through it.
    const draw = () => stream.write(`\r\u001b[2K${sanitizeText(`${this.e.cyan(FRAMES[frame++ % FRAMES.length] ?? '')} ${current}`, { keepStyles })}`);
    draw();
    const timer = setInterval(draw, 80);
    timer.unref();
    return {
      update(next) {
        current = next;
      },
      stop(final) {
        clearInterval(timer);
        stream.write('\r\u001b[2K');
        if (final) stream.write(`${sanitizeText(final, { keepStyles })}\n`);
      },
    };
  }
}
