/**
 * `timeoutMs` as a total deadline for `transfers.send` and `resources.ensure`: one instant on the
 * SDK clock that every wait, poll and request of the call is held to, and (on the system clock)
 * a signal that aborts whatever is in flight when it passes.
 * @module
 */
import { TimeoutError } from '../errors/index.js';
import { type Clock, systemClock } from '../utils/clock.js';

/** The deadline of one call. */
export interface Deadline {
  /** The instant (clock ms) the call must end by. */
  readonly at: number;
  /** The caller's signal, joined (on the system clock) with the deadline's own. */
  readonly signal: AbortSignal | undefined;
  /** Milliseconds left (0 once passed). */
  left(): number;
  /** A per-request timeout: what is left, at least 1 ms, at most `cap`. */
  budget(cap?: number): number;
  /** True once the deadline (not the caller) ended the call. */
  expired(): boolean;
  /** Turn an abort by the deadline into a TimeoutError (other errors pass as they are). */
  translate(error: unknown, message: string): unknown;
}

/** Start the deadline of a call of `timeoutMs` on `clock`. */
export function startDeadline(clock: Clock, timeoutMs: number, caller: AbortSignal | undefined): Deadline {
  const at = clock.now() + timeoutMs;
  // Only wall time can abort a request in flight; a virtual clock bounds each call's timeout instead.
  const own = clock === systemClock && typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(Math.max(1, timeoutMs)) : undefined;
  const signal = own && caller && typeof AbortSignal.any === 'function' ? AbortSignal.any([caller, own]) : (caller ?? own);
  const left = () => Math.max(0, at - clock.now());
  const expired = () => (own?.aborted ?? false) || (!caller?.aborted && left() === 0);
  return {
    at,
    signal,
    left,
    budget: (cap = 15_000) => Math.max(1, Math.min(cap, left())),
    expired,
    translate(error, message) {
      if (caller?.aborted || error instanceof TimeoutError) return error;
      if (own?.aborted) return new TimeoutError(message, error);
      return error;
    },
  };
}
