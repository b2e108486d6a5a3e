/**
 * The transfer records as a view over one journal: `record` (a signed transaction kept with its
 * key), `broadcast` (its broadcast_at, written instead of the whole record again) and `delete`
 * (known dead: the key may sign anew), folded into an index as they are read, so a lookup reads
 * each entry once. The payout journal extends the same entries; {@link memoryTransferStore} and
 * {@link fileTransferStore} are this view over a memory or a file journal.
 * @module
 */
import { TrxRentError } from '../errors/index.js';
import type { Journal, JournalRecord, Store } from '../store/types.js';
import type { TransferRecord, TransferStore } from './identity.js';

/** The journal entries of transfer records. */
export type TransferEntry =
  | { type: 'record'; record: TransferRecord }
  /** The record of `key` got its broadcast_at. */
  | { type: 'broadcast'; key: string; tx_id: string; at: number }
  | { type: 'delete'; key: string; reason: string; tx_id?: string | undefined };

/** The records that the entries read so far imply, by key. */
export class TransferIndex {
  readonly #records = new Map<string, TransferRecord>();

  /** Fold one entry in (entries of other types are ignored). */
  apply(entry: JournalRecord): void {
    const e = entry as TransferEntry;
    if (e.type === 'record') this.#records.set(e.record.key, e.record);
    else if (e.type === 'broadcast') {
      const had = this.#records.get(e.key);
      if (had && had.tx_id === e.tx_id) this.#records.set(e.key, { ...had, broadcast_at: e.at });
    } else if (e.type === 'delete') {
      const had = this.#records.get(e.key);
      if (!had || e.tx_id === undefined || had.tx_id === e.tx_id) this.#records.delete(e.key);
    }
  }

  /** The record kept under `key` (a copy), or undefined. */
  get(key: string): TransferRecord | undefined {
    const found = this.#records.get(key);
    return found && structuredClone(found);
  }

  /** The entry that stores `record` over what is known: a short `broadcast` line when only broadcast_at changed. */
  entryFor(record: TransferRecord): TransferEntry {
    const had = this.#records.get(record.key);
    if (
      had &&
      had.tx_id === record.tx_id &&
      had.broadcast_at === undefined &&
      record.broadcast_at !== undefined &&
      JSON.stringify({ ...had, broadcast_at: record.broadcast_at }) === JSON.stringify(record)
    ) {
      return { type: 'broadcast', key: record.key, tx_id: record.tx_id, at: record.broadcast_at };
    }
    return { type: 'record', record: structuredClone(record) };
  }
}

/**
 * A {@link TransferStore} over `journal`: `get` first reads what any writer appended, `put` and
 * `delete` append, `exclusive` holds the journal's lock. `onEntry` sees every entry read (a view
 * that extends the entries, like the payout journal, folds its own types in there).
 */
export function journalTransferStore(journal: Journal, onEntry?: (entry: JournalRecord) => void): TransferStore & { sync(): Promise<void> } {
  const index = new TransferIndex();
  const sync = async () => {
    for (const entry of await journal.read()) {
      index.apply(entry);
      onEntry?.(entry);
    }
  };
  const write = async (entry: TransferEntry) => {
    await journal.append([entry]);
    await sync();
  };
  return {
    sync,
    async get(key) {
      await sync();
      return index.get(key);
    },
    async put(record) {
      await sync();
      await write(index.entryFor(record));
    },
    async delete(key) {
      await sync();
      const had = index.get(key);
      await write({ type: 'delete', key, reason: 'expired unconfirmed', tx_id: had?.tx_id });
    },
    exclusive: (_key, fn, signal) => journal.exclusive(fn, { signal }),
  };
}

/** A store opened on first use (its module loaded lazily, so the core stays small). */
function lazy(open: () => Promise<TransferStore>): TransferStore {
  let opened: Promise<TransferStore> | undefined;
  const view = () => (opened ??= open());
  return {
    get: async (key) => (await view()).get(key),
    put: async (record) => (await view()).put(record),
    delete: async (key) => (await view()).delete(key),
    exclusive: async (key, fn, signal) => (await view()).exclusive!(key, fn, signal),
  };
}

/**
 * The transfer records of `store` (its journal `journal`, `transfers` by default): a
 * {@link Store}, or a store's setting as `new TrxRent({ store })` takes it (`postgres://…`, a
 * folder, `memory`), opened on first use (the PostgreSQL store's module and `pg` load only then).
 */
export function storeTransfers(store: Store | string, journal = 'transfers'): TransferStore {
  if (typeof store === 'string') {
    if (store === '') throw new TrxRentError({ code: 'CONFIGURATION_ERROR', message: 'store must be a postgres:// URL, a folder or "memory"' });
    return lazy(async () => journalTransferStore(await (await (await import('../store/open.js')).openStore(store)).journal(journal)));
  }
  return lazy(async () => journalTransferStore(await store.journal(journal)));
}

/** Records in this process's memory (the default of `transfers.send`): a retry in the same process is safe. */
export function memoryTransferStore(): TransferStore {
  return lazy(async () => journalTransferStore(await (await import('../store/memory.js')).memoryStore().journal('transfers')));
}

/**
 * Records in the journal file `transfers.journal` of the private folder `dir` (Node only,
 * loaded lazily; the folder is made 0700, and a symlink or another user's folder is refused).
 * Processes sharing `dir` share the records and their lock: two processes with one key sign once.
 */
export function fileTransferStore(dir: string): TransferStore {
  if (typeof dir !== 'string' || dir === '') throw new TrxRentError({ code: 'CONFIGURATION_ERROR', message: 'fileTransferStore needs a directory' });
  return lazy(async () => journalTransferStore(await (await import('../store/file.js')).fileStore(dir).journal('transfers')));
}
