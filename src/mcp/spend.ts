/**
 * Money control of one `trx-rent mcp` process, shared by every session and transport (stdio and
 * each streamable-HTTP session): read-only unless spending was allowed, per-call caps and a
 * process-wide cap (per currency) on order costs, withdrawals and token sends, the user's
 * confirmation before each spend (a client that cannot ask is refused unless the server was
 * started to spend without confirmation), and a line on stderr for every spend. x402 payments
 * are capped by the x402 client's own spend control (`maxPayment`, `budget`, one client per
 * process); their confirmation and log lines come through here too.
 *
 * A spend is reserved before anything is sent, every currency it may move at once (send_token:
 * the tokens and the rental's TRX), so concurrent calls from any session cannot overrun a cap.
 * What happens next is the job's to say (see {@link SpendJob}): done, it counts what was charged
 * (the order's total_cost_sun, the receipt's fee), not the quote; failed, what the job knows it
 * did: nothing (released), something (counted), or maybe (outcome unknown: kept reserved). The
 * guard's own refusals are refusals. An unknown outcome is settled by the job's lookup (an order
 * or a transaction looked up by the id or Idempotency-Key it recorded; never the tool run again),
 * tried before the next spend, each lookup bounded in time; a lookup cannot wait on the
 * reconciliation it runs in, and at most {@link MAX_OPEN_SPENDS} spends are open at once.
 *
 * Every spend with a journal (`spend-journal.ts`: chain spends, keyed POSTs, x402 payments) is
 * written down before it is sent; one left unsettled by an earlier process (killed mid-spend, or
 * of unknown outcome) is held again by the next (an x402 payment counted against its budget) and
 * looked up like any other. A call that repeats, argument for argument, a keyed POST whose
 * answer its caller never got is that spend's retry: answered by replaying its key, nothing new
 * sent or counted. Without a state folder the journal is in memory. On a store servers share
 * (`spend-shared.ts`), that journal is the store's: the session cap counts what all of them
 * spent, and a server that died leaves its open spends (keyed POSTs and x402 payments among
 * them) to one of the others.
 *
 * Every log line and confirmation text is one sanitised line (src/mcp/text.ts): server text
 * cannot move the cursor, forge a line, ring the bell or write the clipboard.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { type Clock, systemClock } from '../utils/clock.js';
import type { ResolvedLimits } from './limits.js';
import { type Currency, type Known, type SpendJob, SpendRefusedError, allOf, codeOf, safely, unknownOutcome } from './outcome.js';
import { type OpenSpend, type SpendJournal, begin } from './spend-journal.js';
import { SpendRecords } from './spend-records.js';
import type { SharedSpends } from './spend-shared.js';
import { type Confirmer, approval, boundedLookup } from './spend-steps.js';
import { type SpendRequest, capTotals, checkCallCap, checkSessionCap, perCurrency, settleLines } from './spend-caps.js';
import { oneLine } from './text.js';
import { type Reservation, SpendingCap } from '../utils/spending-cap.js';

// The guard's vocabulary lives in outcome.ts; its users import it from here.
export {
  type Currency,
  type Known,
  type Outcome,
  type SpendJob,
  type SpendRefusal,
  INCONCLUSIVE,
  SpendRefusedError,
  codeOf,
  keyedPost,
  money,
  guardOutcome,
} from './outcome.js';

/** What a tool does: reads, changes something that is not money (webhooks), or spends. */
export type Access = 'read' | 'write' | 'spend';

export type { Confirmer } from './spend-steps.js';

export type { SpendLine, SpendRequest } from './spend-caps.js';

/**
 * Most spends open at once: in flight or of unknown outcome. Past it a new spend is refused at
 * once (bounded work and memory however many calls arrive), until some finish or are found.
 */
export const MAX_OPEN_SPENDS = 16;
/** How long one lookup may take before it counts as "nothing learnt" (the spend stays reserved). */
export const LOOKUP_TIMEOUT_MS = 15_000;

