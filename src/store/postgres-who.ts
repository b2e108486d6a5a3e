/**
 * Who this process is on the PostgreSQL store (host, pid, a unique holder id per journal
 * instance, for lease rows and JOURNAL_LOCKED messages), and a sleep an abort ends.
 * @module
 */
import { nodeModule } from '../internal/node-module.js';

/** Who this process is, for lease rows and JOURNAL_LOCKED messages. */
export interface Me {
  pid: number;
  host: string;
  /** Unique per journal instance: `host:pid:random`. */
  id(): string;
}

let me: Promise<Me> | undefined;
/** This process (host and pid, loaded once). */
export function whoAmI(): Promise<Me> {
  me ??= Promise.all([nodeModule<typeof import('node:os')>('node:os'), nodeModule<typeof import('node:crypto')>('node:crypto')]).then(([os, crypto]) => ({
    pid: process.pid,
    host: os.hostname(),
    id: () => `${os.hostname()}:${process.pid}:${crypto.randomBytes(6).toString('hex')}`,
  }));
  return me;
}

/** Wait `ms`, or reject with the signal's reason when it aborts first. */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
