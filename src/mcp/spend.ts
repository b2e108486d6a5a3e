/**
 * Money control of one `trx-rent mcp` process, shared by every session and transport (stdio and
 * each streamable-HTTP session): read-only unless spending was allowed, per-call caps and a
 * process-wide cap (per currency) on order costs and withdrawals, the user's confirmation before
 * each spend (a client that cannot ask is refused unless the server was started to spend
 * without confirmation), and a line on stderr for every spend. x402 payments are capped by the
 * x402 client's own spend control (`maxPayment`, `budget`, one client per process); their
 * confirmation and log lines come through here too.
 *
 * A spend is reserved before anything is sent (concurrent calls, from any session, cannot
 * overrun the cap), released when the service refused it with a definite answer (nothing was
 * created), and kept when the outcome is unknown: an attempt got no answer (connection lost,
 * timeout; even if a retry then got a 4xx), a 5xx, or a cancelled call. An unknown outcome stays
 * reserved until the order or withdrawal is found by replaying its Idempotency-Key (tried before
 * the next spend; the key makes a second creation impossible) or the process ends.
 *
 * Every log line and confirmation text is one sanitised line (src/mcp/text.ts): server text
 * cannot move the cursor, forge a line, ring the bell or write the clipboard.
 * @module
 */
import { randomUUID } from 'node:crypto';
import { TrxRentError, isTrxRentError } from '../errors/index.js';
import { atomicToDecimal } from '../utils/units.js';
import type { ResolvedLimits } from './limits.js';
import { oneLine } from './text.js';

export type Currency = 'TRX' | 'USDT';

/** What a tool does: reads, changes something that is not money (webhooks), or spends. */
export type Access = 'read' | 'write' | 'spend';

/**
 * Asks the user to approve `message`: true approved, false declined (or cancelled), undefined
 * when the client cannot ask (no elicitation support).
 */
export type Confirmer = (message: string) => Promise<boolean | undefined>;

/** Codes of the refusals raised here (the SDK's own codes pass through unchanged). */
export type SpendRefusal = 'READ_ONLY' | 'SPEND_LIMIT' | 'SESSION_LIMIT' | 'DECLINED' | 'CONFIRMATION_REQUIRED';

/** A spend refused before anything was sent. */
export class SpendRefusedError extends TrxRentError {
  constructor(code: SpendRefusal, message: string, details?: Record<string, unknown>) {
    super({ code, message, details });
  }
}

export interface SpendRequest {
  /** The tool, for the log. */
  tool: string;
  currency: Currency;
  /** Most this call can move, in 6-decimal units (SUN for TRX). */
  atomic: bigint;
  /** The per-call cap and its name, or undefined when this kind of spend is off. */
  cap: { atomic: bigint | undefined; flag: string; off: string };
  /** One line for the confirmation and the log, e.g. `rent 65000 ENERGY … for at most 5.85 TRX`. */
  summary: string;
}

/**
 * Sends the keyed POST with `idempotencyKey` (the same key on a replay). `signal` is given on a
 * replay (the original call's signal may be gone); the first run uses the call's own.
 */
export type KeyedRun<T> = (idempotencyKey: string, signal?: AbortSignal) => Promise<T>;

/** A spend whose outcome is unknown: reserved until found by its key. */
interface Unknown<T = unknown> {
  request: SpendRequest;
  key: string;
  run: KeyedRun<T>;
  describe: (result: T) => string;
}

/** Codes that mean nothing was done: refused before sending, or a definite answer of the service. */
const NOTHING_DONE = new Set(['VALIDATION_ERROR', 'INVALID_ADDRESS', 'INSECURE_TRANSPORT', 'CONFIGURATION_ERROR', 'PROVIDER_UNAVAILABLE', 'MAINTENANCE']);

/** Answers to a replay that do not tell whether the first request was carried out. */
const INCONCLUSIVE = new Set([401, 403, 408, 409, 425, 429]);

/**
 * `refused`: a definite answer that nothing was done (a 4xx to every attempt, or refused before
 * sending). `unknown`: it may have been done (an attempt got no answer, a 5xx, a cancelled call).
 */
