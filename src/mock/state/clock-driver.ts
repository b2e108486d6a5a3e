/**
 * What makes scheduled work run on the mock clock: `tick` runs what is due (handlers call it on
 * each request), `advance` moves a clock forward running work in time order, and on a real clock
 * one unref'd timer wakes up for the earliest due task.
 * @module
 */
import type { MockClock } from './clock.js';
import type { Scheduler } from '../shared/scheduler.js';

/** Runs a scheduler's due tasks against a clock, waiting for webhook attempts where it must. */
export class ClockDriver {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;
  #disposed = false;

  constructor(
    private readonly clock: MockClock,
    private readonly scheduler: Scheduler,
    /** Webhook attempts in flight (`advance` lets them finish so their retries land on time). */
    private readonly webhooks: { readonly inflight: number; idle(): Promise<void> },
  ) {}

  /** Run every task that is due. */
  tick(): void {
    if (!this.#disposed) this.scheduler.runDue(this.clock.now());
  }

  /**
   * Move the clock forward by `ms`, running due work in time order at the time it is due, and
   * waiting for webhook attempts to finish so their retries land at the right time. Bounded.
   */
  async advance(ms: number): Promise<void> {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw new RangeError('advance(ms) needs a non-negative number');
    const target = this.clock.now() + ms;
    for (let step = 0; step < 1_000_000; step++) {
      if (this.webhooks.inflight) await this.webhooks.idle();
      const next = this.scheduler.peek();
      if (next === undefined || next > target) break;
      if (next > this.clock.now()) this.clock.advance(next - this.clock.now());
      this.scheduler.runDue(this.clock.now());
    }
    if (this.clock.now() < target) this.clock.advance(target - this.clock.now());
    this.tick();
    await this.webhooks.idle();
    this.arm();
  }

  /** Real clock: one unref'd timer for the earliest due task. */
  arm(): void {
    if (this.#disposed || this.clock.kind !== 'real') return;
    const next = this.scheduler.peek();
    if (next === this.#timerAt && this.#timer) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
    if (next === undefined) return;
    const delay = Math.min(Math.max(0, next - this.clock.now()), 2 ** 31 - 1);
    this.#timerAt = next;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Infinity;
      this.tick();
      this.arm();
    }, delay);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** Stop: no more ticks, and the timer is cleared. */
  dispose(): void {
    this.#disposed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
