/**
 * The rules journal: every decision, written before and after its network step. Limits are
 * counted from it (see `limits.ts`), so a restart resumes with the spend it had.
 *
 * Two stores: {@link MemoryJournal} (tests, plans) and {@link FileJournal}, JSON lines appended
 * and fsync'd one entry at a time, which several runners may share (each counts the others'
 * spend); a torn line from a crash is skipped.
 * @module
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readSync, statSync, writeSync } from 'node:fs';
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
  /** Which runner wrote it (runners may share one journal file). */
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
 * A JSON-lines file, which several runners may share (on one host, or a file system with POSIX
 * append): each append is one `O_APPEND` write of a whole line, fsync'd before it resolves, and
 * `entries()` first reads what any writer appended since (a size check when nothing changed).
 * The file is the only source: a runner's own entries come back from it too, so two runners on
 * one journal count each other's spend against the same limits. Appends of one instance are
 * serialised; a line torn by a writer's crash is closed by the next append and skipped.
 */
export class FileJournal implements Journal {
  readonly path: string;
  readonly #entries: JournalEntry[] = [];
  /** Bytes of the file read into `#entries` (whole lines only). */
  #offset = 0;
  /** Whether the file ends in an unterminated line (a torn write, or one being written). */
  #torn = false;
  #fd: number | undefined;
  #tail: Promise<void> = Promise.resolve();

  constructor(path: string) {
    this.path = path;
    this.#refresh();
  }

  /** Read what was appended since the last read (by anyone): whole lines; a partial one waits. */
  #refresh(): void {
    let size: number;
    try {
      size = statSync(this.path).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    if (size <= this.#offset) return;
    const buffer = Buffer.alloc(size - this.#offset);
    const fd = openSync(this.path, 'r');
    let read = 0;
    try {
      while (read < buffer.length) {
        const n = readSync(fd, buffer, read, buffer.length - read, this.#offset + read);
        if (n === 0) break;
        read += n;
      }
    } finally {
      closeSync(fd);
    }
    const end = buffer.lastIndexOf(0x0a, read - 1);
    this.#torn = end !== read - 1;
    if (end < 0) return;
    this.#entries.push(...parseJournal(buffer.subarray(0, end + 1).toString('utf8')));
    this.#offset += end + 1;
  }

  append(entry: JournalEntry): Promise<void> {
    const run = this.#tail.then(() => {
      if (this.#fd === undefined) {
        mkdirSync(dirname(this.path), { recursive: true });
        this.#fd = openSync(this.path, 'a', 0o600);
      }
      this.#refresh();
      // A torn last line must not glue onto this entry.
      writeSync(this.#fd, `${this.#torn ? '\n' : ''}${JSON.stringify(entry)}\n`);
      fsyncSync(this.#fd);
      this.#refresh();
    });
    this.#tail = run.catch(() => {});
    return run;
  }

  /** Every entry of the file, oldest first, including what other runners appended since the last call. */
  entries(): readonly JournalEntry[] {
    this.#refresh();
    return this.#entries;
  }

  async close(): Promise<void> {
    await this.#tail;
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }
}
