/**
 * Money control of one MCP session: read-only unless spending was allowed, per-call caps and a
 * per-session cap (per currency) on order costs and withdrawals, the user's confirmation before
 * each spend (where the client can ask), and a line on stderr for every spend. x402 payments are
 * capped by the x402 client's own spend control (`maxPayment`, `budget`); their confirmation
 * and log lines come through here too.
 *
 * A spend is reserved before anything is sent (concurrent calls cannot overrun the session cap),
 * released when the service answered with an error (nothing was created), and kept when the
 * outcome is unknown (a lost connection: it may have gone through).
 * @module
 */
import { TrxRentError, isTrxRentError } from '../errors/index.js';
import { atomicToDecimal } from '../utils/units.js';
import type { ResolvedLimits } from './limits.js';

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

/** Codes that mean nothing was done: refused before sending, or a definite answer of the service. */
const NOTHING_DONE = new Set(['VALIDATION_ERROR', 'INVALID_ADDRESS', 'INSECURE_TRANSPORT', 'CONFIGURATION_ERROR', 'PROVIDER_UNAVAILABLE', 'MAINTENANCE']);

/** The service (or the SDK before sending) refused: a 4xx answer or one of NOTHING_DONE. */
function wasRefused(error: unknown): boolean {
  if (!isTrxRentError(error)) return false;
  return (error.status !== undefined && error.status < 500) || NOTHING_DONE.has(error.code);
}

/** `5.85 TRX` */
export function money(atomic: bigint, currency: Currency): string {
  return `${atomicToDecimal(atomic, 6)} ${currency}`;
}

export class SpendGuard {
  readonly allowSpend: boolean;
  readonly requireConfirmation: boolean;
  readonly limits: ResolvedLimits;
  readonly #log: (line: string) => void;
  readonly #spent: Record<Currency, bigint> = { TRX: 0n, USDT: 0n };
  readonly #reserved: Record<Currency, bigint> = { TRX: 0n, USDT: 0n };

  constructor(options: { allowSpend: boolean; requireConfirmation?: boolean | undefined; limits: ResolvedLimits; log: (line: string) => void }) {
    this.allowSpend = options.allowSpend;
    this.requireConfirmation = Boolean(options.requireConfirmation);
    this.limits = options.limits;
    this.#log = options.log;
  }

  /** Spent (or possibly spent) so far in this session, per currency, in 6-decimal units. */
  spent(currency: Currency): bigint {
    return this.#spent[currency];
  }

  /** What is left of the session cap for `currency` (reservations in flight excluded). */
  remaining(currency: Currency): bigint {
    const left = this.limits.sessionAtomic - this.#spent[currency] - this.#reserved[currency];
    return left > 0n ? left : 0n;
  }

  log(line: string): void {
    this.#log(line);
  }

  /** Refuses a tool that writes or spends when the session is read-only. */
  checkAccess(tool: string, access: Access): void {
    if (access === 'read' || this.allowSpend) return;
    throw new SpendRefusedError(
      'READ_ONLY',
      `${tool} ${access === 'spend' ? 'spends money' : 'changes the account'}; this server is read-only. The user can restart it with --allow-spend (caps and confirmation still apply).`,
      { tool },
    );
  }

  /**
   * The user's approval of `what` (one sentence), or a refusal: declined, or no way to ask when
   * confirmation is required.
   */
  async confirm(ask: Confirmer, what: string): Promise<void> {
    let answer: boolean | undefined;
    try {
      answer = await ask(`${what}. Approve?`);
    } catch (error) {
      throw new SpendRefusedError('DECLINED', `Could not get the user's confirmation (${(error as Error)?.message ?? String(error)}); nothing was spent.`);
    }
    if (answer === true) return;
    if (answer === false) throw new SpendRefusedError('DECLINED', 'The user declined; nothing was spent.');
    if (this.requireConfirmation) {
      throw new SpendRefusedError('CONFIRMATION_REQUIRED', 'This client cannot ask the user to confirm (no elicitation support) and the server requires confirmation; nothing was spent.');
    }
    this.#log(`not confirmed (the client cannot ask): ${what}`);
  }

  /**
   * Caps, reservation, confirmation, then `run`. The reservation becomes spent when `run`
   * succeeds or its outcome is unknown, and is released when the service refused (4xx).
   */
  async spend<T>(request: SpendRequest, ask: Confirmer, run: () => Promise<T>, describe: (result: T) => string): Promise<T> {
    const { currency, atomic, cap } = request;
    if (cap.atomic === undefined) throw new SpendRefusedError('SPEND_LIMIT', cap.off, { limit: cap.flag });
    if (atomic > cap.atomic) {
      throw new SpendRefusedError(
        'SPEND_LIMIT',
        `${request.summary}: more than the per-call cap of ${money(cap.atomic, currency)} (${cap.flag}); nothing was sent.`,
        { limit: cap.flag, cap: atomicToDecimal(cap.atomic, 6), amount: atomicToDecimal(atomic, 6), currency },
      );
    }
    if (atomic > this.remaining(currency)) {
      throw new SpendRefusedError(
        'SESSION_LIMIT',
        `${request.summary}: over the session cap (${money(this.#spent[currency], currency)} spent of ${money(this.limits.sessionAtomic, currency)}, --session-limit); nothing was sent.`,
        { limit: '--session-limit', spent: atomicToDecimal(this.#spent[currency], 6), cap: atomicToDecimal(this.limits.sessionAtomic, 6), currency },
      );
    }
    this.#reserved[currency] += atomic;
    let settled = false;
    const settle = (spent: boolean) => {
      if (settled) return;
      settled = true;
      this.#reserved[currency] -= atomic;
      if (spent) this.#spent[currency] += atomic;
    };
    try {
      await this.confirm(ask, request.summary);
    } catch (error) {
      settle(false);
      this.#log(`refused ${request.tool}: ${request.summary} (${(error as TrxRentError).code ?? 'DECLINED'})`);
      throw error;
    }
    let result: T;
    try {
      result = await run();
    } catch (error) {
      const refused = wasRefused(error);
      settle(!refused);
      this.#log(
        refused
          ? `not spent ${request.tool}: refused (${(error as TrxRentError).code})`
          : `outcome unknown ${request.tool}: ${request.summary}; counted as spent (session ${this.#session(currency)})`,
      );
      throw error;
    }
    settle(true);
    this.#log(`spent ${request.tool}: ${describe(result)} (session ${this.#session(currency)})`);
    return result;
  }

  #session(currency: Currency): string {
    return `${money(this.#spent[currency], currency)} of ${money(this.limits.sessionAtomic, currency)}`;
  }
}
