/**
 * The rules journal: every decision, written before and after its network step. Limits are
 * counted from it (see `limits.ts`), so a restart resumes with the spend it had.
 *
 * A view over one journal of the store (`src/store`): {@link RulesLedger} reads what any writer
 * appended and folds each entry once into a {@link RulesIndex} (each rule's actions by
 * Idempotency-Key, retirements, known order ids), so counting a rule's limits never rescans the
 * file. The store's rules hold: appends are durable before they resolve, every write is made
 * under the journal's lock, a last line torn by a crash is dropped and reported, and damage
 * anywhere else is `JOURNAL_CORRUPT` naming the line. Several runners may share one journal (a
 * file, or a database's): {@link RulesLedger.exclusive} is the lock under which a runner counts
 * the limits and writes its intent, so together they never spend past them.
 * @module
 */
import { TrxRentError } from '../../errors/index.js';
import { corruptError } from '../../store/errors.js';
import { MemoryJournal as StoreMemoryJournal } from '../../store/memory.js';
import type { Journal as StoreJournal, StoreOptions } from '../../store/types.js';

/** What a journal line records. */
export type JournalKind =
  /** The trigger fired for a window. */
  | 'trigger'
  /** About to act (written before the network step), with what it may spend (`reserved_sun`). */
  | 'intent'
  /** About to place one order of the action (its Idempotency-Key and request), so a lost answer can be looked up by key. */
  | 'ordering'
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

/** The body of one order an action placed (what a replay with its key must send again). */
export interface OrderRequest {
  resource_type: 'ENERGY' | 'BANDWIDTH';
  amount: number;
  duration_sec: number;
  target_address: string;
  max_price_sun?: number | undefined;
}

/** One line of the rules journal. Wire names are snake_case; money in SUN. */
export interface RulesJournalEntry {
  /** When, ms since the epoch (the runner's clock). */
  ts: number;
  kind: JournalKind;
  rule: string;
  /** The trigger window (e.g. `energy:2026-11-28T10:10Z`, `cron:…`, `renew:<order id>`). */
  window?: string | undefined;
  /** The Idempotency-Key the action used. */
  key?: string | undefined;
  /** `ordering` lines: the Idempotency-Key of the order itself (`key` is the action's). */
  order_key?: string | undefined;
  /** `ordering` lines: the order's request, as sent. */
  request?: OrderRequest | undefined;
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

/** @deprecated The old name of {@link RulesJournalEntry}. */
export type JournalEntry = RulesJournalEntry;

/** One action of a rule, as the journal tells it. */
export interface ActionRecord {
  ts: number;
  key: string | undefined;
  window: string | undefined;
  /** SUN counted against the limits: the cost when known, else the reservation. */
  spent_sun: number;
  outcome: 'done' | 'failed' | 'unknown';
  order_ids: string[];
  /** The orders it was about to place (`ordering` lines), by their own Idempotency-Key. */
  orders: { key: string; request: OrderRequest }[];
  /** The runner that wrote its intent. */
  runner?: string | undefined;
  /** Its orders are journaled (`ordering` lines) before they are placed, so a lost answer is looked up by key; older intents are matched in the order list. */
  by_key: boolean;
  /** Its runner gave up waiting (an `unknown` line): no answer is coming, look it up. */
  gave_up: boolean;
}

interface RuleFold {
  actions: ActionRecord[];
  byKey: Map<string, ActionRecord>;
  retired: boolean;
}

/** What the entries read so far say, by rule: each entry folded in once, in journal order. */
export class RulesIndex {
  readonly #rules = new Map<string, RuleFold>();
  /** Every order id a `done` line named (an order already attributed to an action). */
  readonly orderIds = new Set<string>();

  #fold(rule: string): RuleFold {
    let f = this.#rules.get(rule);
    if (!f) this.#rules.set(rule, (f = { actions: [], byKey: new Map(), retired: false }));
    return f;
  }

