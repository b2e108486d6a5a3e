/**
 * The payout journal: every step of a batch written down before it is taken, read back by
 * `resume`. A view over one journal of the store (`src/store`): the transfer records' entries
 * (`record`, `broadcast`, `delete`: the transfer protocol's store, keyed `<batch key>:<row id>`)
 * plus the batch's own, folded into an index as they are read, so a resume reads each row's
 * state once, however long the batch.
 * @module
 */
import { MemoryJournal as StoreMemoryJournal } from '../../store/memory.js';
import type { Journal, JournalRecord } from '../../store/types.js';
import { TransferIndex } from '../../tron/transfer-store.js';
import type { TransferRecord, TransferStore } from './identity-types.js';

/** Who the batch was confirmed with: the service (origin and account) it spends on. */
export interface BatchService {
  /** The account API's origin (`https://host:port`). */
  origin: string;
  /** A fingerprint of the API key (sha256, 16 hex): never the key. */
  account: string;
}

/** One line of the payout journal. Wire names snake_case; times are the run's clock, ms. */
export type PayoutJournalEntry =
  | { type: 'batch'; key: string; from: string; rows_hash: string; rows: number; margin_pct: number; service?: BatchService | undefined; at: number }
  /** The user's confirmation: what they agreed to spend (the rental's cost, the budget with its margin, the worst-case burn). */
  | { type: 'approved'; rent_cost_sun: number; budget_sun: number; worst_burn_sun: number; rows_left: number; at: number }
  | { type: 'estimated'; id: string; energy: number; bandwidth: number; holder: boolean }
  | {
      type: 'order';
      key: string;
      state: 'placing' | 'filled' | 'failed';
      resource: 'ENERGY' | 'BANDWIDTH';
      amount: number;
      max_price_sun?: number | undefined;
      order_id?: string;
      cost_sun?: number;
      reason?: string;
      at: number;
    }
  | { type: 'record'; record: TransferRecord }
  /** The record of `key` got its broadcast_at (written instead of the whole record again). */
  | { type: 'broadcast'; key: string; tx_id: string; at: number }
  | { type: 'delete'; key: string; reason: string; tx_id?: string | undefined }
  | { type: 'confirmed'; id: string; tx_id: string; block: number; energy_used: number; fee_sun: number; at: number }
  | { type: 'failed'; id: string; reason: string; tx_id?: string; at: number }
  /** On a journal workers share: a worker counted the row's energy against the sender's, until the row is final (`shared-energy.ts`). */
  | { type: 'counted'; id: string; energy: number; at: number }
  | { type: 'run'; state: 'started' | 'stopped' | 'finished'; at: number };

/** @deprecated The old name of {@link PayoutJournalEntry}. */
export type JournalEntry = PayoutJournalEntry;

type OrderEntry = Extract<PayoutJournalEntry, { type: 'order' }>;
/** A row's final entry: confirmed or failed. */
export type FinalEntry = Extract<PayoutJournalEntry, { type: 'confirmed' | 'failed' }>;
type ApprovalEntry = Extract<PayoutJournalEntry, { type: 'approved' }>;

/** What the entries read so far say, by row and by order key (each entry folded in once). */
export class PayoutIndex {
  batch: Extract<PayoutJournalEntry, { type: 'batch' }> | undefined;
  /** The latest approval (the user's confirmation of a plan). */
  approval: ApprovalEntry | undefined;
  readonly estimates = new Map<string, Extract<PayoutJournalEntry, { type: 'estimated' }>>();
  /** Each order's latest state (fields merged over its entries). */
  readonly orders = new Map<string, OrderEntry>();
  /** Rows that ended, confirmed or failed. */
  readonly finals = new Map<string, FinalEntry>();
  readonly records = new TransferIndex();
  /** Each row's energy counted against the sender's by a worker of a shared batch (the latest count). */
  readonly counted = new Map<string, number>();
  confirmed = 0;
  failed = 0;
  /** What the filled orders cost, SUN. */
  spentSun = 0;

  /** Fold one entry in (each entry once, in journal order). */
  apply(entry: PayoutJournalEntry): void {
    switch (entry.type) {
      case 'batch':
        this.batch ??= entry;
        break;
      case 'estimated':
        this.estimates.set(entry.id, entry);
        break;
      case 'order': {
        const had = this.orders.get(entry.key);
        if (entry.state === 'filled' && had?.state !== 'filled') this.spentSun += entry.cost_sun ?? 0;
        this.orders.set(entry.key, { ...had, ...entry });
        break;
      }
      case 'approved':
        this.approval = entry;
        break;
      case 'counted':
        this.counted.set(entry.id, entry.energy);
        break;
      case 'confirmed':
        if (!this.finals.has(entry.id)) {
          this.finals.set(entry.id, entry);
          this.confirmed++;
        }
        break;
      case 'failed':
        if (!this.finals.has(entry.id)) {
          this.finals.set(entry.id, entry);
          this.failed++;
        }
        break;
      default:
        this.records.apply(entry as JournalRecord);
    }
  }