/** A spend of unknown outcome: what it still holds, per currency, until its job's lookup settles it. */
interface Unknown {
  tool: string;
  key: string;
  summary: string;
  held: Map<Currency, Reservation>;
  /** Currencies already settled (a later verdict on them is not counted twice). */
  settled: Set<Currency>;
  /** What was counted as spent so far, per currency (the journal's `settled` record names it). */
  counted: Map<Currency, bigint>;
  job: SpendJob<unknown>;
}

/** Set while a lookup runs: a spend started from inside it does not wait for the reconciliation it is part of. */
const inLookup = new AsyncLocalStorage<true>();

export class SpendGuard {
  readonly allowSpend: boolean;
  /** Spend when the client cannot ask the user (an explicit server flag). */
  readonly spendWithoutConfirmation: boolean;
  readonly limits: ResolvedLimits;
  readonly #log: (line: string) => void;
  readonly #clock: Clock;
  readonly #lookupTimeoutMs: number;
  /** The server's total cap per currency: the shared spending-cap primitive, reservations and all. */
  readonly #caps: Record<Currency, SpendingCap>;
  readonly #unknown = new Set<Unknown>();
  #inFlight = 0;
  #reconciling: Promise<void> | undefined;
  /** The spend journal: what is written before a spend is sent and after; the x402 payments' too (`paying`, `paid`). */
  readonly records: SpendRecords;
  readonly #restoreJob: ((spend: OpenSpend) => SpendJob<unknown>) | undefined;
  #restored: Promise<void> | undefined;
  /** The caps shared with the other servers on a store, when there is one. */
  readonly #shared: Promise<SharedSpends> | undefined;
  #adopting: Promise<void> | undefined;

