/**
 * What a spend did, as the guard (`spend.ts`) reads it: the currencies, the guard's own refusal,
 * a job's verdict per currency (spent with its charge, nothing, or not known yet), how one
 * request's error reads (a definite refusal or an unknown outcome), and the job of a spend that
 * is one keyed POST (create_order, withdraw), whose lookup is its replay with the same key
 * within half the key's 24 h (the rules' window: past it a replay could place a new order).
 * @module
 */
import { TrxRentError, isTrxRentError, outcomeOf } from '../errors/index.js';
import { LIMITS } from '../schemas/limits.js';
import { atomicToDecimal } from '../utils/units.js';

/** How long after a keyed POST its replay is still its lookup: half the service's 24 h key validity (as the rules'). */
export const REPLAY_WINDOW_MS = LIMITS.IDEMPOTENCY_TTL_MS / 2;

/** The currencies a spend is capped in (TRX in SUN, USDT in 6-decimal units). */
export type Currency = 'TRX' | 'USDT';

/** Codes of the refusals raised here (the SDK's own codes pass through unchanged). */
export type SpendRefusal = 'READ_ONLY' | 'SPEND_LIMIT' | 'SESSION_LIMIT' | 'DECLINED' | 'CONFIRMATION_REQUIRED';

/** A spend refused before anything was sent. */
export class SpendRefusedError extends TrxRentError {
  constructor(code: SpendRefusal, message: string, details?: Record<string, unknown>) {
    super({ code, message, details });
  }
}

/** What became of one currency of a spend: charged (`atomic` omitted: what was reserved), nothing, or not known yet. */
export type Outcome = { state: 'spent'; atomic?: bigint | undefined } | { state: 'none' } | { state: 'pending' };

/** What a job knows it did, per currency (a reserved currency left out is `pending`), and one line for the log. */
export interface Known {
  outcomes: Partial<Record<Currency, Outcome>>;
  what: string;
  /** Ids an agent can look up itself (snake_case, e.g. `tx_id`, `order_ids`), added to an unknown outcome's error details. */
  ids?: Record<string, unknown> | undefined;
}

/**
 * The work of one spend. `run` does it once; `done`/`failed` say what it did from what it
 * recorded (no network); `lookup` settles what is still pending by looking it up, never by
 * doing it again: an order or transaction by its id, or a keyed POST replayed with the SAME
 * Idempotency-Key and body (the service answers with what the first request created).
 */
export interface SpendJob<T> {
  run(idempotencyKey: string): Promise<T>;
  done(result: T): Known;
  failed(error: unknown, idempotencyKey: string): Known;
  lookup(idempotencyKey: string, signal: AbortSignal): Promise<Known>;
  /** What the server's spend journal keeps of the spend, so that a later server process can look it up. */
  journaled?: Journaled | undefined;
}

/** The part of `effects.ts`'s journal of a spend that the guard writes down (its snapshot is an `EffectsSnapshot`). */
export interface JournaledEffects {
  snapshot(): object;
  bind(sink: (snapshot: object) => Promise<void>): void;
}

/** The request of a spend that is one keyed POST: replayed with the spend's key (its Idempotency-Key) to settle it. */
export interface KeyedRequest {
  endpoint: 'createOrder' | 'createWithdrawal';
  /** The body as sent. */
  body: Record<string, unknown>;
  /** The tool's arguments as the agent gave them, canonical JSON: a call again with the same ones is a retry. */
  args: string;
}

/**
 * What the spend journal (`spend-journal.ts`) keeps of a spend: a chain spend's effects (bound
 * to the journal while it runs) and the token it moves, or a keyed POST's request.
 */
export interface Journaled {
  effects?: JournaledEffects | undefined;
  token?: { currency: Currency; atomic: bigint; label: string } | undefined;
  request?: KeyedRequest | undefined;
}

/** Answers to a replay that do not tell whether the first request was carried out. */
export const INCONCLUSIVE = new Set([401, 403, 408, 409, 425, 429]);

/**
 * Of one request, as the guard reads it: `refused`, nothing was done (the guard's own refusal,
 * or the SDK's one verdict, `outcomeOf` of `src/errors`, says not sent); `unknown`, it may have
 * been done (held against the caps until looked up).
 */
export function guardOutcome(error: unknown): 'refused' | 'unknown' {
  if (error instanceof SpendRefusedError) return 'refused';
  return outcomeOf(error) === 'not_sent' ? 'refused' : 'unknown';
}

