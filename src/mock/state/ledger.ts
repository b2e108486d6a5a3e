import { MockApiError } from '../shared/errors.js';

/**
 * One account's money, in integer SUN (USDT in 6-decimal units). Every movement goes through
 * these methods so the accounting identity holds at all times:
 *
 *   credited = available + locked + spent + withdrawn        (per currency)
 *
 * and `locked` equals the sum of the named locks (one per open order or pending withdrawal).
 * A movement that would break a balance throws before changing anything.
 */
export type Currency = 'TRX' | 'USDT';

export interface LedgerEntry {
  at: number;
  kind: 'credit' | 'lock' | 'release' | 'spend' | 'withdraw';
  currency: Currency;
  amount: number;
  ref: string;
}

/** One currency's balances (SUN or 6-decimal units). */
export interface Pot {
  available: number;
  locked: number;
  credited: number;
  spent: number;
  withdrawn: number;
}

const MAX_JOURNAL = 10_000;

export class Ledger {
  readonly pots: Record<Currency, Pot> = {
    TRX: { available: 0, locked: 0, credited: 0, spent: 0, withdrawn: 0 },
    USDT: { available: 0, locked: 0, credited: 0, spent: 0, withdrawn: 0 },
  };
  /** ref -> amount held for it (an order id or a withdrawal id). */
  readonly locks = new Map<string, { currency: Currency; amount: number }>();
  /** Recent movements (bounded), newest last. */
  readonly journal: LedgerEntry[] = [];
  /** Credits accepted but not yet made (pending deposits). */
  readonly #incoming: Record<Currency, number> = { TRX: 0, USDT: 0 };
  /**
   * The lock looked up last, and its entry (undefined: none): an order's fill reads one lock
   * several times in a row (cover, spend, release), and with thousands of orders open each
   * lookup in \`locks\` was a cache miss. Every change to \`locks\` goes through this class and
   * keeps it true.
   */
  #lastRef: string | undefined;
  #lastHeld: { currency: Currency; amount: number } | undefined;
  updatedAt: number;

  constructor(private readonly now: () => number) {
    this.updatedAt = now();
  }

