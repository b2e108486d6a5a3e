/**
 * What the spend guard (`spend.ts`) writes to its spend journal (`spend-journal.ts`) and reads
 * back: the journal opened once (in memory without a state folder), each later record written
 * with its failure logged (the spend itself is decided by then), the spends an earlier process
 * left unsettled held again, and the x402 payments: written when the user approved them, before
 * they are signed, and settled by the SDK's one verdict (`outcomeOf`) when the call ends; and
 * the retry of a keyed POST whose answer was lost, found in the journal and answered by its replay.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { TrxRentError, outcomeOf } from '../errors/index.js';
import { MemoryJournal } from '../store/memory.js';
import type { Clock } from '../utils/clock.js';
import type { Reservation, SpendingCap } from '../utils/spending-cap.js';
import { usdToAtto } from '../x402/offers.js';
import { type Currency, REPLAY_WINDOW_MS, type SpendJob, codeOf, unknownOutcome } from './outcome.js';
import { type HeldAgain, type OpenSpend, type PaymentIntent, SpendJournal, heldAgain } from './spend-journal.js';

/** The spend journal of one guard (see the module comment). */
export class SpendRecords {
  readonly #open: () => Promise<SpendJournal>;
  readonly #log: (line: string) => void;
  readonly #clock: Clock;
  #journal: Promise<SpendJournal> | undefined;
  #x402Carried = 0n;

  constructor(open: (() => Promise<SpendJournal>) | undefined, log: (line: string) => void, clock: Clock) {
    this.#open = open ?? (async () => new SpendJournal(new MemoryJournal('spends')));
    this.#log = log;
    this.#clock = clock;
  }

  /** The journal, opened on first use (one that cannot open refuses every journaled spend). */
  journal(): Promise<SpendJournal> {
    this.#journal ??= this.#open();
    return this.#journal;
  }

  /** Write `write` to the journal; a failure is logged (the spend itself is decided). */
  note(what: string, write: (journal: SpendJournal) => Promise<void>): Promise<void> {
    return this.journal()
      .then((journal) => write(journal))
      .catch((error: unknown) => this.#log(`the spend journal could not record ${what}: ${(error as Error).message}`));
  }

  /** The refusal of a spend whose journal could not be written (its reservation released by the caller): JOURNAL_UNAVAILABLE, nothing sent. */
  unjournaled(request: { tool: string; summary: string }, error: unknown): TrxRentError {
    this.#log(`refused ${request.tool}: ${request.summary} (the spend journal could not be written: ${(error as Error).message})`);
    return new TrxRentError({
      code: 'JOURNAL_UNAVAILABLE',
      message: `The server could not write this spend down before sending it (${(error as Error).message}); nothing was sent.`,
      cause: error,
    });
  }

  /**
   * The spends an earlier process left unsettled: the x402 payments counted (no lookup settles
   * them: the paid API keeps no idempotency), added to {@link x402Carried} (`maxPayment`, a
   * damaged record's price) and settled; the others held again against `caps` (`heldAgain`) and
   * returned, but those nothing could hold (all past the caps: counted), settled.
   */
  async leftOver(caps: Record<Currency, SpendingCap>, maxPayment: string): Promise<HeldAgain[]> {
    return this.carry(await heldAgain(await this.journal(), caps), maxPayment, 'left by an earlier run of the server');
  }

  /**
   * Of the spends `left` (held again, or adopted on a shared store from a server that stopped:
   * `whose`), the x402 payments and those nothing could hold counted and settled as
   * {@link leftOver} says; the others returned, to be looked up.
   */
  async carry(left: HeldAgain[], maxPayment: string, whose: string): Promise<HeldAgain[]> {
    const held: HeldAgain[] = [];
    for (const one of left) {
      const { open } = one;
      if (!open.payment && one.held.size) {
        held.push(one);
        continue;
      }
      for (const reservation of one.held.values()) reservation.release();
      if (open.payment) this.#x402Carried += atto(open.payment.amount_usd, maxPayment);
      await this.note(`that ${open.key} is counted`, (j) => j.settled(open.key, { verdict: 'spent', answered: false }));
      this.#log(
        `counted ${open.tool} (${whose}): ${open.summary}; its outcome is unknown and ` +
          (open.payment ? "no lookup settles an x402 payment: it counts against this server's x402 budget" : 'it counts against the caps'),
      );
    }
    return held;
  }

