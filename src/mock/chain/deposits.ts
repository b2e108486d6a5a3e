/**
 * Deposit patterns: customers paying into deposit addresses over time on the mock clock
 * (`POST /__mock/chain/deposits`), as an exchange's or a processor's deposit addresses receive
 * them, so a sweep that watches them (`client.chain.watchTransfers`, `trx-rent sweep --watch`)
 * can be tested over hours in seconds. Every `every_sec` of mock time one deposit lands: a TRC-20
 * transfer of the token from a customer's address (minted to it: customers are not modelled) to
 * one of the addresses, which address and how much drawn from the mock's seed, so a run repeats.
 * A TRC-20 receipt creates no account on java-tron, so an address that has only received
 * deposits stays unactivated (`accounts.ts` `moveToken`). Patterns are not saved with the state.
 * @module
 */
import { atomicToDecimal, decimalToAtomic } from '../../utils/units.js';
import type { Scheduler, ScheduledTask } from '../shared/scheduler.js';
import type { SimulatedChain } from './chain.js';
import { labelAddress } from './labels.js';

/** One deposit a pattern made. */
export interface PatternDeposit {
  txid: string;
  to: string;
  /** Decimal token units (e.g. "12.5"). */
  amount: string;
  /** Mock time it landed (ms). */
  at: number;
}

/** A deposit pattern and the deposits it made so far. */
export interface DepositPattern {
  id: string;
  token: string;
  addresses: string[];
  every_sec: number;
  /** Each deposit's amount is drawn in [min, max], decimal token units. */
  min: string;
  max: string;
  /** Mock time the pattern stops (ms), or null; it also stops after `count` deposits. */
  until: number | null;
  count: number | null;
  started_at: number;
  deposits: PatternDeposit[];
}

/** What {@link DepositPatterns.start} takes (validated by the control endpoint's schema). */
export interface DepositPatternInput {
  addresses: string[];
  token?: string | undefined;
  every_sec?: number | undefined;
  min?: string | undefined;
  max?: string | undefined;
  until?: number | undefined;
  count?: number | undefined;
}

/** The deposit patterns of one mock state. */
export class DepositPatterns {
  readonly #patterns = new Map<string, { pattern: DepositPattern; task: ScheduledTask | undefined }>();

  constructor(
    private readonly chain: SimulatedChain,
    private readonly scheduler: Scheduler,
    private readonly now: () => number,
    /** Uniform in [0, 1): the mock's seeded stream for deposits. */
    private readonly random: () => number,
  ) {}

  /** Start a pattern; the first deposit lands `every_sec` from now. RangeError on an unknown token or min > max. */
  start(input: DepositPatternInput): DepositPattern {
    const symbol = (input.token ?? 'USDT').toUpperCase();
    const token = this.chain.token(symbol);
    if (!token) throw new RangeError(`unknown token ${input.token}`);
    const min = input.min ?? '1';
    const max = input.max ?? '1000';
    if (decimalToAtomic(min, token.decimals) > decimalToAtomic(max, token.decimals)) throw new RangeError('min is above max');
    const pattern: DepositPattern = {
      id: `dp_${this.#patterns.size + 1}`,
      token: symbol,
      addresses: [...input.addresses],
      every_sec: input.every_sec ?? 60,
      min,
      max,
      until: input.until ?? null,
      count: input.count ?? null,
      started_at: this.now(),
      deposits: [],
    };
    const entry = { pattern, task: undefined as ScheduledTask | undefined };
    this.#patterns.set(pattern.id, entry);
    this.#schedule(entry, this.now() + pattern.every_sec * 1000);
    return pattern;
  }

  /** A pattern and its deposits. */
  get(id: string): DepositPattern | undefined {
    return this.#patterns.get(id)?.pattern;
  }

  /** Stop a pattern (its deposits so far stay); false if there is none. */
  stop(id: string): boolean {
    const entry = this.#patterns.get(id);
    if (!entry) return false;
    if (entry.task) entry.task.cancelled = true;
    entry.task = undefined;
    return true;
  }

  #schedule(entry: { pattern: DepositPattern; task: ScheduledTask | undefined }, at: number): void {
    const p = entry.pattern;
    if ((p.until !== null && at > p.until) || (p.count !== null && p.deposits.length >= p.count)) {
      entry.task = undefined;
      return;
    }
    entry.task = this.scheduler.schedule(at, `deposits ${p.id}`, () => {
      const token = this.chain.token(p.token)!;
      const low = decimalToAtomic(p.min, token.decimals);
      const span = decimalToAtomic(p.max, token.decimals) - low;
      // Whole atomic units, drawn in [min, max]: 2^-32 steps of the span, exact in bigint.
      const amount = low + (span * BigInt(Math.floor(this.random() * 4294967296))) / 4294967295n;
      const to = p.addresses[Math.floor(this.random() * p.addresses.length)]!;
      const n = p.deposits.length + 1;
      const tx = this.chain.syntheticTransfer({ token, from: labelAddress(`customer ${p.id} ${n}`), to, amount, mint: true, label: `deposit ${p.id} #${n}` });
      p.deposits.push({ txid: tx.txid, to, amount: atomicToDecimal(amount, token.decimals), at });
      this.#schedule(entry, at + p.every_sec * 1000);
    });
  }
}
