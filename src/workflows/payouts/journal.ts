/**
 * The payout journal: every step of a batch written down before it is taken, read back by
 * `resume`. An interface (append and read entries, plus the transfer identity's TransferStore
 * for the rows' signed transactions, keyed `<batch key>:<row id>`) with an in-memory
 * implementation here and a JSON-lines file in `file-journal.ts` (Node only, loaded lazily).
 * @module
 */
import type { TransferRecord, TransferStore } from './identity-types.js';

/** One line of the journal. Wire names snake_case; times are the run's clock, ms. */
export type JournalEntry =
  | { type: 'batch'; key: string; from: string; rows_hash: string; rows: number; margin_pct: number; at: number }
  | { type: 'estimated'; id: string; energy: number; bandwidth: number; holder: boolean }
  | { type: 'order'; key: string; state: 'placing' | 'filled' | 'failed'; resource: 'ENERGY' | 'BANDWIDTH'; amount: number; order_id?: string; cost_sun?: number; reason?: string; at: number }
  | { type: 'record'; record: TransferRecord }
  /** The record of `key` got its broadcast_at (written instead of the whole record again). */
  | { type: 'broadcast'; key: string; tx_id: string; at: number }
  | { type: 'delete'; key: string; reason: string }
  | { type: 'confirmed'; id: string; tx_id: string; block: number; energy_used: number; fee_sun: number; at: number }
  | { type: 'failed'; id: string; reason: string; tx_id?: string; at: number }
  | { type: 'run'; state: 'started' | 'stopped' | 'finished'; at: number };

/** Where a batch's journal lives. Every write is durable before its promise resolves. */
export interface PayoutJournal extends TransferStore {
  /** Everything written so far, oldest first (what a resume reads). */
  entries(): readonly JournalEntry[];
  /** Write one entry (durably, before the step it describes). */
  append(entry: JournalEntry): Promise<void>;
  /** Bytes written so far (0 for a memory journal). */
  size(): number;
  /** Release the journal (a file journal's lock). */
  close(): Promise<void>;
}

/**
 * The entries and the records they imply, kept in memory; a subclass makes `persist` durable.
 * `put` and `delete` of the TransferStore are journal entries too (`record`, `delete`), so one
 * file says everything about a batch.
 */
export class MemoryJournal implements PayoutJournal {
  readonly #entries: JournalEntry[] = [];
  readonly #records = new Map<string, TransferRecord>();

  constructor(initial: readonly JournalEntry[] = []) {
    for (const e of initial) this.#apply(e);
  }

  entries(): readonly JournalEntry[] {
    return this.#entries;
  }

  async append(entry: JournalEntry): Promise<void> {
    await this.persist(entry);
    this.#apply(entry);
  }

  /** Make `entry` durable (nothing to do in memory). */
  protected async persist(_entry: JournalEntry): Promise<void> {}

  size(): number {
    return 0;
  }

  async close(): Promise<void> {}

  async get(key: string): Promise<TransferRecord | undefined> {
    return this.#records.get(key);
  }

  async put(record: TransferRecord): Promise<void> {
    const had = this.#records.get(record.key);
    // Marking the broadcast is the common second write: a short line instead of the transaction again.
    if (had && had.tx_id === record.tx_id && had.broadcast_at === undefined && record.broadcast_at !== undefined && JSON.stringify({ ...had, broadcast_at: record.broadcast_at }) === JSON.stringify(record)) {
      await this.append({ type: 'broadcast', key: record.key, tx_id: record.tx_id, at: record.broadcast_at });
      return;
    }
    await this.append({ type: 'record', record });
  }

  async delete(key: string): Promise<void> {
    await this.append({ type: 'delete', key, reason: 'expired unconfirmed' });
  }

  #apply(entry: JournalEntry): void {
    this.#entries.push(entry);
    if (entry.type === 'record') this.#records.set(entry.record.key, entry.record);
    else if (entry.type === 'broadcast') {
      const had = this.#records.get(entry.key);
      if (had && had.tx_id === entry.tx_id) this.#records.set(entry.key, { ...had, broadcast_at: entry.at });
    }
    else if (entry.type === 'delete') this.#records.delete(entry.key);
  }
}

/** A journal in memory: for tests and for a batch that need not survive the process. */
export function memoryJournal(): PayoutJournal {
  return new MemoryJournal();
}
