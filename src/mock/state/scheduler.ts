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
  /** Called whenever the earliest due time may have changed (the real-clock timer re-arms). */
  onChange: (() => void) | undefined;
  /** A task that throws is reported here and the others still run (it is a bug if it happens). */
  onError: ((error: unknown, task: ScheduledTask) => void) | undefined;

  schedule(at: number, label: string, run: () => void): ScheduledTask {
    const task: ScheduledTask = { id: ++this.#seq, at, label, cancelled: false, run };
    this.#heap.push(task);
    this.#up(this.#heap.length - 1);
    if (this.#heap[0] === task) this.onChange?.();
    return task;
  }

  get size(): number {
    return this.#heap.length;
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
  }

  #dropCancelled(): void {
    while (this.#heap[0]?.cancelled) this.#pop();
  }

  #less(a: ScheduledTask, b: ScheduledTask): boolean {
    return a.at < b.at || (a.at === b.at && a.id < b.id);
  }

  #pop(): ScheduledTask | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length && last) {
      heap[0] = last;
      this.#down(0);
    }
    return top;
  }

  #up(i: number): void {
    const heap = this.#heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.#less(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  #down(i: number): void {
    const heap = this.#heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && this.#less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && this.#less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  }
}
