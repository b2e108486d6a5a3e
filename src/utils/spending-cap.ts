/**
 * The one spending-cap primitive: how much may still be spent, in exact integer units (atto-USD
 * for x402 payments, SUN or 6-decimal token units for the MCP guard), per call, in total and per
 * rolling period. A spend is reserved before anything is sent, so concurrent spends cannot pass
 * the cap together; it is committed at its charge once known, released when nothing was done,
 * and left reserved while its outcome is unknown (the caller keeps the handle until it knows).
 * Used by the x402 client's budget (`x402/spend.ts`), the MCP server's guard (`mcp/spend.ts`, one
 * per currency) and, through `maxCostSun`, by the transfer engine's per-call check.
 * @module
 */
import { type Clock, systemClock } from './clock.js';

/** The limits of a {@link SpendingCap}; any may be left out (no limit of that kind). */
export interface SpendingCapLimits {
  /** Most one spend may cost. */
  perCall?: bigint | undefined;
  /** Most all spends may cost together. */
  total?: bigint | undefined;
  /** Most the spends committed (and reserved) within any rolling window of `ms` may cost. */
  perPeriod?: { amount: bigint; ms: number } | undefined;
  /** Whose time the period reads. @default systemClock */
  clock?: Clock | undefined;
}

/** Why a spend does not fit. */
export type CapRefusal = 'per_call' | 'total' | 'period';

/** One reserved spend: grown while it is priced, then committed at its charge or released. */
export interface Reservation {
  /** What is reserved now. */
  readonly amount: bigint;
  /** Reserve `extra` more (a fee found later); false, and nothing changes, when it does not fit. */
  grow(extra: bigint): boolean;
  /** It was spent: count `actual` (default: what was reserved) and free the reservation. Once only. */
  commit(actual?: bigint): void;
  /** Nothing was spent: free the reservation. Once only. */
  release(): void;
  /** Still reserved (neither committed nor released). */
  readonly open: boolean;
}

const UNLIMITED = 2n ** 255n;

/** A cap on spending with reservations; see the module notes. */
export class SpendingCap {
  readonly limits: Readonly<SpendingCapLimits>;
  readonly #clock: Clock;
  #spent = 0n;
  #reserved = 0n;
  /** Commits inside the period's window, oldest first (only kept with a per-period limit). */
  readonly #recent: Array<{ at: number; amount: bigint }> = [];

  constructor(limits: SpendingCapLimits = {}) {
    this.limits = Object.freeze({ ...limits });
    this.#clock = limits.clock ?? systemClock;
  }

  /** Committed so far. */
  get spent(): bigint {
    return this.#spent;
  }

  /** Reserved now: spends in flight and those whose outcome is unknown. */
  get reserved(): bigint {
    return this.#reserved;
  }

  /** What one more spend may cost now, by the total and the period (not the per-call limit); a very large number when neither is set. */
  get remaining(): bigint {
    let left = this.limits.total === undefined ? UNLIMITED : this.limits.total - this.#spent - this.#reserved;
    const period = this.limits.perPeriod;
    if (period) left = min(left, period.amount - this.#inPeriod() - this.#reserved);
    return left > 0n ? left : 0n;
  }

  /** Why `amount` does not fit now, or undefined when it does. */
  refusal(amount: bigint): CapRefusal | undefined {
    if (amount < 0n) throw new RangeError(`a spend cannot be negative: ${amount}`);
    if (this.limits.perCall !== undefined && amount > this.limits.perCall) return 'per_call';
    if (this.limits.total !== undefined && amount > this.limits.total - this.#spent - this.#reserved) return 'total';
    const period = this.limits.perPeriod;
    if (period && amount > period.amount - this.#inPeriod() - this.#reserved) return 'period';
    return undefined;
  }

  /**
   * Reserve `amount`; undefined (nothing reserved) when it does not fit. With `force`, reserved
   * whatever the cap (a spend someone else already made, held here until it settles).
   */
  reserve(amount: bigint, options: { force?: boolean | undefined } = {}): Reservation | undefined {
    if (amount < 0n) throw new RangeError(`a spend cannot be negative: ${amount}`);
    if (!options.force && this.refusal(amount) !== undefined) return undefined;
    this.#reserved += amount;
    let held = amount;
    let open = true;
    return {
      get amount() {
        return held;
      },
      get open() {
        return open;
      },
      grow: (extra: bigint) => {
        if (!open || extra < 0n) return false;
        const fits =
          (this.limits.total === undefined || extra <= this.limits.total - this.#spent - this.#reserved) &&
          (!this.limits.perPeriod || extra <= this.limits.perPeriod.amount - this.#inPeriod() - this.#reserved);
        if (!fits) return false;
        this.#reserved += extra;
        held += extra;
        return true;
      },
      commit: (actual?: bigint) => {
        if (!open) return;
        open = false;
        this.#reserved -= held;
        this.record(actual ?? held);
      },
      release: () => {
        if (!open) return;
        open = false;
        this.#reserved -= held;
      },
    };
  }

  /** Count a charge nobody reserved (a fee burnt that no one priced): it counts, whatever the cap. */
  record(amount: bigint): void {
    if (amount <= 0n) return;
    this.#spent += amount;
    if (this.limits.perPeriod) this.#recent.push({ at: this.#clock.now(), amount });
  }

  /** Committed within the period's window (older commits are dropped). */
  #inPeriod(): bigint {
    const period = this.limits.perPeriod;
    if (!period) return 0n;
    const since = this.#clock.now() - period.ms;
    while (this.#recent.length && this.#recent[0]!.at <= since) this.#recent.shift();
    let sum = 0n;
    for (const r of this.#recent) sum += r.amount;
    return sum;
  }
}

function min(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