  /**
   * A call of `tool` that repeats a keyed POST whose answer its caller never got (same
   * arguments, within the replay window): answered by replaying that spend's key and body with
   * `restore`'s job (the service answers with what it did), nothing new sent or counted, and
   * `answered` written. Still unknown here (`unknown` gives what it holds): refused, nothing sent.
   * Open in the journal but not unknown here: in flight (here or in another process), not a retry.
   */
  async retry(
    tool: string,
    job: SpendJob<unknown>,
    restore: (spend: OpenSpend) => SpendJob<unknown>,
    unknown: (key: string) => Map<Currency, Reservation> | undefined,
  ): Promise<{ value: unknown } | undefined> {
    const args = job.journaled?.request?.args;
    if (args === undefined) return undefined;
    const prior = await (await this.journal()).unanswered(tool, args, this.#clock.now() - REPLAY_WINDOW_MS);
    if (!prior) return undefined;
    const key = prior.spend.key;
    const held = unknown(key);
    if (prior.state === 'open' && !held) return undefined;
    if (held) {
      const still = new TrxRentError({
        code: 'OUTCOME_UNKNOWN',
        message: `The same ${tool} (same arguments) was sent before and could not be looked up yet; nothing new was sent.`,
      });
      throw unknownOutcome(still, held, key, undefined, tool);
    }
    const value = await restore(prior.spend).run(key);
    await this.note(`that ${key} was answered`, (j) => j.answered(key));
    this.#log(
      `answered ${tool} again (idempotency key ${key}): ${prior.spend.summary}; the retry of a spend whose answer was lost, replayed with its key: nothing new sent or counted`,
    );
    return { value };
  }

  /** What x402 payments an earlier process left of unknown outcome count against this one's x402 budget, atto-USD. */
  get x402Carried(): bigint {
    return this.#x402Carried;
  }

  /**
   * Write down an x402 payment the user approved, before it is signed (a journal that fails
   * refuses it: JOURNAL_UNAVAILABLE, nothing signed); its key, for {@link paid}.
   */
  async paying(tool: string, summary: string, payment: PaymentIntent): Promise<string> {
    const key = randomUUID();
    try {
      await (await this.journal()).opened({ key, tool, summary, held: {}, at: this.#clock.now(), payment });
    } catch (error) {
      throw this.unjournaled({ tool, summary }, error);
    }
    return key;
  }

  /**
   * The x402 call of payment `key` ended (`error` undefined: answered). Sent or not (the SDK's
   * one verdict, `outcomeOf`), it is settled; unknown, it stays open, so that a server restarted
   * on the journal counts it against its x402 budget.
   */
  async paid(key: string, tool: string, error?: unknown): Promise<void> {
    const verdict = error === undefined ? 'sent' : outcomeOf(error);
    if (verdict === 'unknown') {
      this.#log(
        `outcome unknown ${tool}: the payment may have been settled (${codeOf(error)}); it counts against the x402 budget, a restarted server's too (key ${key})`,
      );
      return;
    }
    await this.note(`that ${key} is settled`, (j) => j.settled(key, { verdict: verdict === 'sent' ? 'spent' : 'none', answered: true }));
  }
}

/** `usd` in atto-USD; `fallback`'s when it does not read. */
function atto(usd: string, fallback: string): bigint {
  try {
    return usdToAtto(usd);
  } catch {
    return usdToAtto(fallback);
  }
}
