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
 * own colours pass, told from a server's by a per-run mark), every JSON document through
 * `safeJson` (exact JSON, terminal-safe escapes).
 */
import { KNOWN_FIELDS } from './facts.js';
import type { CliWriter } from './runtime.js';
import { STYLE_MARK, safeJson, sanitizeText } from './sanitize.js';

export type OutputMode = 'json' | 'human';

export interface Styles {
  /**
   * The width tables on this stream must fit (a terminal's columns); undefined: any width
   * (piped, `--wide`, or stderr). Set by `Output` on its stdout styles.
   */
  readonly width?: number | undefined;
  /** Called when a table had to truncate cells to fit `width` (Output hints at `--wide`). */
  readonly truncated?: (() => void) | undefined;
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  magenta(s: string): string;
}

const ANSI: Record<Exclude<keyof Styles, 'width' | 'truncated'>, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
  magenta: [35, 39],
};

export function makeStyles(enabled: boolean, layout: { width?: number | undefined; truncated?: (() => void) | undefined } = {}): Styles {
  const entries = Object.entries(ANSI).map(([name, [open, close]]) => [
    name,
    // Marked as ours (STYLE_MARK), so the writer can tell them from the same codes in server text.
    enabled ? (s: string) => `${STYLE_MARK}\u001b[${open}m${s}${STYLE_MARK}\u001b[${close}m` : (s: string) => s,
  ]);
  return { ...(Object.fromEntries(entries) as unknown as Styles), width: layout.width, truncated: layout.truncated };
}

/** The same styles for text indented by `by` columns (a table inside an indented block). */
export function narrower(s: Styles, by: number): Styles {
  return s.width === undefined ? s : { ...s, width: Math.max(20, s.width - by) };
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
  /**
   * How a cell is cut when the table must fit the terminal: `end` (default: `Energy for 1…`),
   * `middle` (ids, addresses, hashes: `TJCnKs…6sxMW`, both ends stay recognisable) or `none`
   * (numbers, statuses: never cut).
   */
  truncate?: 'end' | 'middle' | 'none';
  /** Narrowest the column is cut to (default 8, or the header's width if less). */
  min?: number;
  /** Which columns give way first: higher first (default 1; ids 0, the last to shrink). */
  shrink?: number;
  /**
   * A column that is left out, rather than cut, when the table is wider than the terminal: the
   * highest `drop` goes first, before any cell is cut (ids and times stay whole). `--wide` and
   * piped output keep every column; a dim line under the table names what was left out.
   */
  drop?: number;
}

