/**
 * Usage patterns: an address that spends energy over time on the simulated chain, on the mock's
 * clock (`POST /__mock/chain/usage`), so rules that keep an address topped up can be tested for
 * a day in seconds. Every `every_sec` of mock time the address spends its share of
 * `energy_per_hour`: from what is delegated to it first (rentals), the rest burnt in TRX at the
 * chain's fee, as a transaction would. Steps that found too little energy are counted as "dry".
 * Patterns are not saved with the state.
 * @module
 */
import type { Scheduler, ScheduledTask } from '../shared/scheduler.js';
import type { SimulatedChain } from './chain.js';

/** One address's pattern and what it did so far. */
export interface UsagePattern {
  address: string;
  energy_per_hour: number;
  every_sec: number;
  /** Mock time the pattern stops (ms), or null. */
  until: number | null;
  started_at: number;
  steps: number;
  /** Energy spent in all, and the part that came from delegated energy. */
  energy_spent: number;
  energy_from_delegation: number;
  /** Energy that had to be burnt for (the address ran dry), and the TRX burnt for it. */
  energy_short: number;
  burnt_sun: number;
  /** Steps that found less energy than they needed, and the mock time of the first one. */
  dry_steps: number;
  first_dry_at: number | null;
}

/** The usage patterns of one mock state. */
export class UsagePatterns {
  readonly #patterns = new Map<string, { pattern: UsagePattern; task: ScheduledTask | undefined; carry: number }>();

  constructor(
    private readonly chain: SimulatedChain,
    private readonly scheduler: Scheduler,
    private readonly now: () => number,
  ) {}

  /** Start (or replace) an address's pattern; `energy_per_hour: 0` stops it. */
  set(input: { address: string; energy_per_hour: number; every_sec?: number | undefined; until?: number | undefined }): UsagePattern {
    const old = this.#patterns.get(input.address);
    if (old?.task) old.task.cancelled = true;
    const pattern: UsagePattern = {
      address: input.address,
      energy_per_hour: input.energy_per_hour,
      every_sec: input.every_sec ?? 60,
      until: input.until ?? null,
      started_at: this.now(),
      steps: 0,
      energy_spent: 0,
      energy_from_delegation: 0,
      energy_short: 0,
      burnt_sun: 0,
      dry_steps: 0,
      first_dry_at: null,
    };
    const entry = { pattern, task: undefined as ScheduledTask | undefined, carry: 0 };
    this.#patterns.set(input.address, entry);
    if (pattern.energy_per_hour > 0) this.#schedule(entry, this.now() + pattern.every_sec * 1000);
    return pattern;
  }

  /** An address's pattern and counters. */
  get(address: string): UsagePattern | undefined {
    return this.#patterns.get(address)?.pattern;
  }

  #schedule(entry: { pattern: UsagePattern; task: ScheduledTask | undefined; carry: number }, at: number): void {
    const p = entry.pattern;
    if (p.until !== null && at > p.until) return;
    entry.task = this.scheduler.schedule(at, `usage ${p.address}`, () => {
      // Whole units only: the fraction carries over to the next step.
      const exact = (p.energy_per_hour * p.every_sec) / 3600 + entry.carry;
      const energy = Math.floor(exact);
      entry.carry = exact - energy;
      const spent = this.chain.spendEnergy(p.address, energy);
      p.steps++;
      p.energy_spent += energy;
      p.energy_from_delegation += spent.fromDelegation;
      const short = energy - spent.fromDelegation;
      if (short > 0) {
        p.energy_short += short;
        p.burnt_sun += spent.burntSun;
        p.dry_steps++;
        p.first_dry_at ??= at;
      }
      this.#schedule(entry, at + p.every_sec * 1000);
    });
  }
}
