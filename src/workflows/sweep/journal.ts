/**
 * The sweep journal: every step of a sweep written down before it is taken (the sources and the
 * amounts confirmed, then the sweep's head, in one write; each activation signed, each order
 * placed, each source swept), read back on a resume. A journal with no head holds no sweep. A view over one journal of the store (`src/store`): the transfer protocol's entries
 * (`record`, `broadcast`, `delete`, keyed `<sweep key>:<address>`) plus the sweep's own, folded into
 * an index as they are read, so it is also the {@link TransferStore} of every source's transfer.
 * @module
 */
import type { Journal, JournalRecord } from '../../store/types.js';
import type { SignedActivation } from '../../tron/activate.js';
import type { TransferRecord, TransferStore } from '../../tron/identity.js';
import { TransferIndex } from '../../tron/transfer-store.js';

/** One line of the sweep journal. Times are the run's clock, ms. */
export type SweepJournalEntry =
  | { type: 'sweep'; key: string; to: string; token: string; sources_hash: string; sources: number; at: number }
  /** A source to sweep, with the amount confirmed (the amount a resume sweeps, whatever arrived since). */
  | {
      type: 'planned';
      address: string;
      amount_atomic: string;
      energy: number;
      order_amount: number /** The order's share of the approved budget, SUN per unit (its max_price_sun). */;
      max_price_sun: number;
      activate: boolean;
    }
  /** A source left alone: below `min` when the sweep was confirmed. */
  | { type: 'below_min'; address: string; amount_atomic: string }
  | { type: 'approved'; cost_sun: number; budget_sun: number; at: number }
  /** `signed`: the activation's bytes, written before they are broadcast (a resume broadcasts these, never signs a second one while they may land). */
  | {
      type: 'activation';
      address: string;
      state: 'signed' | 'done' | 'failed';
      tx_id?: string | undefined;
      expiration?: number | undefined;
      signed?: SignedActivation | undefined;
      fee_sun?: number | undefined;
      reason?: string | undefined;
      at: number;
    }
  /**
   * A source's energy order under its Idempotency-Key (`<sweep key>:<address>`, then `:2`, `:3` …
   * for the orders after a FAILED one: `attempt`). `failed` with `retry`: the order ended FAILED
   * and charged nothing, so the source gets a new order; without: the source has failed.
   */
  | {
      type: 'order';
      key: string;
      address: string;
      state: 'placing' | 'filled' | 'failed';
      amount: number;
      attempt?: number | undefined;
      max_price_sun?: number | undefined;
      order_id?: string | undefined;
      cost_sun?: number | undefined;
      reason?: string | undefined;
      retry?: boolean | undefined;
      at: number;
    }
  | { type: 'record'; record: TransferRecord }
  | { type: 'broadcast'; key: string; tx_id: string; at: number }
  | { type: 'delete'; key: string; reason: string; tx_id?: string | undefined }
  | { type: 'swept'; address: string; tx_id: string; block: number; energy_used: number; fee_sun: number; at: number }
  | { type: 'failed'; address: string; reason: string; tx_id?: string | undefined; at: number }
  | { type: 'run'; state: 'started' | 'stopped' | 'finished'; at: number };

type Of<T extends SweepJournalEntry['type']> = Extract<SweepJournalEntry, { type: T }>;

/** What the entries read so far say, by source. */
export class SweepIndex {
  head: Of<'sweep'> | undefined;
  approval: Of<'approved'> | undefined;
  readonly planned = new Map<string, Of<'planned'>>();
  readonly belowMin = new Map<string, Of<'below_min'>>();
  /** Each source's activation, latest state merged. */
  readonly activations = new Map<string, Of<'activation'>>();
  /** Each source's latest order (its latest state merged), by source. */
  readonly orders = new Map<string, Of<'order'>>();
  readonly finals = new Map<string, Of<'swept'> | Of<'failed'>>();
  readonly records = new TransferIndex();
  swept = 0;
  failed = 0;
  /** Filled orders and landed activations, SUN. */
  spentSun = 0;

  apply(entry: SweepJournalEntry): void {
    switch (entry.type) {
      case 'sweep':
        this.head ??= entry;
        break;
      // A source's latest plan line wins (lines a cut-short plan left before its head are planned again).
      case 'planned':
        this.belowMin.delete(entry.address);
        this.planned.set(entry.address, entry);
        break;
      case 'below_min':
        this.planned.delete(entry.address);
        this.belowMin.set(entry.address, entry);
        break;
      case 'approved':
        this.approval = entry;
        break;
      case 'activation': {
        const had = this.activations.get(entry.address);
        if (entry.state === 'done' && had?.state !== 'done') this.spentSun += entry.fee_sun ?? 0;
        this.activations.set(entry.address, { ...had, ...entry });
        break;
      }
      case 'order': {
        // A new key is a new order (the one before it failed): nothing of the old one carries over.
        const had = this.orders.get(entry.address);
        const same = had?.key === entry.key ? had : undefined;
        if (entry.state === 'filled' && same?.state !== 'filled') this.spentSun += entry.cost_sun ?? 0;
        this.orders.set(entry.address, { ...same, ...entry });
        break;
      }
      case 'swept':
      case 'failed':
        if (!this.finals.has(entry.address)) {
          this.finals.set(entry.address, entry);
          if (entry.type === 'swept') this.swept++;
          else this.failed++;
        }
        break;
      case 'run':
        break;
      default:
        this.records.apply(entry as JournalRecord);
    }
  }
}

/** The sweep journal over a store's journal (see the module comment). */
export class SweepLedger implements TransferStore {
  readonly #journal: Journal;
  readonly index = new SweepIndex();

  constructor(journal: Journal) {
    this.#journal = journal;
  }

  /** The journal's name (a file's path). */
  get name(): string {
    return this.#journal.name;
  }

  async sync(): Promise<void> {
    for (const entry of (await this.#journal.read()) as unknown as SweepJournalEntry[]) this.index.apply(entry);
  }

  /** Write entries durably (before the steps they describe), in one write. */
  async append(...entries: SweepJournalEntry[]): Promise<void> {
    await this.#journal.append(entries as unknown as JournalRecord[]);
    await this.sync();
  }

  /** Take the journal for this runner until {@link close} (JOURNAL_LOCKED while another holds it). */
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
    await this.append(this.index.records.entryFor(record) as SweepJournalEntry);
  }

  async delete(key: string): Promise<void> {
    await this.sync();
    await this.append({ type: 'delete', key, reason: 'expired unconfirmed', tx_id: this.index.records.get(key)?.tx_id });
  }

  exclusive<T>(_key: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.#journal.exclusive(fn, { signal });
  }
}

/** Open (lock, read) the sweep journal at `path` (a file), or one in memory. */
export async function openSweepJournal(path: string | undefined): Promise<SweepLedger> {
  const journal =
    path === undefined
      ? await (await import('../../store/memory.js')).memoryStore().journal('sweep')
      : await (await import('../../store/file.js')).openJournalFile(path);
  const ledger = new SweepLedger(journal);
  try {
    await ledger.hold();
  } catch (error) {
    await ledger.close();
    throw error;
  }
  return ledger;
}
