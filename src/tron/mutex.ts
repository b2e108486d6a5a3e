/**
 * One process works on one address at a time: `resources.ensure` per address and
 * `transfers.send` per sender wait their turn here, so two concurrent calls cannot both see the
 * same deficit and buy twice, or sign two transfers from one sender against one rental.
 * @module
 */

/** A lock per key: `run(key, job)` starts `job` once every earlier job on `key` has settled. */
export interface KeyedMutex {
  run<T>(key: string, job: () => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Keys with a job running or waiting (for tests: empty once all settled). */
  readonly size: number;
}

/** A new {@link KeyedMutex}; its map holds only keys with work in flight. */
export function keyedMutex(): KeyedMutex {
  const tails = new Map<string, Promise<void>>();
  return {
    get size() {
      return tails.size;
    },
    async run<T>(key: string, job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
      const before = tails.get(key) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((resolve) => (release = resolve));
      const tail = before.then(() => mine);
      tails.set(key, tail);
      try {
        if (signal) {
          // Waiting for the turn is cancellable; the queue stays ordered (this turn passes at once).
          await new Promise<void>((resolve, reject) => {
            if (signal.aborted) return reject(signal.reason);
            const onAbort = () => reject(signal.reason);
            signal.addEventListener('abort', onAbort, { once: true });
            before.then(() => {
              signal.removeEventListener('abort', onAbort);
              resolve();
            });
          });
        } else {
          await before;
        }
        return await job();
      } finally {
        release();
        if (tails.get(key) === tail) tails.delete(key);
      }
    },
  };
}

/** The process's locks: ensure per target address, send per sender. */
export const ENSURE_LOCKS = keyedMutex();
export const SEND_LOCKS = keyedMutex();