  /** Fold one entry in. */
  apply(e: RulesJournalEntry): void {
    for (const id of e.order_ids ?? []) this.orderIds.add(id);
    if (e.kind === 'retired') {
      this.#fold(e.rule).retired = true;
      return;
    }
    if (e.kind === 'intent') {
      const f = this.#fold(e.rule);
      // One key is one action: a second intent with it (another runner on the same journal, a
      // restart retrying the window) gets the same order back from the service.
      if (e.key && f.byKey.has(e.key)) return;
      const record: ActionRecord = {
        ts: e.ts,
        key: e.key,
        window: e.window,
        spent_sun: e.reserved_sun ?? 0,
        outcome: 'unknown',
        order_ids: [],
        orders: [],
        runner: e.runner,
        by_key: e.detail?.orders_journaled === true,
        gave_up: false,
      };
      f.actions.push(record);
      if (e.key) f.byKey.set(e.key, record);
      return;
    }
    const record = e.key ? this.#rules.get(e.rule)?.byKey.get(e.key) : undefined;
    if (!record) return;
    if (e.kind === 'unknown') record.gave_up = true;
    else if (e.kind === 'ordering') {
      if (e.order_key && e.request && !record.orders.some((o) => o.key === e.order_key)) record.orders.push({ key: e.order_key, request: e.request });
    } else if (e.kind === 'done') {
      // A key's spend is the highest any runner reported for it: a late `done` (another runner's
      // replay of the same key, answered with less) never erases what was charged.
      const cost = e.cost_sun ?? record.spent_sun;
      record.spent_sun = record.outcome === 'done' ? Math.max(record.spent_sun, cost) : cost;
      record.outcome = 'done';
      if (e.order_ids?.length) record.order_ids = e.order_ids;
    } else if (e.kind === 'failed' && record.outcome !== 'done') {
      // Not done, by a definite answer; once any runner saw it done, it stays done.
      record.outcome = 'failed';
      record.spent_sun = 0;
    }
  }

  /** Every action of `rule` (one per Idempotency-Key of its intent lines), oldest first. Live records: do not change them. */
  actions(rule: string): readonly ActionRecord[] {
    return this.#rules.get(rule)?.actions ?? [];
  }

  /** Whether a `retired` line was written for `rule`. */
  retired(rule: string): boolean {
    return this.#rules.get(rule)?.retired ?? false;
  }

  /** The actions of every rule whose outcome is still unknown. */
  unknown(): { rule: string; action: ActionRecord }[] {
    const out: { rule: string; action: ActionRecord }[] = [];
    for (const [rule, f] of this.#rules) for (const action of f.actions) if (action.outcome === 'unknown') out.push({ rule, action });
    return out;
  }

  /** An index of `entries`. */
  static of(entries: readonly RulesJournalEntry[]): RulesIndex {
    const index = new RulesIndex();
    for (const e of entries) index.apply(e);
    return index;
  }
}

/** Where a runner keeps its decisions: a view over one journal of the store. */
export interface RulesJournal {
  /** For messages: the file's path, or the store's name for the journal. */
  readonly name: string;
  /** What the entries read so far say (call {@link RulesJournal.sync} first for what others appended). */
  readonly index: RulesIndex;
  /** Read what any writer appended since the last read, into {@link RulesJournal.index}. */
  sync(): Promise<void>;
  /** Every entry, oldest first, including what others appended until now. */
  entries(): Promise<readonly RulesJournalEntry[]>;
  /** Append entries durably, in one write (a file journal fsyncs before resolving). */
  append(...entries: RulesJournalEntry[]): Promise<void>;
  /** Run `fn` holding the journal's lock across processes (and hosts, on a database): what it reads inside is everything there is. */
  exclusive<T>(fn: () => Promise<T>, options?: { signal?: AbortSignal | undefined }): Promise<T>;
  close(): Promise<void>;
}

/** @deprecated The old name of {@link RulesJournal}. */
export type Journal = RulesJournal;

function isEntry(value: Record<string, unknown>): boolean {
  return typeof value.ts === 'number' && typeof value.kind === 'string' && typeof value.rule === 'string';
}

/** A {@link RulesJournal} over a store's journal (see the module comment). */
export class RulesLedger implements RulesJournal {
  readonly #open: () => Promise<StoreJournal>;
  #journal: Promise<StoreJournal> | undefined;
  /** Records a reopened journal reads again before the new ones (those read before a close). */
  #skip = 0;
  /** Whether a close lets a later use open a new instance (an opener was given, not a journal). */
  readonly #reopens: boolean = false;
  readonly #entries: RulesJournalEntry[] = [];
  readonly index = new RulesIndex();
  readonly name: string;

