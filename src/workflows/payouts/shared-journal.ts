/**
 * A payout journal that several workers (processes, hosts) share on the PostgreSQL store: no
 * worker holds it; each row is claimed by one worker at a time (`src/store/postgres-claims.ts`),
 * and every entry about a row (its transfer record, broadcast, deletion, final state) is written
 * only while that worker's claim on the row is current: a worker whose lease passed has its late
 * write refused (JOURNAL_FENCED), and a row's final entry marks it done in the same transaction.
 * So a row's claim is what makes it signed once: its worker signs after reading the journal again
 * and stores the record (fenced by the claim, in the write's own transaction) before the
 * broadcast; a worker whose claim passed cannot store its signature, so never sends it, and the
 * row's next worker reads the record first. Workers sign their rows side by side, not in turn.
 * The batch's rental is placed once, by whichever worker comes first, inside the journal's
 * exclusive section (an advisory lock across hosts), as is any signing of a row not claimed.
 * @module
 */
import type { PostgresJournal, PostgresStore } from '../../store/postgres.js';
import type { ClaimedWrite, RowClaims } from '../../store/postgres-claims.js';
import { PayoutLedger, type PayoutJournalEntry } from './journal.js';

/** A payout ledger (`PayoutLedger`) whose rows are claimed (see the module comment). */
export class SharedPayoutLedger extends PayoutLedger {
  readonly claims: RowClaims;
  readonly #owned: PostgresStore | undefined;

  /** The ledger over `journal` with `claims` on its rows; `owned`: a store to close with it. */
  constructor(journal: PostgresJournal, claims: RowClaims, owned?: PostgresStore) {
    super(journal);
    this.claims = claims;
    this.#owned = owned;
  }

  /**
   * A row this worker holds the claim on runs without the journal's lock (the claim fences its
   * record, see the module comment); anything else (the batch's rental, a top-up: keys whose
   * tail begins with `:`, never a row's id) inside it.
   */
  override exclusive<T>(key: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const batch = this.index.batch?.key;
    const row = batch && key.startsWith(`${batch}:`) ? key.slice(batch.length + 1) : undefined;
    return row !== undefined && this.claims.holds(row) ? fn() : super.exclusive(key, fn, signal);
  }

  /** A no-op: a shared journal has no single holder (rows are claimed instead). */
  override async hold(): Promise<void> {
    await this.sync();
  }

  protected override write(entries: readonly PayoutJournalEntry[]): Promise<void> {
    const batch = this.index.batch?.key;
    const rows = new Map<string, boolean>();
    const about = (id: string, done: boolean) => rows.set(id, (rows.get(id) ?? false) || done);
    const rowOfKey = (key: string) => (batch && key.startsWith(`${batch}:`) ? key.slice(batch.length + 1) : undefined);
    for (const e of entries) {
      if (e.type === 'confirmed' || e.type === 'failed') about(e.id, true);
      else if (e.type === 'record' || e.type === 'broadcast' || e.type === 'delete') {
        const id = rowOfKey(e.type === 'record' ? e.record.key : e.key);
        if (id !== undefined) about(id, false);
      }
    }
    const fenced: ClaimedWrite[] = [...rows].map(([id, done]) => ({ id, done }));
    return this.claims.append(entries, fenced);
  }

  /** Release the row claims, then the journal (and the store it opened, if it opened one). */
  override async close(): Promise<void> {
    await this.claims.close();
    await super.close();
    await this.#owned?.close();
  }
}

/**
 * The payout journal `name` on `store` (a {@link PostgresStore} or its `postgres://` URL), shared
 * by every worker that opens it: pass it as `sendMany`'s `journal` in each worker. `leaseMs`: how
 * long a worker's claim on a row lasts without renewal (the store's lease by default).
 */
export async function sharedPayoutJournal(
  store: PostgresStore | string,
  name: string,
  options: { leaseMs?: number | undefined } = {},
): Promise<SharedPayoutLedger> {
  const { postgresStore } = await import('../../store/postgres.js');
  const { RowClaims } = await import('../../store/postgres-claims.js');
  const opened = typeof store === 'string' ? postgresStore(store, { leaseMs: options.leaseMs }) : store;
  const journal = (await opened.journal(name)) as PostgresJournal;
  const ledger = new SharedPayoutLedger(journal, new RowClaims(journal, options), typeof store === 'string' ? opened : undefined);
  await ledger.sync();
  return ledger;
}