  /** Everything the ledger holds, as plain data (see persist.ts). */
  dump(): {
    pots: Record<Currency, Pot>;
    locks: Map<string, { currency: Currency; amount: number }>;
    journal: LedgerEntry[];
    incoming: Record<Currency, number>;
    updatedAt: number;
  } {
    return { pots: this.pots, locks: this.locks, journal: this.journal, incoming: this.#incoming, updatedAt: this.updatedAt };
  }

  /** Load a {@link dump}. */
  load(d: ReturnType<Ledger['dump']>): void {
    Object.assign(this.pots.TRX, d.pots.TRX);
    Object.assign(this.pots.USDT, d.pots.USDT);
    this.locks.clear();
    this.#lastRef = undefined;
    this.#lastHeld = undefined;
    for (const [ref, held] of d.locks) this.locks.set(ref, held);
    this.journal.splice(0, this.journal.length, ...d.journal);
    Object.assign(this.#incoming, d.incoming);
    this.updatedAt = d.updatedAt;
  }

  available(currency: Currency = 'TRX'): number {
    return this.pots[currency].available;
  }

  locked(currency: Currency = 'TRX'): number {
    return this.pots[currency].locked;
  }

  lockedFor(ref: string): number {
    return this.#held(ref)?.amount ?? 0;
  }

  /** Whether `amount` more can ever be credited (balances stay exact integers). */
  canCredit(currency: Currency, amount: number): boolean {
    return Number.isSafeInteger(amount) && amount >= 0 && Number.isSafeInteger(this.pots[currency].credited + this.#incoming[currency] + amount);
  }

  /**
   * Reserve room for a credit that arrives later (an accepted deposit), so that the credit
   * itself, run by the scheduler, can never fail.
   */
  expectCredit(currency: Currency, amount: number, field = 'amount_sun'): void {
    checkAmount(amount);
    if (!this.canCredit(currency, amount)) throw overflow(field);
    this.#incoming[currency] += amount;
  }

  /** Money arriving from outside (a deposit, a test credit). `expected`: reserved by expectCredit. */
  credit(currency: Currency, amount: number, ref: string, expected = false): void {
    checkAmount(amount);
    if (expected) {
      if (this.#incoming[currency] < amount) throw new Error(`credit ${amount} ${currency} was not expected`);
      this.#incoming[currency] -= amount;
    } else if (!this.canCredit(currency, amount)) {
      throw overflow('amount_sun');
    }
    const pot = this.pots[currency];
    pot.available += amount;
    pot.credited += amount;
    this.#record('credit', currency, amount, ref);
  }

  /** Move `amount` from available to the lock named `ref`. INSUFFICIENT_BALANCE if short. */
  lock(currency: Currency, amount: number, ref: string): void {
    checkAmount(amount);
    const pot = this.pots[currency];
    if (pot.available < amount) {
      throw new MockApiError('INSUFFICIENT_BALANCE', `Insufficient ${currency} balance: ${amount} needed, ${pot.available} available`, {
        required_sun: amount,
        available_sun: pot.available,
        currency,
      });
    }
    pot.available -= amount;
    pot.locked += amount;
    const held = this.#held(ref);
    if (held && held.currency !== currency) throw new Error(`lock ${ref} is held in ${held.currency}`);
    // An existing entry grows in place (as #shrink shrinks it): one lookup, no new object.
    if (held) held.amount += amount;
    else {
      const entry = { currency, amount };
      this.locks.set(ref, entry);
      this.#lastRef = ref;
      this.#lastHeld = entry;
    }
    this.#record('lock', currency, amount, ref);
  }

  /** Return part (or, with no amount, all) of a lock to available. */
  release(ref: string, amount?: number): void {
    const held = this.#held(ref);
    if (!held) return;
    const value = amount ?? held.amount;
    checkAmount(value);
    if (value > held.amount) throw new Error(`release ${value} exceeds lock ${ref} (${held.amount})`);
    const pot = this.pots[held.currency];
    pot.locked -= value;
    pot.available += value;
    this.#shrink(ref, held, value);
    this.#record('release', held.currency, value, ref);
  }

  /** Pay `amount` out of the lock `ref` (an order's fill). */
  spend(ref: string, amount: number): void {
    this.#consume(ref, amount, 'spend');
  }

  /** Send `amount` out of the lock `ref` (a completed withdrawal). */
  withdraw(ref: string, amount: number): void {
    this.#consume(ref, amount, 'withdraw');
  }

  /** The identity above, for tests and the fuzz test. Empty when everything adds up. */
  problems(label: string): string[] {
    const out: string[] = [];
    for (const currency of ['TRX', 'USDT'] as const) {
      const p = this.pots[currency];
      for (const [k, v] of Object.entries(p)) {
        if (!Number.isSafeInteger(v) || v < 0) out.push(`${label} ${currency}.${k} is ${v}, not a non-negative integer`);
      }
      if (p.credited !== p.available + p.locked + p.spent + p.withdrawn) {
        out.push(`${label} ${currency}: credited ${p.credited} != available ${p.available} + locked ${p.locked} + spent ${p.spent} + withdrawn ${p.withdrawn}`);
      }
      let held = 0;
      for (const lock of this.locks.values()) if (lock.currency === currency) held += lock.amount;
      if (held !== p.locked) out.push(`${label} ${currency}: locked ${p.locked} != sum of locks ${held}`);
    }
    return out;
  }

  #consume(ref: string, amount: number, kind: 'spend' | 'withdraw'): void {
    checkAmount(amount);
    const held = this.#held(ref);
    if (!held || held.amount < amount) throw new Error(`${kind} ${amount} exceeds lock ${ref} (${held?.amount ?? 0})`);
    const pot = this.pots[held.currency];
    pot.locked -= amount;
    if (kind === 'spend') pot.spent += amount;
    else pot.withdrawn += amount;
    this.#shrink(ref, held, amount);
    this.#record(kind, held.currency, amount, ref);
  }

  #shrink(ref: string, held: { currency: Currency; amount: number }, by: number): void {
    held.amount -= by;
    if (held.amount === 0) {
      this.locks.delete(ref);
      if (this.#lastRef === ref) this.#lastHeld = undefined;
    }
  }

  /** The lock `ref` (the one looked up last is remembered). */
  #held(ref: string): { currency: Currency; amount: number } | undefined {
    if (ref === this.#lastRef) return this.#lastHeld;
    const held = this.locks.get(ref);
    this.#lastRef = ref;
    this.#lastHeld = held;
    return held;
  }

  #record(kind: LedgerEntry['kind'], currency: Currency, amount: number, ref: string): void {
    const at = this.now();
    this.updatedAt = at;
    this.journal.push({ at, kind, currency, amount, ref });
    // Trimmed in blocks (between MAX_JOURNAL and twice that kept): splicing one entry off the
    // front on every record moved the whole array each time (a tenth of a soak's CPU).
    if (this.journal.length >= MAX_JOURNAL * 2) this.journal.splice(0, this.journal.length - MAX_JOURNAL);
  }
}

function checkAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`ledger amount must be a non-negative safe integer, got ${amount}`);
}

function overflow(field: string): MockApiError {
  return new MockApiError('VALIDATION_ERROR', `${field}: the amount would take the balance beyond exact integer range`, { field });
}