const GAP = 2;
// Our own SGR codes (makeStyles, each after its mark), at the ends of a cell.
const EDGE_STYLES = new RegExp(`^((?:(?:${STYLE_MARK})?\u001b\\[\\d+m)*)([\\s\\S]*?)((?:(?:${STYLE_MARK})?\u001b\\[\\d+m)*)$`);
// eslint-disable-next-line no-control-regex
const ANY_STYLE = /\u001b\[\d+m/g;

/**
 * `text` cut to `width` visible columns with an ellipsis: at the end, or in the middle (ids).
 * Colour codes around the cell survive; inner ones are dropped when the text is cut.
 */
export function truncateCell(text: string, width: number, mode: 'end' | 'middle' = 'end'): string {
  if (visibleLength(text) <= width) return text;
  const [, open = '', inner = '', close = ''] = EDGE_STYLES.exec(text) ?? [];
  const chars = [...sanitizeText(inner.replace(ANY_STYLE, ''))];
  if (width <= 1) return `${open}…${close}`;
  let cut: string;
  if (mode === 'middle' && width >= 5) {
    const head = Math.ceil((width - 1) / 2);
    const tail = width - 1 - head;
    cut = `${chars.slice(0, head).join('')}…${tail ? chars.slice(-tail).join('') : ''}`;
  } else {
    cut = `${chars.slice(0, width - 1).join('').trimEnd()}…`;
  }
  return `${open}${cut}${close}`;
}

/**
 * The widths that fit `limit` columns (gaps included): the columns that give way first
 * (highest `shrink`) are narrowed first, widest first, never below their minimum. Returns the
 * natural widths when they fit or when nothing can give way.
 */
export function fitWidths(columns: Column[], natural: number[], limit: number | undefined): { widths: number[]; cut: boolean } {
  const widths = [...natural];
  if (limit === undefined) return { widths, cut: false };
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP * Math.max(0, widths.length - 1);
  let excess = total() - limit;
  if (excess <= 0) return { widths, cut: false };
  const floor = columns.map((c, i) => (c.truncate === 'none' ? (natural[i] ?? 0) : Math.min(natural[i] ?? 0, c.min ?? 8)));
  const levels = [...new Set(columns.map((c) => c.shrink ?? 1))].sort((a, b) => b - a);
  let cut = false;
  for (const level of levels) {
    if (excess <= 0) break;
    const members = columns.map((c, i) => ((c.shrink ?? 1) === level && c.truncate !== 'none' ? i : -1)).filter((i) => i >= 0);
    // Narrow the widest member by one column at a time (bounded by the excess).
    for (let guard = 0; excess > 0 && guard < 10_000; guard++) {
      let widest = -1;
      for (const i of members) if ((widths[i] ?? 0) > (floor[i] ?? 0) && (widest < 0 || (widths[i] ?? 0) > (widths[widest] ?? 0))) widest = i;
      if (widest < 0) break;
      widths[widest] = (widths[widest] ?? 0) - 1;
      excess--;
      cut = true;
    }
  }
  return { widths, cut };
}

/**
 * An aligned table; cells may contain colour codes. On a terminal (`styles.width`) it fits the
 * width: cells are cut with an ellipsis (`--wide` shows them whole).
 */
export function renderTable(allColumns: Column[], allRows: string[][], styles: Styles): string {
  const keep = droppedToFit(allColumns, allRows, styles.width);
  const columns = allColumns.filter((_, i) => keep[i]);
  const rows = allRows.map((r) => r.filter((_, i) => keep[i]));
  const dropped = allColumns.filter((_, i) => !keep[i]).map((c) => c.header);
  if (dropped.length) styles.truncated?.();
  const natural = columns.map((c, i) => Math.max(visibleLength(c.header), ...rows.map((r) => visibleLength(r[i] ?? ''))));
  const { widths, cut } = fitWidths(columns, natural, styles.width);
  if (cut) styles.truncated?.();
  const cell = (text: string, i: number) => {
    const width = widths[i] ?? 0;
    const column = columns[i];
    const fitted = cut && visibleLength(text) > width ? truncateCell(text, width, column?.truncate === 'middle' ? 'middle' : 'end') : text;
    const gap = ' '.repeat(Math.max(0, width - visibleLength(fitted)));
    return column?.align === 'right' ? gap + fitted : fitted + gap;
  };
  const lines = [columns.map((c, i) => styles.bold(cell(c.header, i))).join(' '.repeat(GAP)).trimEnd()];
  for (const row of rows) lines.push(columns.map((_, i) => cell(row[i] ?? '', i)).join(' '.repeat(GAP)).trimEnd());
  if (dropped.length) lines.push(styles.dim(`(${dropped.join(', ')} left out to fit ${styles.width} columns: --wide shows all)`));
  return `${lines.join('\n')}\n`;
}

/**
 * Which columns stay (true) so the table fits `limit`: while the natural widths are too wide,
 * the column with the highest `drop` is left out. Columns without `drop` always stay.
 */
export function droppedToFit(columns: Column[], rows: string[][], limit: number | undefined): boolean[] {
  const keep = columns.map(() => true);
  if (limit === undefined) return keep;
  const natural = columns.map((c, i) => Math.max(visibleLength(c.header), ...rows.map((r) => visibleLength(r[i] ?? ''))));
  const total = () => natural.reduce((sum, w, i) => (keep[i] ? sum + w : sum), 0) + GAP * Math.max(0, keep.filter(Boolean).length - 1);
  const order = columns.map((c, i) => ({ i, drop: c.drop })).filter((c) => c.drop !== undefined).sort((a, b) => (b.drop ?? 0) - (a.drop ?? 0));
  for (const { i } of order) {
    if (total() <= limit) break;
    keep[i] = false;
  }
  return keep;
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

/** What `--json FIELDS` and `--query EXPR` do to a JSON result (see `shapeJson`). */
export interface JsonShaping {
  /** Top-level fields to keep (`--json id,status`), of an object or of each object in an array. */
  fields?: string[] | undefined;
  /** A compiled `--query` (JMESPath): the result is what it selects. */
  query?: ((data: unknown) => unknown) | undefined;
}

/**
 * The fields one object of a result may have, from its schema: `--json FIELDS` is checked
 * against these, not against the rows (so an unknown field fails on an empty list too).
 */
export interface OutputSchema {
  /** Top-level field names of one object (of the result, or of each item of a list). */
  fields: readonly string[];
}

/** The {@link OutputSchema} of a zod object schema (its `shape`'s keys), or of a list of names. */
export function outputSchema(of: { shape: Record<string, unknown> } | readonly string[]): OutputSchema {
  return { fields: Array.isArray(of) ? of : Object.keys((of as { shape: Record<string, unknown> }).shape) };
}

/**
 * `data` with only `fields` (of the object, or of each object of an array), then `query`.
 * A requested field must be in the result's `schema` (or, without one, in the objects it holds;
 * for an empty list without one, a field name of the API: {@link KNOWN_FIELDS}); unknown ones
 * are reported through `unknown` (the run fails naming the available ones).
 */
export function shapeJson(data: unknown, shaping: JsonShaping, unknown?: (names: string[], available: string[]) => void, schema?: OutputSchema): unknown {
  let value = data;
  const fields = shaping.fields;
  if (fields?.length) {
    const objects = (Array.isArray(value) ? value : [value]).filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v));
    // Lenient on what we receive: a field the server added beyond the schema may be kept too.
    const seen = objects.flatMap((o) => Object.keys(o));
    const available = schema ? [...new Set([...schema.fields, ...seen])] : objects.length ? [...new Set(seen)] : [...KNOWN_FIELDS].sort();
    const missing = fields.filter((f) => !available.includes(f));
    if (missing.length) unknown?.(missing, available);
    const pick = (v: unknown) =>
      v !== null && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(fields.filter((f) => Object.hasOwn(v, f)).map((f) => [f, (v as Record<string, unknown>)[f]]))
        : v;
    value = Array.isArray(value) ? value.map(pick) : pick(value);
  }
  if (shaping.query) value = shaping.query(value);
  return value;
}

