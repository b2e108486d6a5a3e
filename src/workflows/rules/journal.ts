/**
 * The rules journal: every decision, written before and after its network step. Limits are
 * counted from it (see `limits.ts`), so a restart resumes with the spend it had.
 *
 * Two stores: {@link MemoryJournal} (tests, plans) and {@link FileJournal}, JSON lines appended
 * and fsync'd one entry at a time, read back on open (a torn last line from a crash is skipped).
 * @module
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/** What a journal line records. */
export type JournalKind =
  /** The trigger fired for a window. */
  | 'trigger'
  /** About to act (written before the network step), with what it may spend (`reserved_sun`). */
  | 'intent'
  /** The action is done: order id(s) and what it cost. */
  | 'done'
  /** The action did not happen (a definite refusal): nothing was spent. */
  | 'failed'
  /** The outcome is unknown (no answer): counts as spent (`reserved_sun`) until known. */
  | 'unknown'
  /** The trigger fired but the rule did not act, and why. */
  | 'suppressed'
  /** A notification was sent (or failed to be). */
  | 'notified'
  /** The rule reached max_total_spend or expires_at and acts no more. */
  | 'retired';

/** One line of the journal. Wire names are snake_case; money in SUN. */
export interface JournalEntry {
  /** When, ms since the epoch (the runner's clock). */
  ts: number;
  kind: JournalKind;
  rule: string;
  /** The trigger window (e.g. `energy:2026-11-28T10:10Z`, `cron:…`, `renew:<order id>`). */
  window?: string | undefined;
  /** The Idempotency-Key the action used. */
  key?: string | undefined;
  /** Most the action may cost (its cap), SUN. */
  reserved_sun?: number | undefined;
  /** What it cost, SUN. */
  cost_sun?: number | undefined;
  order_ids?: string[] | undefined;
  reason?: string | undefined;
  /** Which runner wrote it (two runners may share a journal directory, not a file). */
  runner?: string | undefined;
  /** Anything else worth keeping (what the trigger saw, the plan). */
  detail?: Record<string, unknown> | undefined;
}

/** Where a runner keeps its decisions. */
export interface Journal {
  /** Append one entry durably (a file journal fsyncs before resolving). */
  append(entry: JournalEntry): Promise<void>;
  /** Every entry, oldest first. */
  entries(): readonly JournalEntry[];
  close?(): Promise<void>;
}

/** A journal in memory (tests, `rules plan`). */
export class MemoryJournal implements Journal {
  readonly #entries: JournalEntry[] = [];
  constructor(initial: readonly JournalEntry[] = []) {
    this.#entries.push(...initial);
  }
  async append(entry: JournalEntry): Promise<void> {
    this.#entries.push(entry);
  }
  entries(): readonly JournalEntry[] {
    return this.#entries;
  }
}

/** Parse JSON-lines text; lines that are not a journal entry (a torn write) are skipped. */
export function parseJournal(text: string): JournalEntry[] {
  const out: JournalEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line) as JournalEntry;
      if (value && typeof value.ts === 'number' && typeof value.kind === 'string' && typeof value.rule === 'string') out.push(value);
    } catch {
      // A crash mid-write leaves at most one partial line: it recorded nothing that completed.
    }
  }
  return out;
}

/**
 * A JSON-lines file: read once on open, each append written and fsync'd before it resolves.
 * Appends are serialised, so lines never interleave.
 */
export class FileJournal implements Journal {
  readonly path: string;
  readonly #entries: JournalEntry[];
  #fd: number | undefined;
  #tail: Promise<void> = Promise.resolve();

  constructor(path: string) {
    this.path = path;
    let text = '';
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    this.#entries = parseJournal(text);
    // A torn last line must not glue onto the next entry.
    this.#needsNewline = text.length > 0 && !text.endsWith('\n');
  }
  #needsNewline: boolean;

  append(entry: JournalEntry): Promise<void> {
    const run = this.#tail.then(() => {
      if (this.#fd === undefined) {
        mkdirSync(dirname(this.path), { recursive: true });
        this.#fd = openSync(this.path, 'a', 0o600);
      }
      const line = `${this.#needsNewline ? '\n' : ''}${JSON.stringify(entry)}\n`;
      this.#needsNewline = false;
      writeSync(this.#fd, line);
      fsyncSync(this.#fd);
      this.#entries.push(entry);
    });
    this.#tail = run.catch(() => {});
    return run;
  }

  entries(): readonly JournalEntry[] {
    return this.#entries;
  }

  async close(): Promise<void> {
    await this.#tail;
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}
