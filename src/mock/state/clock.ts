/**
 * The mock's notion of time. Every rule that involves time (order steps, price polls, rate-limit
 * windows, idempotency expiry, webhook retries, JWT expiry) reads `now()` from here, so a manual
 * clock makes all of them testable without waiting.
 */
export interface MockClock {
  /** 'real' follows wall time (plus any advance); anything else only moves on advance(). */
  readonly kind: 'real' | 'manual' | (string & {});
  /** Current time in ms since the epoch. */
  now(): number;
  /** Move time forward by `ms` (manual: exactly; real: adds an offset to wall time). */
  advance(ms: number): void;
}

/** A clock to use: 'real' (wall time), 'manual' (moves only on advance), or your own. */
export type ClockOption = 'real' | 'manual' | MockClock;

/**
 * Wall time. `advance(ms)` jumps ahead by adding an offset (useful on a long-running server).
 * `offset`: start that far ahead already (a restored state keeps its advanced clock).
 */
export function createRealClock(offset = 0): MockClock & { readonly offset: number } {
  return {
    kind: 'real',
    get offset() {
      return offset;
    },
    now: () => Date.now() + offset,
    advance(ms: number) {
      checkStep(ms);
      offset += ms;
    },
  };
}

/** Time that stands still until advanced. Starts at `start` (default: the current wall time). */
export function createManualClock(start: number = Date.now()): MockClock {
  let now = start;
  return {
    kind: 'manual',
    now: () => now,
    advance(ms: number) {
      checkStep(ms);
      now += ms;
    },
  };
}

export function resolveClock(option: ClockOption | undefined): MockClock {
  if (option === undefined || option === 'real') return createRealClock();
  if (option === 'manual') return createManualClock();
  return option;
}

/**
 * The clock of a restored world: a real clock keeps its offset (time went on while the mock was
 * stopped, an advance made before stays); a manual one resumes at the saved time; a clock object
 * given by the caller is used as is.
 */
export function restoredClock(option: ClockOption | undefined, saved: { kind: string; now: number; offset: number }): MockClock {
  if (option !== undefined && typeof option === 'object') return option;
  if (option === 'manual' || (option === undefined && saved.kind === 'manual')) return createManualClock(saved.now);
  return createRealClock(saved.kind === 'real' ? saved.offset : saved.now - Date.now());
}

function checkStep(ms: number): void {
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
    throw new RangeError(`advance(ms) needs a finite, non-negative number of milliseconds, got ${String(ms)}`);
  }
}
