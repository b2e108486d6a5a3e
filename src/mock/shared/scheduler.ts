/**
 * Timed work (order steps, deposit credits, withdrawal completion, webhook retries, price polls)
 * kept in a min-heap ordered by due time, then by insertion. Nothing runs by itself here: the
 * state runs due tasks on each request, from a timer (real clock) and on advance() (any clock).
 */
export interface ScheduledTask {
  readonly id: number;
  readonly at: number;
  readonly label: string;
  cancelled: boolean;
  run(): void;
}

export class Scheduler {
  #heap: ScheduledTask[] = [];
  #seq = 0;
  #last: ScheduledTask | undefined;
  /** Called whenever the earliest due time may have changed (the real-clock timer re-arms). */
  onChange: (() => void) | undefined;
  /** A task that throws is reported here and the others still run (it is a bug if it happens). */
  onError: ((error: unknown, task: ScheduledTask) => void) | undefined;

  schedule(at: number, label: string, run: () => void): ScheduledTask {
    const task: ScheduledTask = { id: ++this.#seq, at, label, cancelled: false, run };
    this.#last = task;
    this.#heap.push(task);
    this.#up(this.#heap.length - 1);
    if (this.#heap[0] === task) this.onChange?.();
    return task;
  }

  get size(): number {
    return this.#heap.length;
  }

  /** The task scheduled last (nothing was scheduled after it), until the heap is cleared. */
  get last(): ScheduledTask | undefined {
    return this.#last;
  }

  /** Due time of the earliest live task. */
  peek(): number | undefined {
    this.#dropCancelled();
    return this.#heap[0]?.at;
  }

  /**
   * Run every task due at or before `now`, earliest first; tasks scheduled while running are
   * picked up in the same call when due. Bounded, so a task that reschedules itself at `now`
   * cannot spin forever. Returns how many ran.
   */
  runDue(now: number, max = 100_000): number {
    let ran = 0;
    for (; ran < max; ) {
      this.#dropCancelled();
      const top = this.#heap[0];
      if (!top || top.at > now) break;
      this.#pop();
      top.cancelled = true;
      try {
        top.run();
      } catch (error) {
        this.onError?.(error, top);
      }
      ran++;
    }
    if (ran) this.onChange?.();
    return ran;
  }

  clear(): void {
    this.#heap = [];
    this.#last = undefined;
  }

  #dropCancelled(): void {
    while (this.#heap[0]?.cancelled) this.#pop();
  }

  // The heap moves a hole rather than swapping pairs: a destructuring swap (`[a, b] = [b, a]`)
  // allocated an array per step, and with tens of thousands of tasks queued (every order's select,
  // fill and verify) sifting was a tenth of an order's CPU.

  #pop(): ScheduledTask | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length && last) this.#down(0, last);
    return top;
  }

  /** Put `task`, now at index `i`, where it belongs above. */
  #up(i: number): void {
    const heap = this.#heap;
    const task = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const above = heap[parent]!;
      if (!less(task, above)) break;
      heap[i] = above;
      i = parent;
    }
    heap[i] = task;
  }

  /** Place `task` at the hole `i`, sifting it down. */
  #down(i: number, task: ScheduledTask): void {
    const heap = this.#heap;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const child = r < n && less(heap[r]!, heap[l]!) ? r : l;
      const below = heap[child]!;
      if (!less(below, task)) break;
      heap[i] = below;
      i = child;
    }
    heap[i] = task;
  }
}

/** Earlier due time first; the same time in insertion order. */
function less(a: ScheduledTask, b: ScheduledTask): boolean {
  return a.at < b.at || (a.at === b.at && a.id < b.id);
}