export class Output {
  readonly mode: OutputMode;
  /** Styles for stdout (plain in json mode); `s.width` is the terminal's when tables must fit it. */
  readonly s: Styles;
  /** Styles for stderr. */
  readonly e: Styles;
  #emitted = false;
  #truncated = false;
  readonly #stdout: CliWriter;
  readonly #stderr: CliWriter;
  readonly #spinnerAllowed: boolean;
  readonly #stdoutColor: boolean;
  readonly #stderrColor: boolean;
  readonly #shaping: JsonShaping;
  readonly #unknownFields: ((missing: string[], available: string[]) => never) | undefined;

  constructor(options: {
    mode: OutputMode;
    stdoutColor: boolean;
    stderrColor: boolean;
    spinner: boolean;
    stdout: CliWriter;
    stderr: CliWriter;
    /** Columns tables must fit on stdout (human mode on a terminal, unless --wide). */
    width?: number | undefined;
    shaping?: JsonShaping | undefined;
    /** `--json FIELDS` named fields the output lacks: throw the run's usage error (without it, a warning). */
    unknownFields?: ((missing: string[], available: string[]) => never) | undefined;
  }) {
    this.#unknownFields = options.unknownFields;
    this.mode = options.mode;
    this.#stdoutColor = options.mode === 'human' && options.stdoutColor;
    this.#stderrColor = options.stderrColor;
    this.s = makeStyles(this.#stdoutColor, {
      width: options.mode === 'human' ? options.width : undefined,
      truncated: () => {
        this.#truncated = true;
      },
    });
    this.e = makeStyles(this.#stderrColor);
    this.#stdout = options.stdout;
    this.#stderr = options.stderr;
    this.#spinnerAllowed = options.spinner;
    this.#shaping = options.shaping ?? {};
  }

  /** Whether a table was cut to fit the terminal (the run then hints at `--wide`). */
  get truncated(): boolean {
    return this.#truncated;
  }

  /** Set the compiled `--query` (it is loaded after the output is made). */
  setQuery(query: (data: unknown) => unknown): void {
    this.#shaping.query = query;
  }

  /** A JSON result as written: fields kept, query applied; a string the query picked is written bare (like `jq -r`). */
  #document(data: unknown, indent: number | undefined, schema?: OutputSchema): string {
    const shaped = this.#shaping.fields || this.#shaping.query
      ? shapeJson(data, this.#shaping, (missing, available) => {
          if (this.#unknownFields) this.#unknownFields(missing, available);
          else this.warn(`no field ${missing.join(', ')} in this output; available: ${available.join(', ')}`);
        }, schema)
      : data;
    if (this.#shaping.query && typeof shaped === 'string') return sanitizeText(shaped);
    return safeJson(shaped === undefined ? null : shaped, indent);
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
   * `human` renders (or `data` as indented JSON when no renderer is given). `schema` names the
   * fields one object of it may have (`--json FIELDS` is checked against it; give it for lists).
   */
  result(data: unknown, human?: () => string, schema?: OutputSchema): void {
    if (this.json) {
      if (this.#emitted) throw new Error('internal: a second JSON document in one run');
      this.#emitted = true;
      this.#stdout.write(`${this.#document(data, 2, schema)}\n`);
      return;
    }
    this.#emitted = true;
    const text = human ? human() : `${safeJson(data, 2)}\n`;
    if (text) this.#out(text);
  }

  /** One JSON document per line (streaming commands in json mode). */
  line(data: unknown): void {
    this.#stdout.write(`${this.#document(data, undefined)}\n`);
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

  /** Text for stdout in both modes (`api -i` headers), sanitised like all text people may see. */
  plain(text: string): void {
    this.#stdout.write(sanitizeText(text));
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
