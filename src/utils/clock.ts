/**
 * The SDK's one notion of time. Every wait and poll (retry backoff, `orders.waitFor`, the
 * transfer engine's delegation and receipt waits, long-running workflows) reads `now()` and
 * waits with `sleep()` from a {@link Clock}, so a test can run ten minutes of polling on a
 * virtual clock in milliseconds, and a workflow can be driven by the mock's manual clock.
 * @module
 */
import { TimeoutError } from '../errors/index.js';

/** Time as the SDK sees it: the current instant and a cancellable wait. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolve after `ms` of this clock's time; reject with the signal's reason when it aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Wall time and real timers (the default). */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(
        () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        Math.max(0, ms),
      );
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** Something whose time can be read and moved forward, e.g. the mock's manual clock (`MockClock`). */
export interface AdvanceableTime {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Move time forward by `ms`. */
  advance(ms: number): void;
}

/**
 * A clock whose sleeps move `time` forward instead of waiting: with the mock's manual clock
 * (`startMockServer({ clock: 'manual' })`), a client on `virtualClock(mock.clock)` polls ten
 * minutes of order progress in a few milliseconds, and the mock sees exactly that time pass.
 * Each sleep still yields to the event loop once, so other work (requests in flight) goes on.
 */
export function virtualClock(time: AdvanceableTime): Clock {
  return {
    now: () => time.now(),
    sleep: (ms, signal) =>
      new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        if (ms > 0) time.advance(ms);
        setImmediate(() => (signal?.aborted ? reject(signal.reason) : resolve()));
      }),
  };
}

/** Options of {@link pollUntil}. */
export interface PollOptions {
  /** Give up after this long (a TimeoutError from `timeoutMessage`). */
  timeoutMs: number;
  /** First wait between polls. @default 500 */
  intervalMs?: number | undefined;
  /** Ceiling of the wait between polls. @default 6000 */
  maxIntervalMs?: number | undefined;
  /** Growth of the wait after each poll. @default 1.5 */
  factor?: number | undefined;
  clock?: Clock | undefined;
  signal?: AbortSignal | undefined;
  /** The message of the TimeoutError, given the last value polled (undefined if none). */
  timeoutMessage?: ((last: unknown, elapsedMs: number) => string) | undefined;
}

/** What one poll decided: done with a value, or not yet (with the value seen, for the timeout message). */
export type PollStep<T> = { done: true; value: T } | { done: false; last?: unknown };

/**
 * The one poll loop: call `poll` until it says done, waiting between calls with a growing
 * interval on `clock`, never past the deadline; the last wait is cut to what is left, and one
 * more poll runs at the deadline before giving up. Errors from `poll` propagate as they are.
 */
export async function pollUntil<T>(poll: (remainingMs: number) => Promise<PollStep<T>>, options: PollOptions): Promise<T> {
  const clock = options.clock ?? systemClock;
  const started = clock.now();
  const deadline = started + options.timeoutMs;
  const factor = options.factor ?? 1.5;
  const maxInterval = options.maxIntervalMs ?? 6_000;
  let interval = options.intervalMs ?? 500;
  let last: unknown;
  for (;;) {
    if (options.signal?.aborted) throw options.signal.reason;
    const step = await poll(Math.max(0, deadline - clock.now()));
    if (step.done) return step.value;
    last = step.last;
    const left = deadline - clock.now();
    if (left <= 0) {
      const elapsed = clock.now() - started;
      throw new TimeoutError(options.timeoutMessage?.(last, elapsed) ?? `Still waiting after ${options.timeoutMs} ms`);
    }
    await clock.sleep(Math.min(interval, left), options.signal);
    interval = Math.min(maxInterval, Math.ceil(interval * factor));
  }
}
