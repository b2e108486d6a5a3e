/**
 * Timed work of orders, batched so a busy mock keeps few scheduler tasks: the steps of orders
 * (selection, fill) scheduled one after another for the same moment (one task for the run),
 * LIMIT orders re-checked (one task for all that wait), fills marked verified (one task per due
 * time) and rentals ending (one task per second, target and resource, however many fills). The
 * order engine (`orders.ts`) feeds all four.
 * @module
 */
import type { ResourceType } from '../../schemas/common.js';
import type { FillRecord, OrderRecord } from './order-record.js';
import type { OrderTimings } from './order-rules.js';
import type { ScheduledTask, Scheduler } from '../shared/scheduler.js';

/**
 * One step of the order machine (selection, or a fill) for orders due at the same moment and
 * scheduled one right after another: they share one task, which runs the step for each in the
 * order they were scheduled. Only a consecutive run is shared: once anything else was scheduled
 * (any task, at any time) the next order starts a new task, so every task, order steps and the
 * rest, runs in exactly the order one task per step gave (same due time: scheduling order),
 * given what holds for a clock that only moves forward: a step schedules nothing due before
 * its own due time (else that task would have run between two orders of the batch). A
 * bench of POST /orders schedules a dozen selections per millisecond, and one task each was a
 * heap of tens of thousands of tasks and closures.
 */
export class OrderSteps {
  #open: { at: number; task: ScheduledTask; orders: OrderRecord[] } | undefined;

  constructor(
    private readonly scheduler: Scheduler,
    private readonly label: string,
    private readonly step: (order: OrderRecord) => void,
  ) {}

  /** Run the step for `order` at `at`. */
  at(at: number, order: OrderRecord): void {
    const open = this.#open;
    // `cancelled` is set as a task starts running: a task that ran takes no more orders.
    if (open && open.at === at && !open.task.cancelled && this.scheduler.last === open.task) {
      open.orders.push(order);
      return;
    }
    const orders = [order];
    const task = this.scheduler.schedule(at, this.label, () => {
      if (this.#open?.task === task) this.#open = undefined;
      for (const each of orders) {
        try {
          this.step(each);
        } catch (error) {
          // As one task per order did: a bug in one order's step does not stop the others'.
          this.scheduler.onError?.(error, task);
        }
      }
    });
    this.#open = { at, task, orders };
  }
}

/**
 * LIMIT orders still waiting for their price, and the one task that re-checks them all (at each
 * price poll, or at once after a market change).
 */
export class LimitChecks {
  /** The LIMIT orders waiting. */
  readonly waiting = new Set<OrderRecord>();
  #task: ScheduledTask | undefined;

  constructor(
    private readonly deps: {
      scheduler: Scheduler;
      now: () => number;
      timings: OrderTimings;
      /** Start of the next price poll. */
      nextPollAt: () => number;
      /** Try to select a provider for a waiting order (it leaves `waiting` when it is no longer PENDING). */
      select: (order: OrderRecord) => void;
    },
  ) {}

  /** Re-check every waiting order at `at`, unless a check is due by then already. */
  scheduleAt(at: number): void {
    if (this.waiting.size === 0) return;
    const current = this.#task;
    if (current && !current.cancelled && current.at <= at) return;
    if (current) current.cancelled = true;
    this.#task = this.deps.scheduler.schedule(at, 'limit check', () => {
      this.#task = undefined;
      const now = this.deps.now();
      for (const order of [...this.waiting]) {
        // Orders still inside their first selection delay are picked up by their own task.
        if (now - order.created_at >= this.deps.timings.selectMs) this.deps.select(order);
      }
      if (this.waiting.size) this.scheduleAt(this.deps.nextPollAt());
    });
  }
}

/**
 * Fills to mark verified, by due time. Fills due at the same moment share one task (verifying
 * only sets a flag, so their order among themselves does not matter): at bench rates a dozen
 * orders fill in the same millisecond, and verification tasks, three seconds long, were three
 * quarters of the scheduler's heap.
 */
export class FillVerifications {
  readonly #verifying = new Map<number, FillRecord[]>();

  constructor(private readonly scheduler: Scheduler) {}

  /** Mark `fills` verified at `at`. */
  at(at: number, fills: FillRecord[]): void {
    const pending = this.#verifying.get(at);
    if (pending) {
      for (const fill of fills) pending.push(fill);
      return;
    }
    const batch = fills.slice();
    this.#verifying.set(at, batch);
    this.scheduler.schedule(at, 'verify fills', () => {
      this.#verifying.delete(at);
      for (const fill of batch) fill.verified = true;
    });
  }
}

/**
 * Rentals ending, summed per (second, target, resource): the delegated resource leaves the
 * target after the rental's duration. Ends due in the same second for the same target and
 * resource share one task (rounded up to the second), so a soak of thousands of orders an hour
 * keeps at most one task per second and target.
 */
export class RentalEnds {
  /** The resource amount leaving each target, keyed `${second} ${target} ${resource}` (the saved form keeps the keys). */
  readonly pending = new Map<string, { target: string; resource: ResourceType; amount: number }>();

  constructor(
    private readonly scheduler: Scheduler,
    private readonly onEnd: (target: string, resource: ResourceType, amount: number) => void,
  ) {}

  /** The rental of `amount` on `target` ends at `at` (ms, rounded up to the second). */
  at(at: number, target: string, resource: ResourceType, amount: number): void {
    const second = Math.ceil(at / 1000) * 1000;
    const key = this.#key(second, target, resource);
    const pending = this.pending.get(key);
    if (pending) {
      pending.amount += amount;
      return;
    }
    const entry = { target, resource, amount };
    this.pending.set(key, entry);
    this.scheduler.schedule(second, `undelegate ${key}`, () => {
      this.pending.delete(key);
      this.onEnd(entry.target, entry.resource, entry.amount);
    });
  }

  /** The last key made, and what it was made of: the fills of a second mostly share one. */
  #last = { second: Number.NaN, target: '', resource: '', key: '' };

  /** `${second} ${target} ${resource}`, made again only when one of them changed. */
  #key(second: number, target: string, resource: ResourceType): string {
    const last = this.#last;
    if (last.second !== second || last.target !== target || last.resource !== resource) {
      last.second = second;
      last.target = target;
      last.resource = resource;
      last.key = `${second} ${target} ${resource}`;
    }
    return last.key;
  }

  /** Schedule again the ends of a saved {@link pending} map. */
  load(saved: ReadonlyMap<string, { target: string; resource: ResourceType; amount: number }>): void {
    // Keys are `${second} ${target} ${resource}`.
    for (const [key, end] of saved) this.at(Number(key.split(' ')[0]), end.target, end.resource, end.amount);
  }
}