export function outcomeOf(error: unknown): 'refused' | 'unknown' {
  if (!isTrxRentError(error)) return 'unknown';
  if ((error as { outcomeUnknown?: boolean }).outcomeUnknown || error.code === 'CONNECTION_ERROR' || error.code === 'TIMEOUT') return 'unknown';
  // A 2xx that failed to parse (INVALID_RESPONSE) or a 3xx was an answer that may mean done.
  return (error.status !== undefined && error.status >= 400 && error.status < 500) || (error.status === undefined && NOTHING_DONE.has(error.code)) || (error.status === 503 && NOTHING_DONE.has(error.code))
    ? 'refused'
    : 'unknown';
}

/** `5.85 TRX` */
export function money(atomic: bigint, currency: Currency): string {
  return `${atomicToDecimal(atomic, 6)} ${currency}`;
}

export class SpendGuard {
  readonly allowSpend: boolean;
  /** Spend when the client cannot ask the user (an explicit server flag). */
  readonly spendWithoutConfirmation: boolean;
  readonly limits: ResolvedLimits;
  readonly #log: (line: string) => void;
  readonly #spent: Record<Currency, bigint> = { TRX: 0n, USDT: 0n };
  readonly #reserved: Record<Currency, bigint> = { TRX: 0n, USDT: 0n };
  readonly #unknown = new Set<Unknown>();
  #reconciling: Promise<void> | undefined;

  constructor(options: { allowSpend: boolean; spendWithoutConfirmation?: boolean | undefined; limits: ResolvedLimits; log: (line: string) => void }) {
    this.allowSpend = options.allowSpend;
    this.spendWithoutConfirmation = Boolean(options.spendWithoutConfirmation);
    this.limits = options.limits;
    this.#log = options.log;
  }

  /** Spent so far by this server process, per currency, in 6-decimal units. */
  spent(currency: Currency): bigint {
    return this.#spent[currency];
  }

  /** Reserved now (calls in flight and unknown outcomes), per currency. */
  reserved(currency: Currency): bigint {
    return this.#reserved[currency];
  }

  /** How many spends have an unknown outcome (still reserved). */
  get unknownOutcomes(): number {
    return this.#unknown.size;
  }

  /** What is left of the cap for `currency` (reservations in flight and unknown outcomes excluded). */
  remaining(currency: Currency): bigint {
    const left = this.limits.sessionAtomic - this.#spent[currency] - this.#reserved[currency];
    return left > 0n ? left : 0n;
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
    const text = oneLine(what);
    let answer: boolean | undefined;
    try {
      answer = await ask(`${text}. Approve?`);
    } catch (error) {
      throw new SpendRefusedError('DECLINED', `Could not get the user's confirmation (${oneLine(String((error as Error)?.message ?? error))}); nothing was spent.`);
    }
    if (answer === true) return;
    if (answer === false) throw new SpendRefusedError('DECLINED', 'The user declined; nothing was spent.');
    if (!this.spendWithoutConfirmation) {
      throw new SpendRefusedError(
        'CONFIRMATION_REQUIRED',
        'This client cannot ask the user to confirm a spend (it declares no elicitation support), so nothing was spent. ' +
          'Use a client that supports elicitation, or the user can restart the server with --spend-without-confirmation (the caps still apply).',
      );
    }
    this.log(`not confirmed (the client cannot ask; --spend-without-confirmation): ${text}`);
  }