  constructor(options: {
    allowSpend: boolean;
    spendWithoutConfirmation?: boolean | undefined;
    limits: ResolvedLimits;
    log: (line: string) => void;
    /** Times the lookups (tests: a virtual clock). @default systemClock */
    clock?: Clock | undefined;
    /** @default LOOKUP_TIMEOUT_MS */
    lookupTimeoutMs?: number | undefined;
    /** The spend journal (opened on first use), and the lookup job of a spend an earlier process left in it. @default one in memory */
    journal?: (() => Promise<SpendJournal>) | undefined;
    restore?: ((spend: OpenSpend) => SpendJob<unknown>) | undefined;
    /**
     * Share the session cap with the other servers on a store: joins them with the guard's caps
     * (called once, at once). Its journal replaces `journal`. @default none (this process's caps)
     */
    shared?: ((caps: Record<Currency, SpendingCap>, sessionAtomic: bigint) => Promise<SharedSpends>) | undefined;
  }) {
    this.allowSpend = options.allowSpend;
    this.spendWithoutConfirmation = Boolean(options.spendWithoutConfirmation);
    this.limits = options.limits;
    this.#log = options.log;
    this.#clock = options.clock ?? systemClock;
    this.#lookupTimeoutMs = options.lookupTimeoutMs ?? LOOKUP_TIMEOUT_MS;
    const journal = options.shared ? async () => (await this.#shared!).journal : options.journal;
    this.records = new SpendRecords(journal, (line) => this.log(line), this.#clock);
    this.#restoreJob = options.restore;
    const total = options.limits.sessionAtomic;
    this.#caps = { TRX: new SpendingCap({ total }), USDT: new SpendingCap({ total }) };
    if (options.shared) {
      this.#shared = options.shared(this.#caps, total);
      this.#shared.catch(() => {}); // a store that cannot be joined refuses each spend (JOURNAL_UNAVAILABLE)
    }
  }

  /** Stop sharing: let go of what the shared store holds for this server. */
  async close(): Promise<void> {
    await (await this.#shared?.catch(() => undefined))?.close();
  }

  /** Spent so far by this server process, per currency, in 6-decimal units. */
  spent(currency: Currency): bigint {
    return this.#caps[currency].spent;
  }

  /** Reserved now (calls in flight and unknown outcomes), per currency. */
  reserved(currency: Currency): bigint {
    return this.#caps[currency].reserved;
  }

  /** How many spends have an unknown outcome (still reserved). */
  get unknownOutcomes(): number {
    return this.#unknown.size;
  }

  /** What is left of the cap for `currency` (reservations in flight and unknown outcomes excluded). */
  remaining(currency: Currency): bigint {
    return this.#caps[currency].remaining;
  }

  /** One log line, sanitised: server text in it cannot drive the terminal or start a new line. */
  log(line: string): void {
    this.#log(oneLine(line));
  }

  /** Refuses a tool that writes or spends when the server is read-only. */
  checkAccess(tool: string, access: Access): void {
    if (access === 'read' || this.allowSpend) return;
    throw new SpendRefusedError(
      'READ_ONLY',
      `${tool} ${access === 'spend' ? 'spends money' : 'changes the account'}; this server is read-only. The user can restart it with --allow-spend (caps and confirmation still apply).`,
      { tool },
    );
  }

  /**
   * The user's approval of `what` (one sentence, sanitised before it is shown), or a refusal:
   * declined, or no way to ask (unless the server spends without confirmation).
   */
  async confirm(ask: Confirmer, what: string): Promise<void> {
    await approval(ask, oneLine(what), this.spendWithoutConfirmation, (line) => this.log(line));
  }

  /**
   * Caps, reservation (every line at once), confirmation, then the job with a fresh
   * Idempotency-Key. Done: its charge is spent. Failed: what the job knows it did is settled at
   * once, the rest stays reserved as an unknown outcome (see the module comment).
   */
  async spend<T>(request: SpendRequest, ask: Confirmer, job: SpendJob<T>): Promise<T> {
    for (const line of request.lines) checkCallCap(request, line);
    // On a shared store, before each spend: the open spends of servers that died since.
    await (this.#shared && !inLookup.getStore() ? this.adopt() : this.restore());
    // A spend started by a lookup must not wait for the reconciliation that runs the lookup.
    if (this.#unknown.size && !inLookup.getStore()) await this.reconcile();
    // A call repeating a keyed POST whose answer was lost: answered by its replay (`SpendRecords.retry`).
    const restoreJob = inLookup.getStore() ? undefined : this.#restoreJob;
    const retried = restoreJob && (await this.records.retry(request.tool, job, restoreJob, (key) => [...this.#unknown].find((e) => e.key === key)?.held));
    if (retried) return retried.value as T;
    if (this.#unknown.size + this.#inFlight >= MAX_OPEN_SPENDS) {
      throw new SpendRefusedError(
        'SESSION_LIMIT',
        `${request.summary}: ${this.#inFlight} spends are in flight and ${this.#unknown.size} have an unknown outcome not looked up yet (at most ${MAX_OPEN_SPENDS} at once); nothing was sent. Try again when they are done.`,
        { limit: 'open spends', in_flight: this.#inFlight, unknown: this.#unknown.size, max: MAX_OPEN_SPENDS },
      );
    }
    // From here to the reservation nothing awaits: the check and the reservation are one step
    // (on a shared store, one section under the shared journal's lock: SharedSpends.reserve).
    if (!this.#shared) for (const line of request.lines) checkSessionCap(request, line, this.#caps[line.currency], this.limits.sessionAtomic);
    this.#inFlight++;
    try {
      return await this.#reserveAndRun(request, ask, job);
    } finally {
      this.#inFlight--;
    }
  }

  async #reserveAndRun<T>(request: SpendRequest, ask: Confirmer, job: SpendJob<T>): Promise<T> {
    const key = randomUUID();
    const at = this.#clock.now();
    // A store that cannot be joined: JOURNAL_UNAVAILABLE, nothing reserved, nothing sent.
    const shared = this.#shared && (await this.#shared.catch((e: unknown) => this.#unjournaled(new Map(), request, e)));
    let held = new Map<Currency, Reservation>();
    if (shared) {
      // Checked, reserved and written down with every server's spends in view (SESSION_LIMIT past the shared cap).
      held = await shared
        .reserve(request, key, job.journaled, at)
        .catch((e: unknown) => (e instanceof SpendRefusedError ? Promise.reject(e) : this.#unjournaled(held, request, e)));
    } else {
      // Checked just before with nothing awaited since: it fits.
      for (const [currency, atomic] of perCurrency(request)) held.set(currency, this.#caps[currency].reserve(atomic)!);
    }
    try {
      await this.confirm(ask, request.summary);
    } catch (error) {
      this.#release(held);
      if (shared) await this.records.note(`that ${key} is settled`, (j) => j.settled(key, { verdict: 'none', answered: true }));
      this.log(`refused ${request.tool}: ${request.summary} (${codeOf(error)})`);
      throw error;
    }
    const entry: Unknown = { tool: request.tool, key, summary: request.summary, held, settled: new Set(), counted: new Map(), job: job as SpendJob<unknown> };
    // A journaled spend is written down before anything is sent (a journal that fails refuses the
    // spend); on a shared store every spend was, with its reservation.
    const journal = job.journaled
      ? await begin(this.records.journal(), { key, tool: request.tool, summary: request.summary, at, held }, job.journaled, Boolean(shared)).catch(
          (e: unknown) => this.#unjournaled(held, request, e),
        )
      : shared?.journal;
    let result: T;
    try {
      result = await job.run(key);
    } catch (error) {
      // The guard's own refusal (from any depth) sent nothing.
      const known: Known =
        error instanceof SpendRefusedError
          ? { outcomes: allOf(held, { state: 'none' }), what: `refused (${error.code})` }
          : safely(() => job.failed(error, key), held);
      const counted = settleLines(this.#caps, entry, known);
      if (held.size === 0) {
        if (journal)
          await this.records.note(`that ${key} is settled`, (j) =>
            j.settled(key, { verdict: counted ? 'spent' : 'none', answered: true, counted: entry.counted }),
          );
        this.log(
          `${counted ? 'spent' : 'not spent'} ${request.tool}: ${known.what} (${codeOf(error)}; ${capTotals(this.#caps, this.limits.sessionAtomic, request)})`,
        );
        throw error;
      }
      const effects = job.journaled?.effects;
      if (journal && effects) await this.records.note(`what ${key} did`, (j) => j.effects(key, effects.snapshot() as never));
      this.#unknown.add(entry);
      this.log(
        `outcome unknown ${request.tool}: ${request.summary}; ${known.what}; stays reserved until looked up (idempotency key ${key}) (${capTotals(this.#caps, this.limits.sessionAtomic, request)})`,
      );
      throw unknownOutcome(error, entry.held, key, known.ids, job.journaled?.request ? request.tool : undefined);
    }
    const known = safely(() => job.done(result), held, 'spent');
    settleLines(this.#caps, entry, known);
    // Done means done: a currency the job did not price is counted as reserved.
    settleLines(this.#caps, entry, { outcomes: allOf(held, { state: 'spent' }), what: '' });
    if (journal) await this.records.note(`that ${key} is settled`, (j) => j.settled(key, { verdict: 'spent', answered: true, counted: entry.counted }));
    this.log(`spent ${request.tool}: ${known.what} (${capTotals(this.#caps, this.limits.sessionAtomic, request)})`);
    return result;
  }

  /**
   * Looks up every spend of unknown outcome with its job's lookup (never its run), each bounded
   * by the lookup timeout. Found: counted (its charge). Nothing done: released. Still unknown:
   * stays reserved. One reconciliation at a time; concurrent callers wait for the same one; a
   * call from inside a lookup returns at once.
   */
  reconcile(): Promise<void> {
    if (inLookup.getStore()) return Promise.resolve();
    this.#reconciling ??= this.restore()
      .then(() => Promise.all([...this.#unknown].map((entry) => this.#lookUp(entry))))
      .then(
        () => (this.#reconciling = undefined),
        () => (this.#reconciling = undefined),
      );
    return this.#reconciling;
  }

  /**
   * Hold again (once per process, at start-up or before the first spend) what an earlier process
   * left unsettled in the spend journal; the next reconciliation looks it up. An x402 payment has
   * no lookup: it counts against this process's x402 budget (`records.x402Carried`), once. On a
   * shared store: what servers that died left open (see {@link adopt}).
   */
  restore(): Promise<void> {
    this.#restored ??= (async () => {
      if (this.#shared) return this.adopt();
      for (const { open, held: reserved, settled } of await this.records.leftOver(this.#caps, this.limits.maxPayment)) {
        if (!this.#restoreJob) {
          this.#release(reserved); // a guard that cannot look anything up holds nothing of it
          continue;
        }
        this.#held(open, reserved, settled, 'left by an earlier run of the server');
      }
    })();
    return this.#restored;
  }

  /**
   * On a shared store: adopt the open spends of servers that died (one server adopts each), to
   * be looked up by the next reconciliation (an x402 payment counted against this server's x402
   * budget, as `restore` does). Done before each spend; one adoption at a time.
   */
  adopt(): Promise<void> {
    const shared = this.#shared;
    if (!shared || !this.#restoreJob) return Promise.resolve();
    this.#adopting ??= (async () => {
      const whose = 'left by a server that stopped';
      const adopted = await (await shared).adopt((line) => this.log(line));
      for (const { open, held, settled } of await this.records.carry(adopted, this.limits.maxPayment, whose)) this.#held(open, held, settled, whose);
    })().finally(() => (this.#adopting = undefined));
    return this.#adopting;
  }

  #held(open: OpenSpend, held: Map<Currency, Reservation>, settled: Set<Currency>, whose: string): void {
    const counted = new Map([...settled].map((currency) => [currency, open.held[currency] ?? 0n]));
    this.#unknown.add({ tool: open.tool, key: open.key, summary: open.summary, held, settled, counted, job: this.#restoreJob!(open) });
    this.log(`outcome unknown ${open.tool} (${whose}): ${open.summary}; stays reserved until looked up (idempotency key ${open.key})`);
  }

  async #lookUp(entry: Unknown): Promise<void> {
    const known = await boundedLookup(entry.job, entry, this.#clock, this.#lookupTimeoutMs, (fn) => inLookup.run(true, fn));
    if (!known || !this.#unknown.has(entry)) return;
    const before = new Map(entry.held);
    const counted = settleLines(this.#caps, entry, known);
    // Nothing settled: every currency still held as it was.
    if (entry.held.size === before.size) return;
    const totals = capTotals(this.#caps, this.limits.sessionAtomic, { lines: [...before.keys()].map((currency) => ({ currency })) });
    if (entry.held.size === 0) {
      this.#unknown.delete(entry);
      await this.records.note(`that ${entry.key} is settled`, (j) =>
        j.settled(entry.key, { verdict: counted ? 'spent' : 'none', answered: false, counted: entry.counted }),
      );
      this.log(
        `${counted ? 'found' : 'not spent'} ${entry.tool} (idempotency key ${entry.key}): ${known.what}${counted ? '' : '; reservation released'} (${totals})`,
      );
    } else {
      this.log(`found in part ${entry.tool} (idempotency key ${entry.key}): ${known.what}; the rest stays reserved (${totals})`);
    }
  }

  /** A spend whose journal could not be written (or whose shared store could not be joined): released, JOURNAL_UNAVAILABLE, nothing sent. */
  #unjournaled(held: Map<Currency, Reservation>, request: SpendRequest, error: unknown): never {
    this.#release(held);
    throw this.records.unjournaled(request, error);
  }

  #release(held: Map<Currency, Reservation>): void {
    for (const reservation of held.values()) reservation.release();
    held.clear();
  }
}
