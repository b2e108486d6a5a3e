/**
 * Request deadlines without a timer per request. A `setTimeout` + `clearTimeout` pair costs
 * about 3 µs per call on the hot path (a Timeout object, two timer-list updates), 1 % of a
 * loopback request; requests with the same timeout share one queue instead, in start order,
 * with one timer armed for the earliest deadline still pending. Finishing a request is a flag.
 *
 * The timer is unref'd (as undici's own fast timers are): a deadline never keeps a process
 * alive, the request's socket does.
 * @module
 */

/** A pending deadline; `cancel()` it when the request ends first. */
export interface Deadline {
  cancel(): void;
}

interface Entry extends Deadline {
  at: number;
  done: boolean;
  fire: () => void;
}

const now = () => performance.now();

class Queue {
  readonly #ms: number;
  readonly #onEmpty: () => void;
  readonly #entries: Entry[] = [];
  #head = 0;
  #armed = false;

  constructor(ms: number, onEmpty: () => void) {
    this.#ms = ms;
    this.#onEmpty = onEmpty;
  }

  add(fire: () => void): Deadline {
    const entry: Entry = {
      at: now() + this.#ms,
      done: false,
      fire,
      cancel: () => {
        entry.done = true;
        this.#drop();
      },
    };
    this.#entries.push(entry);
    if (!this.#armed) this.#arm(entry.at);
    return entry;
  }

  /** Forget finished entries at the head (the usual case: requests end in the order they start). */
  #drop(): void {
    const entries = this.#entries;
    while (this.#head < entries.length && entries[this.#head]!.done) this.#head++;
    if (this.#head === entries.length) {
      entries.length = 0;
      this.#head = 0;
    } else if (this.#head > 1024) {
      entries.splice(0, this.#head);
      this.#head = 0;
    }
  }

  #arm(at: number): void {
    this.#armed = true;
    // setTimeout takes at most 2^31-1 ms; a later deadline is simply re-armed when that passes.
    const timer = setTimeout(() => this.#tick(), Math.min(2_147_483_647, Math.max(0, Math.ceil(at - now()))));
    (timer as { unref?: () => void }).unref?.();
  }

  #tick(): void {
    this.#armed = false;
    const t = now();
    const entries = this.#entries;
    while (this.#head < entries.length) {
      const entry = entries[this.#head]!;
      if (!entry.done && entry.at > t) break;
      this.#head++;
      if (!entry.done) {
        entry.done = true;
        entry.fire();
      }
    }
    this.#drop();
    if (entries.length === 0) this.#onEmpty();
    else this.#arm(entries[this.#head]!.at);
  }
}

const queues = new Map<number, Queue>();

/** Calls `fire` once `ms` milliseconds from now, unless cancelled first. */
export function deadline(ms: number, fire: () => void): Deadline {
  let queue = queues.get(ms);
  if (!queue) {
    queue = new Queue(ms, () => queues.delete(ms));
    queues.set(ms, queue);
  }
  return queue.add(fire);
}