  /**
   * Caps, reservation, confirmation, then `run` with a fresh Idempotency-Key. The reservation
   * becomes spent when `run` succeeds, is released when the service refused with a definite
   * answer, and stays reserved while the outcome is unknown (see the module comment).
   */
  async spend<T>(request: SpendRequest, ask: Confirmer, run: KeyedRun<T>, describe: (result: T) => string): Promise<T> {
    const { currency, atomic, cap } = request;
    if (cap.atomic === undefined) throw new SpendRefusedError('SPEND_LIMIT', cap.off, { limit: cap.flag });
    if (atomic > cap.atomic) {
      throw new SpendRefusedError(
        'SPEND_LIMIT',
        `${request.summary}: more than the per-call cap of ${money(cap.atomic, currency)} (${cap.flag}); nothing was sent.`,
        { limit: cap.flag, cap: atomicToDecimal(cap.atomic, 6), amount: atomicToDecimal(atomic, 6), currency },
      );
    }
    if (this.#unknown.size) await this.reconcile();
    if (atomic > this.remaining(currency)) {
      const held = this.#reserved[currency];
      throw new SpendRefusedError(
        'SESSION_LIMIT',
        `${request.summary}: over the server's cap (${money(this.#spent[currency], currency)} spent${held ? ` and ${money(held, currency)} reserved (in flight or outcome unknown)` : ''} of ${money(this.limits.sessionAtomic, currency)}, --session-limit, shared by every session of this server); nothing was sent.`,
        { limit: '--session-limit', spent: atomicToDecimal(this.#spent[currency], 6), reserved: atomicToDecimal(held, 6), cap: atomicToDecimal(this.limits.sessionAtomic, 6), currency },
      );
    }
    this.#reserved[currency] += atomic;
    try {
      await this.confirm(ask, request.summary);
    } catch (error) {
      this.#settle(request, false);
      this.log(`refused ${request.tool}: ${request.summary} (${(error as TrxRentError).code ?? 'DECLINED'})`);
      throw error;
    }
    const key = randomUUID();
    let result: T;
    try {
      result = await run(key);
    } catch (error) {
      if (outcomeOf(error) === 'refused') {
        this.#settle(request, false);
        this.log(`not spent ${request.tool}: refused (${(error as TrxRentError).code})`);
        throw error;
      }
      this.#unknown.add({ request, key, run: run as KeyedRun<unknown>, describe: describe as (r: unknown) => string });
      this.log(`outcome unknown ${request.tool}: ${request.summary}; stays reserved until found by its idempotency key ${key} (${this.#total(currency)})`);
      throw unknownOutcome(error, request, key);
    }
    this.#settle(request, true);
    this.log(`spent ${request.tool}: ${describe(result)} (${this.#total(currency)})`);
    return result;
  }

  /**
   * Looks for every spend of unknown outcome by replaying its keyed POST once (the same key and
   * body: the service answers with what it created, or creates it now within the reservation the
   * user approved). Found: spent. A definite refusal: released. Still no answer: stays reserved.
   * One reconciliation at a time; concurrent callers wait for the same one.
   */
  reconcile(): Promise<void> {
    this.#reconciling ??= this.#reconcileAll().finally(() => (this.#reconciling = undefined));
    return this.#reconciling;
  }

  async #reconcileAll(): Promise<void> {
    for (const entry of [...this.#unknown]) {
      const { request, key } = entry;
      let result: unknown;
      try {
        result = await entry.run(key, AbortSignal.timeout(30_000));
      } catch (error) {
        // Rate limits, timeouts and auth come before the service looks the key up: they say
        // nothing about the first request. Any other definite refusal of the same body does.
        if (outcomeOf(error) === 'refused' && !INCONCLUSIVE.has((error as TrxRentError).status ?? 0)) {
          this.#unknown.delete(entry);
          this.#settle(request, false);
          this.log(`not spent ${request.tool} (idempotency key ${key}): the service refused it (${(error as TrxRentError).code}); reservation released`);
        }
        continue;
      }
      this.#unknown.delete(entry);
      this.#settle(request, true);
      this.log(`found ${request.tool} (idempotency key ${key}): ${entry.describe(result)} (${this.#total(request.currency)})`);
    }
  }

  #settle(request: SpendRequest, spent: boolean): void {
    this.#reserved[request.currency] -= request.atomic;
    if (spent) this.#spent[request.currency] += request.atomic;
  }

  #total(currency: Currency): string {
    const held = this.#reserved[currency];
    return `server total ${money(this.#spent[currency], currency)}${held ? ` + ${money(held, currency)} reserved` : ''} of ${money(this.limits.sessionAtomic, currency)}`;
  }
}

/** The error of a spend whose outcome is unknown: the SDK's code, and what the agent should know. */
function unknownOutcome(error: unknown, request: SpendRequest, key: string): TrxRentError {
  const base = isTrxRentError(error) ? error : undefined;
  return new TrxRentError({
    code: base?.code ?? 'OUTCOME_UNKNOWN',
    status: base?.status,
    message:
      `${base?.message ?? String((error as Error)?.message ?? error)} The outcome is unknown: it may have gone through. ` +
      `Its amount (${money(request.atomic, request.currency)}) stays reserved against the caps until the server finds it by its idempotency key (checked before the next spend). ` +
      'Check list_orders (or get_balance) before trying again.',
    details: { ...base?.details, outcome: 'unknown', idempotency_key: key },
    requestId: base?.requestId,
    cause: error,
  });
}