  /** The energy counted for rows not final yet, but `except`'s. */
  countedOpen(except?: string): number {
    let sum = 0;
    for (const [id, energy] of this.counted) if (id !== except && !this.finals.has(id)) sum += energy;
    return sum;
  }
}

/**
 * The rows of a batch that several workers share (a journal on the PostgreSQL store): each row
 * is claimed by one worker at a time under a lease with a fencing token (see
 * `sharedPayoutJournal`). A journal without claims has one runner, which holds it.
 */
export interface RowClaimer {
  /** Put the batch's rows up for claiming (rows already there are left as they are). */
  seed(ids: readonly string[]): Promise<void>;
  /** Claim up to `n` rows that are not done and no live lease holds; their ids. */
  claim(n: number): Promise<string[]>;
  /** How many rows are not done yet, claimed or not. */
  open(): Promise<number>;
  /** Give a row up at once (left pending): it may be claimed again. */
  release(id: string): Promise<void>;
}

/** Where a batch's journal lives. Every write is durable before its promise resolves. */
export interface PayoutJournal extends TransferStore {
  /** Present on a journal several workers share: the run claims rows instead of holding the journal. */
  readonly claims?: RowClaimer | undefined;
  /** Everything read so far, oldest first (what the report reads). */
  entries(): readonly PayoutJournalEntry[];
  /** The index of what the entries say (read with {@link PayoutJournal.sync} first). */
  readonly index: PayoutIndex;
  /** Read what was appended since (by anyone sharing the journal). */
  sync(): Promise<void>;
  /** Write entries (durably, before the steps they describe), in one write. */
  append(...entries: PayoutJournalEntry[]): Promise<void>;
  /** Take the journal for this runner until {@link PayoutJournal.close} (JOURNAL_LOCKED while another holds it). */
  hold(): Promise<void>;
  /** Bytes written so far (0 for a memory journal). */
  size(): number;
  /** Release the journal (its lock). */
  close(): Promise<void>;
}

/** A {@link PayoutJournal} over a store's journal (see the module comment). */
export class PayoutLedger implements PayoutJournal {
  readonly #journal: Journal;
  readonly #entries: PayoutJournalEntry[] = [];
  readonly index = new PayoutIndex();

  constructor(journal: Journal) {
    this.#journal = journal;
  }

  /** The journal's name (a file's path). */
  get name(): string {
    return this.#journal.name;
  }

  entries(): readonly PayoutJournalEntry[] {
    return this.#entries;
  }

  async sync(): Promise<void> {
    for (const entry of (await this.#journal.read()) as PayoutJournalEntry[]) {
      this.#entries.push(entry);
      this.index.apply(entry);
    }
  }

  async append(...entries: PayoutJournalEntry[]): Promise<void> {
    await this.write(entries);
    await this.sync();
  }

  /** Write entries to the journal (a shared journal's view fences the rows' entries here). */
  protected write(entries: readonly PayoutJournalEntry[]): Promise<void> {
    return this.#journal.append(entries);
  }

  async hold(): Promise<void> {
    await this.#journal.hold();
    await this.sync();
  }

  size(): number {
    return this.#journal.size();
  }

  close(): Promise<void> {
    return this.#journal.close();
  }

  async get(key: string): Promise<TransferRecord | undefined> {
    await this.sync();
    return this.index.records.get(key);
  }

  async put(record: TransferRecord): Promise<void> {
    await this.sync();
    await this.append(this.index.records.entryFor(record) as PayoutJournalEntry);
  }

  async delete(key: string): Promise<void> {
    await this.sync();
    await this.append({ type: 'delete', key, reason: 'expired unconfirmed', tx_id: this.index.records.get(key)?.tx_id });
  }

  exclusive<T>(_key: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.#journal.exclusive(fn, { signal });
  }
}

/** A payout journal in memory (for tests and for a batch that need not survive the process), holding `initial`. */
export class MemoryJournal extends PayoutLedger {
  constructor(initial: readonly PayoutJournalEntry[] = []) {
    super(new StoreMemoryJournal('payouts', initial));
  }
}

/** A payout journal in memory. */
export function memoryJournal(): PayoutJournal {
  return new MemoryJournal();
}

/** Open (lock, read) the payout journal file at `path`; its folder must exist. */
export async function openPayoutJournal(path: string): Promise<PayoutJournal> {
  const { openJournalFile } = await import('../../store/file.js');
  const ledger = new PayoutLedger(await openJournalFile(path));
  try {
    await ledger.hold();
  } catch (error) {
    await ledger.close();
    throw error;
  }
  return ledger;
}