/**
 * The job of a spend that is one keyed POST (create_order, withdraw): replaying it with the same
 * key is the lookup, within {@link REPLAY_WINDOW_MS} of the first attempt (past it, it counts as
 * spent at what was reserved, never replayed). `charged` gives the charge once the answer shows
 * it (default: what was reserved). `journal`: the request the spend journal keeps, and when it
 * was first sent (a spend an earlier process left) with the clock that reads the window.
 */
export function keyedPost<T>(
  currency: Currency,
  post: (idempotencyKey: string, signal?: AbortSignal) => Promise<T>,
  describe: (result: T) => string,
  charged?: (result: T) => bigint | undefined,
  journal?: { request: KeyedRequest; sentAt?: number | undefined; now?: (() => number) | undefined },
): SpendJob<T> {
  const done = (result: T): Known => ({ outcomes: { [currency]: { state: 'spent', atomic: charged?.(result) } }, what: describe(result) });
  const nothing = (error: unknown): Known => ({ outcomes: { [currency]: { state: 'none' } }, what: `refused (${codeOf(error)})` });
  const now = journal?.now ?? Date.now;
  let sentAt = journal?.sentAt;
  return {
    ...(journal ? { journaled: { request: journal.request } } : {}),
    run: (key) => {
      sentAt ??= now();
      return post(key);
    },
    done,
    failed: (error) => (guardOutcome(error) === 'refused' ? nothing(error) : { outcomes: {}, what: `no answer (${codeOf(error)})` }),
    async lookup(key, signal) {
      if (sentAt !== undefined && now() - sentAt > REPLAY_WINDOW_MS) {
        return {
          outcomes: { [currency]: { state: 'spent' } },
          what: `not replayed: its Idempotency-Key is older than ${REPLAY_WINDOW_MS / 3_600_000} h (counted at what was reserved)`,
        };
      }
      try {
        return done(await post(key, signal));
      } catch (error) {
        // Rate limits, timeouts and auth come before the service looks the key up: they say
        // nothing about the first request. Any other definite refusal of the same body does.
        if (guardOutcome(error) === 'refused' && !INCONCLUSIVE.has((error as TrxRentError).status ?? 0)) return nothing(error);
        return { outcomes: {}, what: `still unknown (${codeOf(error)})` };
      }
    },
  };
}
/** `5.85 TRX` */
export function money(atomic: bigint, currency: Currency): string {
  return `${atomicToDecimal(atomic, 6)} ${currency}`;
}

/** The error's code, for a log line. */
export function codeOf(error: unknown): string {
  return isTrxRentError(error) ? error.code : error instanceof Error && error.name === 'AbortError' ? 'CANCELLED' : 'ERROR';
}

/** `outcome` for every currency of `held`. */
export function allOf(held: Map<Currency, unknown>, outcome: Outcome): Partial<Record<Currency, Outcome>> {
  return Object.fromEntries([...held.keys()].map((c) => [c, outcome]));
}

/** A job's verdict, or (should the job itself throw) the safe one: everything `fallback`. */
export function safely(verdict: () => Known, held: Map<Currency, unknown>, fallback: 'pending' | 'spent' = 'pending'): Known {
  try {
    return verdict();
  } catch {
    return { outcomes: fallback === 'spent' ? allOf(held, { state: 'spent' }) : {}, what: fallback === 'spent' ? 'done' : 'outcome unknown' };
  }
}

/**
 * The error of a spend whose outcome is unknown: the SDK's code, and what the agent should know.
 * `retried`: the tool of a keyed POST, which a call again with the same arguments retries.
 */
export function unknownOutcome(
  error: unknown,
  reserved: Map<Currency, { amount: bigint }>,
  key: string,
  ids?: Record<string, unknown>,
  retried?: string,
): TrxRentError {
  const base = isTrxRentError(error) ? error : undefined;
  const held = [...reserved].map(([currency, r]) => money(r.amount, currency)).join(' and ');
  return new TrxRentError({
    code: base?.code ?? 'OUTCOME_UNKNOWN',
    status: base?.status,
    message:
      `${base?.message ?? String((error as Error)?.message ?? error)} The outcome is unknown: it may have gone through. ` +
      `${held} stays reserved against the caps until the server looks it up by what it recorded (the order, the transaction, idempotency key ${key}; checked before the next spend). ` +
      (retried
        ? `Calling ${retried} again with the same arguments (within ${REPLAY_WINDOW_MS / 3_600_000} h) is answered with what this call did (the same Idempotency-Key), never a second spend.`
        : 'Check list_orders (or get_balance) before trying again: running the tool again would be a new spend.'),
    details: { ...base?.details, ...ids, outcome: 'unknown', idempotency_key: key },
    requestId: base?.requestId,
    cause: error,
  });
}