  /** A view over `journal`, or over the journal `open` gives on first use (named `name`). */
  constructor(journal: StoreJournal | (() => Promise<StoreJournal>), name?: string) {
    if (typeof journal === 'function') {
      this.#open = journal;
      this.#reopens = true;
    } else {
      const j = journal;
      this.#open = async () => j;
    }
    this.name = name ?? (typeof journal === 'function' ? 'rules' : journal.name);
  }

  #j(): Promise<StoreJournal> {
    return (this.#journal ??= this.#open());
  }

  async sync(): Promise<void> {
    const journal = await this.#j();
    for (const record of await journal.read()) {
      if (this.#skip > 0) {
        this.#skip--;
        continue;
      }
      const entry = record as unknown as RulesJournalEntry;
      // Whole JSON records that are not rules entries: damage, not something to skip.
      if (!isEntry(record as Record<string, unknown>)) throw corruptError(journal.name, this.#entries.length + 1, 'not a rules journal entry');
      this.#entries.push(entry);
      this.index.apply(entry);
    }
  }

  async entries(): Promise<readonly RulesJournalEntry[]> {
    await this.sync();
    return this.#entries;
  }

  async append(...entries: RulesJournalEntry[]): Promise<void> {
    if (!entries.length) return;
    await (await this.#j()).append(entries as never[]);
    await this.sync();
  }

  async exclusive<T>(fn: () => Promise<T>, options: { signal?: AbortSignal | undefined } = {}): Promise<T> {
    return (await this.#j()).exclusive(fn, options);
  }

  /** Release the journal (its file); a later use opens it again and reads on from where it was. */
  async close(): Promise<void> {
    const open = this.#journal;
    if (!open) return;
    if (this.#reopens) {
      this.#journal = undefined;
      this.#skip = this.#entries.length;
    }
    await (await open).close();
  }
}

/** A rules journal in memory (tests, `rules plan`), holding `initial`. */
export class MemoryJournal extends RulesLedger {
  constructor(initial: readonly RulesJournalEntry[] = []) {
    super(new StoreMemoryJournal('rules', initial as never[]));
  }
}

/**
 * The rules journal file at `path` (JSON lines, Node only), opened on first use; its folder is
 * created when missing. Instances on one file (in one process or several) share its records and
 * its lock: two runners on one journal count each other's spend against the same limits.
 */
export class FileJournal extends RulesLedger {
  readonly path: string;
  constructor(path: string, options: StoreOptions = {}) {
    if (typeof path !== 'string' || path === '') throw new TrxRentError({ code: 'CONFIGURATION_ERROR', message: 'FileJournal needs a path' });
    super(async () => {
      const [{ mkdirSync }, { dirname }, { openJournalFile }] = await Promise.all([import('node:fs'), import('node:path'), import('../../store/file.js')]);
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      return openJournalFile(path, options);
    }, path);
    this.path = path;
  }
}

/** The entries of the rules journal file at `path`, or none when there is no file (it is not created). */
export async function readJournalFile(path: string, options: StoreOptions = {}): Promise<readonly RulesJournalEntry[]> {
  const { existsSync } = await import('node:fs');
  if (!existsSync(path)) return [];
  const journal = new FileJournal(path, options);
  try {
    return await journal.entries();
  } finally {
    await journal.close();
  }
}

/** The rules journal `name` (default `rules`) of a store: runners on one store share it and its limits. */
export function storeRulesJournal(store: { journal(name: string): Promise<StoreJournal> }, name = 'rules'): RulesJournal {
  return new RulesLedger(() => store.journal(name), name);
}

/**
 * Parse JSON-lines text of a rules journal with the store's policy: a last line cut short (no
 * newline after it) is dropped; a damaged line anywhere else is `JOURNAL_CORRUPT` naming it.
 */
export function parseJournal(text: string, name = 'rules journal'): RulesJournalEntry[] {
  const out: RulesJournalEntry[] = [];
  const lines = text.split('\n');
  const last = lines.length - 1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // The unterminated end: a crash mid-write, which recorded nothing that completed.
      if (i === last && !text.endsWith('\n')) break;
      throw corruptError(name, i + 1, 'not JSON');
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value) || !isEntry(value as Record<string, unknown>))
      throw corruptError(name, i + 1, 'not a rules journal entry');
    out.push(value as RulesJournalEntry);
  }
  return out;
}
