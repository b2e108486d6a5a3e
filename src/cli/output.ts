/**
 * Everything the CLI writes. Two modes:
 * - human (stdout is a TTY, or --no-json): tables, colour (unless NO_COLOR / --no-color /
 *   TERM=dumb), a spinner on stderr during waits;
 * - json (--json, or stdout is not a TTY): exactly one JSON document on stdout, nothing else
 *   there. Streaming commands (`webhooks listen`) write one JSON document per line.
 * Diagnostics (progress, warnings, errors) always go to stderr.
 *
 * Spinners and progress bars share one status line (`status-line.ts`): every other line is
 * written above it, and it stays off the screen while a prompt waits (`hold()`). A retry's wait
 * (`retrying()`) is said there, or as a `retrying` event where the command streams NDJSON.
 *
 * Terminal safety lives here, once: every human line is written through `sanitizeText` (server
 * text cannot move the cursor, retitle the window, clear the screen or reorder text; only our
 * own colours pass, told from a server's by a per-run mark), every JSON document through
 * `safeJson` (exact JSON, terminal-safe escapes). Colours are in `styles.ts`, tables in
 * `tables.ts`.
 */
import type { RetryEvent } from '../http/attempts.js';
import { KNOWN_FIELDS } from './facts.js';
import type { CliWriter } from './runtime.js';
import { safeJson, sanitizeText } from './sanitize.js';
import { type Spinner, StatusLine } from './status-line.js';
import { makeStyles, type Styles } from './styles.js';

// The table renderers and styles, where the x402 and webhooks commands take them from.
export type { Styles } from './styles.js';
export { renderPairs, renderTable } from './tables.js';

/** `json`: one document on stdout; `human`: tables and text for people. */
export type OutputMode = 'json' | 'human';

export type { Spinner } from './status-line.js';

/** Most `retrying` events kept while a JSON run has not yet shown whether it streams. */
const MAX_HELD_EVENTS = 50;

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
    const objects = (Array.isArray(value) ? value : [value]).filter(
      (v): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v),
    );
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
  readonly #status: StatusLine;
  /** NDJSON lines written so far (the run streams once it wrote one). */
  #lines = 0;
  /** `retrying` events of a JSON run that has written neither its result nor a line yet. */
  #heldEvents: unknown[] = [];

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
    this.#status = new StatusLine({ stderr: this.#stderr, styles: this.e, keepStyles: this.#stderrColor });
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
    const shaped =
      this.#shaping.fields || this.#shaping.query
        ? shapeJson(
            data,
            this.#shaping,
            (missing, available) => {
              if (this.#unknownFields) this.#unknownFields(missing, available);
              else this.warn(`no field ${missing.join(', ')} in this output; available: ${available.join(', ')}`);
            },
            schema,
          )
        : data;
    if (this.#shaping.query && typeof shaped === 'string') return sanitizeText(shaped);
    return safeJson(shaped === undefined ? null : shaped, indent);
  }

  /** Human text for stdout: controls and foreign escapes removed, our colours kept. */
  #out(text: string): void {
    this.#status.above(() => this.#stdout.write(sanitizeText(text.endsWith('\n') ? text : `${text}\n`, { keepStyles: this.#stdoutColor })));
  }

  /** Human text for stderr, the same way. */
  #err(text: string): void {
    this.#status.above(() => this.#stderr.write(sanitizeText(`${text}\n`, { keepStyles: this.#stderrColor })));
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
      this.#heldEvents = [];
      this.#stdout.write(`${this.#document(data, 2, schema)}\n`);
      return;
    }
    this.#emitted = true;
    const text = human ? human() : `${safeJson(data, 2)}\n`;
    if (text) this.#out(text);
  }

  /** One JSON document per line (streaming commands in json mode). */
  line(data: unknown): void {
    if (this.#lines++ === 0 && this.#heldEvents.length) {
      for (const event of this.#heldEvents) this.#stdout.write(`${safeJson(event)}\n`);
      this.#heldEvents = [];
    }
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
    this.#status.above(() => this.#stderr.write(`${safeJson(data)}\n`));
  }

  /** Text for stdout in both modes (`api -i` headers), sanitised like all text people may see. */
  plain(text: string): void {
    this.#status.above(() => this.#stdout.write(sanitizeText(text)));
  }

  /** Text that is ours alone and must reach stdout byte for byte (a completion script). */
  raw(text: string): void {
    this.#emitted = true;
    this.#stdout.write(text);
  }

  /**
   * A spinner (or progress line) on stderr: the run's status line, taking it from any spinner
   * before. In JSON mode, or off a terminal, nothing draws and `stop(final)` prints `final` as a note.
   */
  spinner(text: string): Spinner {
    if (!this.#spinnerAllowed || this.json) {
      return { update() {}, stop: (final) => final && this.info(final) };
    }
    return this.#status.spinner(text, (final) => this.#err(final));
  }

  /**
   * Takes the status line off the screen until the returned function is called: no spinner or
   * progress line draws while a prompt waits (the prompts service holds it for every question).
   */
  hold(): () => void {
    return this.#status.hold();
  }

  /** Whether a spinner or progress line is on the screen now (false while held). */
  get statusShown(): boolean {
    return this.#status.shown;
  }

  /**
   * A retry is waiting (from the SDK's `onRetry`): for people, on the status line counting down
   * (a line on stderr when no spinner runs); in JSON mode, a `retrying` event where the command
   * streams NDJSON (held until its first line, dropped if it writes one document instead).
   */
  retrying(event: RetryEvent): void {
    if (this.json) {
      const line = {
        event: 'retrying',
        host: event.host,
        status: event.status ?? null,
        code: event.code,
        request: event.label,
        retry: event.retry,
        max_retries: event.maxRetries,
        delay_ms: event.delayMs,
        retry_after: event.retryAfter,
      };
      if (this.#lines > 0) this.#stdout.write(`${safeJson(line)}\n`);
      else if (!this.#emitted && this.#heldEvents.length < MAX_HELD_EVENTS) this.#heldEvents.push(line);
      return;
    }
    const text = (remainingMs: number) => `${retryReason(event)}, retrying in ${seconds(remainingMs)} (retry ${event.retry}/${event.maxRetries})`;
    if (!this.#status.note(text, event.delayMs)) this.info(this.e.yellow(text(event.delayMs)));
  }
}

/** Why a request waits: `rate limited by api.example.com (429)`, `service unavailable at … (503)`, … */
export function retryReason(event: Pick<RetryEvent, 'host' | 'status' | 'code'>): string {
  if (event.status === 429) return `rate limited by ${event.host} (429)`;
  if (event.status === 503) return `service unavailable at ${event.host} (503)`;
  if (event.status !== undefined) return `${event.host} answered ${event.status} (${event.code})`;
  return `no answer from ${event.host} (${event.code})`;
}

/** A wait for people: `0.4 s` under a second, else whole seconds rounded up (`3 s`). */
function seconds(ms: number): string {
  if (ms < 1_000) return `${(Math.max(ms, 0) / 1_000).toFixed(1)} s`;
  return `${Math.ceil(ms / 1_000)} s`;
}
