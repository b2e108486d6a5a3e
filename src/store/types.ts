/**
 * The one journal primitive's shapes: a {@link Journal} is an append-only list of records that
 * any number of readers and writers may share, with one lock; a {@link Store} opens journals by
 * name. The transfer records, the payout journals, the rules journals and the MCP effects are
 * views over journals (each keeps its own index, folding in records as they are read), so a
 * second backend (PostgreSQL) implements these two interfaces and nothing else.
 * Types only.
 * @module
 */

/** One record of a journal: a JSON object (wire names snake_case, times in ms since the epoch). */
export type JournalRecord = { readonly [field: string]: unknown };

/** What a journal reports that is not an error (a torn last line dropped after a crash). */
export interface JournalNotice {
  journal: string;
  message: string;
  /** The 1-based line that was dropped, for a file. */
  line?: number | undefined;
}

/**
 * An append-only list of records, shared by every reader and writer of the same name. Writes
 * happen under the journal's lock ({@link Journal.exclusive} or {@link Journal.hold}); a record
 * appended resolves only once it is durable (a file journal fsyncs).
 *
 * Damage: a last record cut short by a crash is dropped and reported (`onNotice`); damage
 * anywhere else refuses to go on (`JOURNAL_CORRUPT` naming the line): nothing is guessed.
 */
export interface Journal<R extends JournalRecord = JournalRecord> {
  /** For messages: the file's path, or the store's name for the journal (never credentials). */
  readonly name: string;
  /** The records appended since this instance last read, by itself or anyone else, oldest first. */
  read(): Promise<R[]>;
  /** Append `records` (in order, durably) and return once they are. Needs the lock. */
  append(records: readonly R[]): Promise<void>;
  /**
   * Run `fn` holding the journal's lock across processes: no other holder appends meanwhile, so
   * what `read()` returns inside is everything there is. Re-entrant within the holder.
   */
  exclusive<T>(fn: () => Promise<T>, options?: { signal?: AbortSignal | undefined; waitMs?: number | undefined }): Promise<T>;
  /** Take the lock until {@link close} (one runner per journal), or refuse with JOURNAL_LOCKED at once. */
  hold(): Promise<void>;
  /** Bytes (or records) written so far, for reports. */
  size(): number;
  /** Release the lock and what the journal holds open. */
  close(): Promise<void>;
}

/** Where journals live: in memory, in files (one per journal), or a database. */
export interface Store {
  /** `memory`, `file`, `postgres`. */
  readonly kind: string;
  /** Where, for messages (a folder, a database without its credentials). */
  readonly where: string;
  /** Open the journal `name` (created on its first append). Names are `[A-Za-z0-9._:-]`, at most 200 characters. */
  journal<R extends JournalRecord = JournalRecord>(name: string): Promise<Journal<R>>;
  /** Release what the store holds open. */
  close(): Promise<void>;
}

/** Options every store takes. */
export interface StoreOptions {
  /** Told of what a journal dropped on reading (a torn last line). @default a warning on stderr in Node */
  onNotice?: ((notice: JournalNotice) => void) | undefined;
}
