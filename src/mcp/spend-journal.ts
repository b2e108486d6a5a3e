/**
 * The MCP server's spends in a store journal (`spends`, in the server's state folder), so a
 * spend of unknown outcome outlives the process. Each spend is written when it is reserved,
 * before anything is sent: its tool, summary, what it holds per currency and when, and what a
 * later process needs to settle it: a chain spend's effects (`effects.ts`: each order request
 * before it leaves, then as they change), a keyed POST's request (create_order, withdraw: the
 * endpoint, the body and the tool's arguments; its Idempotency-Key is the spend's key), or an
 * x402 payment's quote (written after the user approved it, before it is signed). Then
 * `settled` once its outcome is known, with the verdict (`spent`, `none`) and whether the caller
 * got the answer; `answered` when a retry of a keyed POST whose answer was lost got it later.
 *
 * A server started on the same folder holds the spends left unsettled against its caps and
 * looks them up (never running the tool again) at start-up and before its first spend. On a
 * store several servers share (`spend-shared.ts`), each record names its server and `settled`
 * what it counted per currency, so the others count it too. A view over the journal: the open
 * spends and the keyed spends whose answer no caller got are indexes folded as records are read.
 * @module
 */
import type { Journal } from '../store/types.js';
import type { Reservation, SpendingCap } from '../utils/spending-cap.js';
import type { EffectsSnapshot } from './effects.js';
import type { Currency, Journaled, KeyedRequest } from './outcome.js';

/** An x402 payment as the user approved it (the quote), before it is signed. */
export interface PaymentIntent {
  /** USD, amount plus any fee known up front, decimal string. */
  amount_usd: string;
  /** Atomic units of the token. */
  amount: string;
  symbol: string;
  network: string;
  scheme: string;
  pay_to: string;
  /** The paid call, as method and path (its table entry says which endpoint). */
  call: string;
}

/** A spend not known to be settled. Amounts in 6-decimal units. */
export interface OpenSpend {
  key: string;
  /** The server that made it, on a store several servers share (`spend-shared.ts`). */
  server?: string | undefined;
  /** false: a spend with nothing to look it up by (no journaled job); one left by a server that died counts as spent. */
  lookup?: false | undefined;
  tool: string;
  summary: string;
  held: Partial<Record<Currency, bigint>>;
  /** ms since the epoch, when it was written (before anything was sent); absent in older journals. */
  at?: number | undefined;
  /** The token a transfer moves (send_token), as the job's verdict names it. */
  token?: { currency: Currency; atomic: bigint; label: string } | undefined;
  /** A chain spend's effects. */
  effects?: EffectsSnapshot | undefined;
  request?: KeyedRequest | undefined;
  payment?: PaymentIntent | undefined;
}

/**
 * How a spend ended: its verdict, whether the caller got the answer (false: a lookup settled it),
 * and what it was counted at per currency (6-decimal units; the other servers on a shared store count it).
 */
export interface Settlement {
  verdict: 'spent' | 'none';
  answered: boolean;
  counted?: ReadonlyMap<Currency, bigint> | undefined;
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
      at?: number | undefined;
      token?: { currency: Currency; atomic: string; label: string } | undefined;
      effects?: EffectsSnapshot | undefined;
      request?: KeyedRequest | undefined;
      payment?: PaymentIntent | undefined;
    }
  | { type: 'effects'; key: string; effects: EffectsSnapshot }
  /** `counted`: what the spend was counted at, per currency (6-decimal units as strings). */
  | { type: 'settled'; key: string; verdict?: 'spent' | 'none' | undefined; answered?: boolean | undefined; counted?: Record<string, string> | undefined }
  | { type: 'answered'; key: string };

type Wire = SpendRecord;

/** Who writes the spends of a journal several servers share: each new spend is stamped with `server` and reported to `own`. */
export interface SpendOwner {
  server: string;
  own(key: string): void;
}

/** A keyed POST whose answer no caller got: still open, or found (counted) by a lookup. */
export interface Unanswered {
  spend: OpenSpend;
  state: 'open' | 'found';
}

/** The spends of one server state folder (see the module comment). */
export class SpendJournal {
  readonly #journal: Journal;
  readonly #open = new Map<string, OpenSpend>();
  readonly #unanswered = new Map<string, Unanswered>();
  readonly #onRecord: ((record: SpendRecord) => void) | undefined;
  readonly #owner: SpendOwner | undefined;

