/**
 * The MCP server's spends in a store journal (`spends`, in the server's state folder), so a
 * spend of unknown outcome outlives the process: each spend is written when it is reserved (its
 * tool, summary, what it holds per currency, the token it moves), its effects as they change
 * (`effects.ts`: each order request before it leaves), and `settled` once its outcome is known.
 * A server started on the same folder holds the spends left unsettled against its caps and looks
 * them up (never running the tool again) before its first spend. A view over the journal: the
 * open spends are an index folded as records are read.
 * @module
 */
import type { Journal } from '../store/types.js';
import type { Reservation, SpendingCap } from '../utils/spending-cap.js';
import type { EffectsSnapshot } from './effects.js';
import type { Currency } from './outcome.js';

/** A spend not known to be settled. Amounts in 6-decimal units. */
export interface OpenSpend {
  key: string;
  /** The server that made it, on a store several servers share (`spend-shared.ts`). */
  server?: string | undefined;
  /** false: a spend with nothing to look it up by (not a chain spend); one left by a server that died counts as spent. */
  lookup?: false | undefined;
  tool: string;
  summary: string;
  held: Partial<Record<Currency, bigint>>;
  /** The token a transfer moves (send_token), as the job's verdict names it. */
  token?: { currency: Currency; atomic: bigint; label: string } | undefined;
  effects: EffectsSnapshot;
}

/** One record of the spend journal, as written. */
export type SpendRecord =
  | {
      type: 'spend';
      key: string;
      server?: string | undefined;
      lookup?: false | undefined;
      tool: string;
      summary: string;
      held: Record<string, string>;
      token?: { currency: Currency; atomic: string; label: string } | undefined;
      effects: EffectsSnapshot;
    }
  | { type: 'effects'; key: string; effects: EffectsSnapshot }
  /** `counted`: what the spend was counted at, per currency (6-decimal units as strings). */
  | { type: 'settled'; key: string; counted?: Record<string, string> | undefined };

type Wire = SpendRecord;

/** The spends of one server state folder (see the module comment). */
export class SpendJournal {
  readonly #journal: Journal;
  readonly #open = new Map<string, OpenSpend>();
  readonly #onRecord: ((record: SpendRecord) => void) | undefined;

  /** `onRecord` sees every record read, by this process or any other writer, oldest first. */
  constructor(journal: Journal, options: { onRecord?: ((record: SpendRecord) => void) | undefined } = {}) {
    this.#journal = journal;
    this.#onRecord = options.onRecord;
  }

  /** Read what any writer appended since the last read. */
  sync(): Promise<void> {
    return this.#sync();
  }

  /** Run `fn` holding the journal's lock (across processes and hosts on a shared store). */
  exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.#journal.exclusive(fn);
  }

  async #sync(): Promise<void> {
    for (const r of (await this.#journal.read()) as unknown as Wire[]) {
      this.#onRecord?.(r);
      if (r.type === 'spend') {
        const held: Partial<Record<Currency, bigint>> = {};
        for (const [currency, atomic] of Object.entries(r.held ?? {})) held[currency as Currency] = BigInt(atomic);
        const token = r.token ? { currency: r.token.currency, atomic: BigInt(r.token.atomic), label: r.token.label } : undefined;
        this.#open.set(r.key, { key: r.key, server: r.server, lookup: r.lookup, tool: r.tool, summary: r.summary, held, token, effects: r.effects });
      } else if (r.type === 'effects') {
        const open = this.#open.get(r.key);
        if (open) open.effects = r.effects;
      } else if (r.type === 'settled') this.#open.delete(r.key);
    }
  }

  async #append(record: Wire): Promise<void> {
    await this.#journal.append([record as never]);
    await this.#sync();
  }

  /** A spend reserved, before anything is sent. */
  opened(spend: OpenSpend): Promise<void> {
    const held = Object.fromEntries(Object.entries(spend.held).map(([c, a]) => [c, String(a)]));
    const token = spend.token ? { currency: spend.token.currency, atomic: String(spend.token.atomic), label: spend.token.label } : undefined;
    return this.#append({
      type: 'spend',
      key: spend.key,
      ...(spend.server === undefined ? {} : { server: spend.server }),
      ...(spend.lookup === false ? { lookup: false as const } : {}),
      tool: spend.tool,
      summary: spend.summary,
      held,
      token,
      effects: spend.effects,
    });
  }

  /** What the spend `key` did so far. */
  effects(key: string, effects: EffectsSnapshot): Promise<void> {
    return this.#append({ type: 'effects', key, effects });
  }

  /** The spend `key` is settled: counted (at `counted`, per currency) or released. */
  settled(key: string, counted?: ReadonlyMap<Currency, bigint> | undefined): Promise<void> {
    const amounts = counted?.size ? Object.fromEntries([...counted].map(([c, a]) => [c, String(a)])) : undefined;
    return this.#append({ type: 'settled', key, ...(amounts ? { counted: amounts } : {}) });
  }

  /** The spends written and not settled, by any process on this journal. */
  async unsettled(): Promise<OpenSpend[]> {
    await this.#sync();
    return [...this.#open.values()].map((s) => structuredClone(s));
  }

  close(): Promise<void> {
    return this.#journal.close();
  }
}

/**
 * The spends `journal` has open, held again against `caps`: each currency reserved, or, past
 * the cap, counted as spent at once (never less than it may have cost) and marked settled.
 */
export async function heldAgain(
  journal: SpendJournal,
  caps: Record<Currency, SpendingCap>,
): Promise<Array<{ open: OpenSpend; held: Map<Currency, Reservation>; settled: Set<Currency> }>> {
  const out: Array<{ open: OpenSpend; held: Map<Currency, Reservation>; settled: Set<Currency> }> = [];
  for (const open of await journal.unsettled()) {
    const held = new Map<Currency, Reservation>();
    const settled = new Set<Currency>();
    for (const [currency, atomic] of Object.entries(open.held) as Array<[Currency, bigint]>) {
      const cap = caps[currency];
      if (!cap) continue;
      const reservation = cap.reserve(atomic);
      if (reservation) held.set(currency, reservation);
      else {
        cap.record(atomic);
        settled.add(currency);
      }
    }
    out.push({ open, held, settled });
  }
  return out;
}

/**
 * Write the spend `spend` down in the journal `journal` resolves to (none: nothing to do) before
 * anything is sent (unless `written`: a shared store wrote it with its reservation), and bind its
 * effects to it; the journal, for the spend's later records.
 */
export async function begin(
  journal: Promise<SpendJournal | undefined>,
  spend: { key: string; tool: string; summary: string; held: Map<Currency, { amount: bigint }> },
  journaled: { effects: { snapshot(): object; bind(sink: (snapshot: object) => Promise<void>): void }; token?: OpenSpend['token'] },
  written = false,
): Promise<SpendJournal | undefined> {
  const j = await journal;
  if (!j) return undefined;
  if (written) {
    journaled.effects.bind((snapshot) => j.effects(spend.key, snapshot as EffectsSnapshot));
    return j;
  }
  const held = Object.fromEntries([...spend.held].map(([c, r]) => [c, r.amount]));
  await j.opened({
    key: spend.key,
    tool: spend.tool,
    summary: spend.summary,
    held,
    token: journaled.token,
    effects: journaled.effects.snapshot() as EffectsSnapshot,
  });
  journaled.effects.bind((snapshot) => j.effects(spend.key, snapshot as EffectsSnapshot));
  return j;
}