  /**
   * `onRecord` sees every record read, by this process or any other writer, oldest first;
   * `owner`, on a shared store, stamps every spend this process writes.
   */
  constructor(journal: Journal, options: { onRecord?: ((record: SpendRecord) => void) | undefined; owner?: SpendOwner | undefined } = {}) {
    this.#journal = journal;
    this.#onRecord = options.onRecord;
    this.#owner = options.owner;
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
        const open: OpenSpend = {
          key: r.key,
          server: r.server,
          lookup: r.lookup,
          tool: r.tool,
          summary: r.summary,
          held,
          at: r.at,
          token,
          effects: r.effects,
          request: r.request,
          payment: r.payment,
        };
        this.#open.set(r.key, open);
        if (open.request) this.#unanswered.set(r.key, { spend: open, state: 'open' });
      } else if (r.type === 'effects') {
        const open = this.#open.get(r.key);
        if (open) open.effects = r.effects;
      } else if (r.type === 'settled') {
        this.#open.delete(r.key);
        const unanswered = this.#unanswered.get(r.key);
        // Found by a lookup: the caller never saw it; a retry is answered with it.
        if (unanswered && r.verdict === 'spent' && r.answered === false) unanswered.state = 'found';
        else this.#unanswered.delete(r.key);
      } else if (r.type === 'answered') this.#unanswered.delete(r.key);
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
    const { key, tool, summary, at, effects, request, payment } = spend;
    const server = spend.server ?? this.#owner?.server;
    this.#owner?.own(key);
    return this.#append({
      type: 'spend',
      key,
      ...(server === undefined ? {} : { server }),
      ...(spend.lookup === false ? { lookup: false as const } : {}),
      tool,
      summary,
      held,
      at,
      token,
      effects,
      request,
      payment,
    });
  }

  /** What the spend `key` did so far. */
  effects(key: string, effects: EffectsSnapshot): Promise<void> {
    return this.#append({ type: 'effects', key, effects });
  }

  /** The spend `key` is settled: counted or released (`how`: its verdict, whether its caller got the answer, what it counted). */
  settled(key: string, how?: Settlement): Promise<void> {
    const counted = how?.counted?.size ? Object.fromEntries([...how.counted].map(([c, a]) => [c, String(a)])) : undefined;
    const verdict = how && { verdict: how.verdict, answered: how.answered };
    return this.#append({ type: 'settled', key, ...verdict, ...(counted ? { counted } : {}) });
  }

  /** The caller of a retry got the answer of the keyed spend `key`. */
  answered(key: string): Promise<void> {
    return this.#append({ type: 'answered', key });
  }

  /** The spends written and not settled, by any process on this journal. */
  async unsettled(): Promise<OpenSpend[]> {
    await this.#sync();
    return [...this.#open.values()].map((s) => structuredClone(s));
  }

  /**
   * The latest keyed spend of `tool` with the arguments `args` (canonical JSON) whose answer no
   * caller got, written at or after `since` (ms): the spend a call with those arguments retries.
   */
  async unanswered(tool: string, args: string, since: number): Promise<Unanswered | undefined> {
    await this.#sync();
    let latest: Unanswered | undefined;
    for (const [key, u] of this.#unanswered) {
      // Past the replay window: a replay could place a new order; never a retry's answer again.
      if ((u.spend.at ?? 0) < since) this.#unanswered.delete(key);
      else if (u.spend.tool === tool && u.spend.request?.args === args && (!latest || (u.spend.at ?? 0) >= (latest.spend.at ?? 0))) latest = u;
    }
    return latest && structuredClone(latest);
  }

  close(): Promise<void> {
    return this.#journal.close();
  }
}

/** What {@link heldAgain} holds of one open spend. */
export interface HeldAgain {
  open: OpenSpend;
  held: Map<Currency, Reservation>;
  settled: Set<Currency>;
}

/**
 * The spends `journal` has open, held again against `caps`: each currency reserved, or, past
 * the cap, counted as spent at once (never less than it may have cost) and marked settled.
 */
export async function heldAgain(journal: SpendJournal, caps: Record<Currency, SpendingCap>): Promise<HeldAgain[]> {
  const out: HeldAgain[] = [];
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
  spend: { key: string; tool: string; summary: string; at: number; held: Map<Currency, { amount: bigint }> },
  journaled: Journaled,
  written = false,
): Promise<SpendJournal | undefined> {
  const j = await journal;
  if (!j) return undefined;
  if (written) {
    journaled.effects?.bind((snapshot) => j.effects(spend.key, snapshot as EffectsSnapshot));
    return j;
  }
  const held = Object.fromEntries([...spend.held].map(([c, r]) => [c, r.amount]));
  await j.opened({
    key: spend.key,
    tool: spend.tool,
    summary: spend.summary,
    held,
    at: spend.at,
    token: journaled.token,
    effects: journaled.effects?.snapshot() as EffectsSnapshot | undefined,
    request: journaled.request,
  });
  journaled.effects?.bind((snapshot) => j.effects(spend.key, snapshot as EffectsSnapshot));
  return j;
}
