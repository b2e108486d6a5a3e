import type { ResourceType } from '../../schemas/common.js';
import type { OrderStatus, OrderType } from '../../schemas/orders.js';
import { MockApiError } from '../http/errors.js';
import type { MockAccount } from './accounts.js';
import { MARKET_RULES, type Market, type PlanItem, type Selection, planItem } from './market.js';
import type { Rng } from './rng.js';
import type { ScheduledTask, Scheduler } from './scheduler.js';
import type { WebhookHub } from './webhooks.js';
import { Fifo } from './fifo.js';
import type { FillRecord, OrderRecord } from './order-record.js';
import { orderFull } from './order-wire.js';

/**
 * The order state machine of the spec, driven by the scheduler on the mock clock:
 *
 *   POST /orders -> PENDING --(selectMs: provider selected)--> EXECUTING
 *                  --(fillMs: delegation confirmed)--> FILLED   (fills verified after verifyMs)
 *   PENDING or EXECUTING --(no provider / price above cap / every delegation failed)--> FAILED
 *
 * Money: the expected cost is locked in trx_locked at creation (LIMIT: amount x max_price_sun),
 * topped up at selection if the price rose, spent fill by fill, and the rest released when the
 * order settles or fails. Types:
 *  - MARKET: best price at once; PRICE_EXCEEDED (422) at creation when the best price is above
 *    max_price_sun, FAILED if that happens by the time a provider is selected.
 *  - LIMIT: waits in PENDING, re-checked at every price poll and on market changes, until a
 *    provider is at or below max_price_sun; expires (FAILED, reason EXPIRED) after limitOrderTtlMs.
 *  - BROADCAST: split across up to three of the cheapest providers (one fill each).
 *  - PERIODIC: executes like MARKET, then re-executes every duration_sec (the rental is renewed
 *    as it runs out), at most periodicMaxRuns times in all; a renewal that cannot be paid or
 *    placed stops the series (the order stays FILLED). Each run adds fills and fires order.filled.
 * A failing delegation is retried on the next cheapest provider, at most twice per share.
 */

export interface OrderTimings {
  /** PENDING -> EXECUTING (provider selection). Default 300 ms. */
  selectMs: number;
  /** EXECUTING -> FILLED (delegation confirmed). Default 700 ms. */
  fillMs: number;
  /** FILLED -> fills verified. Default 3 000 ms. */
  verifyMs: number;
  /** How long a LIMIT order waits before it fails with EXPIRED. Default 24 h. */
  limitOrderTtlMs: number;
  /** PERIODIC: total executions including the first. Default 24. */
  periodicMaxRuns: number;
}

/** Default delays of the order state machine (mock-clock ms); see the mock README's Timings. */
export const DEFAULT_ORDER_TIMINGS: OrderTimings = {
  selectMs: 300,
  fillMs: 700,
  verifyMs: 3_000,
  limitOrderTtlMs: 24 * 60 * 60 * 1000,
  periodicMaxRuns: 24,
};

const MAX_DELEGATION_RETRIES = 2;

export type { FillRecord, OrderRecord } from './order-record.js';

export interface NewOrder {
  resource_type: ResourceType;
  order_type?: OrderType | undefined;
  amount: number;
  duration_sec: number;
  target_address: string;
  max_price_sun?: number | undefined;
}

export class OrderEngine {
  readonly #orders = new Map<string, OrderRecord>();
  /** Orders oldest first, for retention (an open order seen at the front is pushed back). */
  readonly #age = new Fifo<OrderRecord>();
  /** Per account, in insertion order (Sets, so eviction removes one in O(1)). */
  readonly #byAccount = new Map<string, Set<OrderRecord>>();
  /** Confirmed spend of orders forgotten by retention, per account (the books still count it). */
  readonly #evictedSpent = new Map<string, number>();
  /** Rentals ending, summed per (second, target, resource): one task each, however many fills. */
  readonly #rentalEnds = new Map<string, { target: string; resource: ResourceType; amount: number }>();
  /** LIMIT orders still waiting for their price. */
  readonly #waiting = new Set<OrderRecord>();
  /** Fills to mark verified, by due time (one scheduled task per time). */
  readonly #verifying = new Map<number, FillRecord[]>();
  #seq = 0;
  #limitCheck: ScheduledTask | undefined;
  /** Called when a confirmed fill's rental ends (the state takes the resource back on the chain). */
  onRentalEnd: ((target: string, resource: ResourceType, amount: number) => void) | undefined;

  constructor(
    private readonly deps: {
      rng: Rng;
      now: () => number;
      scheduler: Scheduler;
      market: Market;
      webhooks: WebhookHub;
      account: (id: string) => MockAccount | undefined;
      timings: OrderTimings;
      /**
       * Put a fill's delegation on the simulated chain; returns its transaction id. Without it
       * (the engine used alone), fills get a random id no node knows.
       */
      delegate?: (fill: { provider: string; target: string; resource: ResourceType; amount: number; duration_sec: number; success: boolean; label: string }) => string;
      /** Most orders kept (oldest finished ones forgotten first). @default Infinity */
      maxOrders?: number;
      /**
       * Whether an address is an account on chain. A delegation to one that is not is refused
       * (java-tron `DelegateResourceActuator`: "Account[…] not exists"), so the order fails with
       * TARGET_NOT_ACTIVATED instead of delegating to nowhere. Without it every target is taken.
       */
      targetActive?: (address: string) => boolean;
    },
  ) {
    deps.market.onChange = () => this.#scheduleLimitCheck(this.deps.now());
  }

  /** Duration bounds (the spec gives none; see MARKET_RULES). VALIDATION_ERROR naming the field. */
  checkDuration(durationSec: number, field = 'duration_sec'): void {
    const { MIN_DURATION_SEC, MAX_DURATION_SEC } = MARKET_RULES;
    if (durationSec < MIN_DURATION_SEC || durationSec > MAX_DURATION_SEC) {
      throw new MockApiError('VALIDATION_ERROR', `${field}: must be between ${MIN_DURATION_SEC} and ${MAX_DURATION_SEC} seconds`, {
        field,
        min: MIN_DURATION_SEC,
        max: MAX_DURATION_SEC,
      });
    }
  }

  create(account: MockAccount, input: NewOrder): OrderRecord {
    this.checkDuration(input.duration_sec);
    if (input.resource_type === 'BANDWIDTH' && input.amount < MARKET_RULES.MIN_BANDWIDTH_AMOUNT) {
      throw belowMinimum(MARKET_RULES.MIN_BANDWIDTH_AMOUNT);
    }
    const type: OrderType = input.order_type ?? 'MARKET';
    const now = this.deps.now();
    const query = {
      resource: input.resource_type,
      amount: input.amount,
      duration_sec: input.duration_sec,
      max_price_sun: input.max_price_sun ?? null,
    };
    let lock: number;
    if (type === 'LIMIT') {
      const selection = this.deps.market.select(query);
      if (selection.reason === 'below_minimum') throw belowMinimum(selection.min_amount ?? input.amount);
      lock = Math.ceil(input.amount * (input.max_price_sun ?? 0));
    } else {
      // A MARKET order needs only the best provider; the full selection only to name an error.
      const best = type === 'BROADCAST' ? null : this.deps.market.cheapest(query);
      const plan = type === 'BROADCAST' ? this.deps.market.planBroadcast(query) : best ? [planItem(best, input.amount)] : null;
      if (!plan) throw selectionError(this.deps.market.select(query), input.max_price_sun);
      lock = plan.reduce((sum, item) => sum + item.cost_sun, 0);
    }
    if (!Number.isSafeInteger(lock)) {
      throw new MockApiError('INSUFFICIENT_BALANCE', 'The order would cost more than any balance can hold', {
        required_sun: lock,
        available_sun: account.ledger.available('TRX'),
      });
    }
    const order: OrderRecord = {
      seq: ++this.#seq,
      id: this.deps.rng.uuid(),
      account_id: account.id,
      status: 'PENDING',
      resource_type: input.resource_type,
      order_type: type,
      amount: input.amount,
      duration_sec: input.duration_sec,
      target_address: input.target_address,
      max_price_sun: input.max_price_sun ?? null,
      created_at: now,
      filled_at: null,
      total_cost_sun: null,
      total_fee_sun: null,
      fills: [],
      expires_at: type === 'LIMIT' ? now + this.deps.timings.limitOrderTtlMs : null,
      plan: null,
      runs: 0,
      next_run_at: null,
      periodic_stopped: null,
      failure_reason: null,
      failure_message: null,
    };
    account.ledger.lock('TRX', lock, order.id); // throws INSUFFICIENT_BALANCE before anything is stored
    this.#orders.set(order.id, order);
    this.#age.push(order);
    let list = this.#byAccount.get(account.id);
    if (!list) this.#byAccount.set(account.id, (list = new Set()));
    list.add(order);
    this.#trim();
    this.deps.scheduler.schedule(now + this.deps.timings.selectMs, `select ${order.id}`, () => this.#select(order));
    if (order.expires_at !== null) {
      this.#waiting.add(order);
      this.deps.scheduler.schedule(order.expires_at, `expire ${order.id}`, () => this.#expire(order));
    }
    return order;
  }

  /** Any account's order (for `/__mock/` helpers). */
  find(id: string): OrderRecord | undefined {
    return this.#orders.get(id);
  }

  get(accountId: string, id: string): OrderRecord | undefined {
    const order = this.#orders.get(id);
    return order && order.account_id === accountId ? order : undefined;
  }

  list(accountId: string, filter: { status?: OrderStatus; limit: number; offset: number }): { orders: OrderRecord[]; total: number } {
    const all = [...(this.#byAccount.get(accountId) ?? [])].filter((o) => !filter.status || o.status === filter.status);
    all.sort((a, b) => b.created_at - a.created_at || b.seq - a.seq);
    return { orders: all.slice(filter.offset, filter.offset + filter.limit), total: all.length };
  }

  all(accountId?: string): OrderRecord[] {
    return accountId ? [...(this.#byAccount.get(accountId) ?? [])] : [...this.#orders.values()];
  }

  /** Every order and the engine's counters, as plain data (see persist.ts). */
  dump() {
    return { seq: this.#seq, orders: [...this.#orders.values()], evicted_spent: this.#evictedSpent, rental_ends: this.#rentalEnds };
  }

  /**
   * Load a {@link dump} and schedule again what each order was waiting for: selection, expiry,
   * the fill of a plan in progress, verification, the next periodic run, the rentals' ends.
   */
  load(d: ReturnType<OrderEngine['dump']>): void {
    const { scheduler, timings } = this.deps;
    const now = this.deps.now();
    this.#seq = d.seq;
    this.#orders.clear();
    this.#byAccount.clear();
    this.#waiting.clear();
    for (const [account, spent] of d.evicted_spent) this.#evictedSpent.set(account, spent);
    this.#age.clear();
    for (const order of d.orders) {
      this.#orders.set(order.id, order);
      this.#age.push(order);
      let list = this.#byAccount.get(order.account_id);
      if (!list) this.#byAccount.set(order.account_id, (list = new Set()));
      list.add(order);
      if (order.status === 'PENDING') {
        scheduler.schedule(order.created_at + timings.selectMs, `select ${order.id}`, () => this.#select(order));
        if (order.expires_at !== null) {
          this.#waiting.add(order);
          scheduler.schedule(order.expires_at, `expire ${order.id}`, () => this.#expire(order));
        }
      } else if (order.plan !== null) {
        scheduler.schedule(now, `fill ${order.id}`, () => this.#fill(order));
      }
      const unverified = order.fills.filter((f) => f.status === 'CONFIRMED' && !f.verified);
      for (const fill of unverified) {
        this.#verifyAt((fill.confirmed_at ?? now) + timings.verifyMs, [fill]);
      }
      if (order.status === 'FILLED' && order.plan === null && order.next_run_at !== null) {
        scheduler.schedule(order.next_run_at, `renew ${order.id}`, () => this.#renew(order));
      }
    }
    // Keys are `${second} ${target} ${resource}`.
    for (const [key, end] of d.rental_ends) this.#endRentalAt(Number(key.split(' ')[0]), end.target, end.resource, end.amount);
    this.#scheduleLimitCheck(now);
  }

  /** How many orders are kept now. */
  get size(): number {
    return this.#orders.size;
  }

  /** Confirmed spend of the account's orders that retention forgot (so the books still balance). */
  evictedSpent(accountId: string): number {
    return this.#evictedSpent.get(accountId) ?? 0;
  }

  /**
   * Retention: past `maxOrders`, forget the oldest finished orders. An open one at the front is
   * moved to the back instead (at most a few per call), so each create does constant work.
   */
  #trim(): void {
    const max = this.deps.maxOrders ?? Infinity;
    for (let moves = 0; this.#orders.size > max; ) {
      const oldest = this.#age.shift();
      if (!oldest) return;
      if (isOpen(oldest)) {
        this.#age.push(oldest);
        if (++moves >= 4) return;
        continue;
      }
      const set = this.#byAccount.get(oldest.account_id);
      this.#orders.delete(oldest.id);
      set?.delete(oldest);
      if (set && set.size === 0) this.#byAccount.delete(oldest.account_id);
      let spent = 0;
      for (const fill of oldest.fills) if (fill.status === 'CONFIRMED') spent += fill.cost_sun;
      if (spent) this.#evictedSpent.set(oldest.account_id, (this.#evictedSpent.get(oldest.account_id) ?? 0) + spent);
    }
  }

  // ---- transitions ----

  #expire(order: OrderRecord): void {
    if (order.status === 'PENDING') this.#fail(order, 'EXPIRED', 'No provider reached the limit price before the order expired');
  }

  #select(order: OrderRecord): void {
    if (order.status !== 'PENDING') return;
    this.#waiting.delete(order);
    const account = this.deps.account(order.account_id);
    if (!account) return;
    const query = {
      resource: order.resource_type,
      amount: order.amount,
      duration_sec: order.duration_sec,
      max_price_sun: order.max_price_sun,
    };
    const best = order.order_type === 'BROADCAST' ? null : this.deps.market.cheapest(query);
    const plan = order.order_type === 'BROADCAST' ? this.deps.market.planBroadcast(query) : best ? [planItem(best, order.amount)] : null;
    if (!plan) {
      if (order.order_type === 'LIMIT') {
        this.#waiting.add(order);
        this.#scheduleLimitCheck(this.deps.market.nextPollAt());
        return; // keeps waiting, funds stay locked
      }
      const error = selectionError(this.deps.market.select(query), order.max_price_sun ?? undefined);
      this.#fail(order, error.code, error.message);
      return;
    }
    if (!this.#cover(account, order.id, plan)) {
      this.#fail(order, 'INSUFFICIENT_BALANCE', 'The price rose above what the balance can cover');
      return;
    }
    for (const item of plan) this.deps.market.consume(item.provider, order.resource_type, item.amount);
    order.plan = plan;
    order.status = 'EXECUTING';
    this.deps.scheduler.schedule(this.deps.now() + this.deps.timings.fillMs, `fill ${order.id}`, () => this.#fill(order));
  }

  /** Make the lock of `ref` cover the plan's cost, locking more if needed. */
  #cover(account: MockAccount, ref: string, plan: PlanItem[]): boolean {
    const cost = plan.reduce((sum, item) => sum + item.cost_sun, 0);
    const held = account.ledger.lockedFor(ref);
    if (cost <= held) return true;
    if (account.ledger.available('TRX') < cost - held) return false;
    account.ledger.lock('TRX', cost - held, ref);
    return true;
  }

  /** The delegations of the current plan: each share confirmed, or retried elsewhere, or failed. */
  #fill(order: OrderRecord): void {
    const periodicRun = order.order_type === 'PERIODIC' && order.status === 'FILLED';
    if (!(order.status === 'EXECUTING' || periodicRun) || !order.plan) return;
    const account = this.deps.account(order.account_id);
    if (!account) return;
    const now = this.deps.now();
    const run = order.runs + 1;
    if (this.deps.targetActive && !this.deps.targetActive(order.target_address)) {
      order.plan = null;
      const why = `${order.target_address} is not activated on chain: providers cannot delegate to it (send it TRX first)`;
      if (periodicRun) this.#stopPeriodic(order, 'TARGET_NOT_ACTIVATED');
      else this.#fail(order, 'TARGET_NOT_ACTIVATED', why);
      return;
    }
    const confirmed: FillRecord[] = [];
    const tried = new Set(order.plan.map((p) => p.provider));
    for (const share of order.plan) {
      let item: PlanItem | undefined = share;
      for (let attempt = 0; item && attempt <= MAX_DELEGATION_RETRIES; attempt++) {
        if (this.deps.market.isFailing(item.provider) || !this.#affordable(account, order.id, item)) {
          order.fills.push(this.#fillRecord(order, item, 'FAILED', now, run));
          tried.add(item.provider);
          const next: Selection = this.deps.market.select({
            resource: order.resource_type,
            amount: item.amount,
            duration_sec: order.duration_sec,
            max_price_sun: order.max_price_sun,
            exclude: tried,
          });
          item = next.best ? planItem(next.best, item.amount) : undefined;
          if (item) this.deps.market.consume(item.provider, order.resource_type, item.amount);
          continue;
        }
        account.ledger.spend(order.id, item.cost_sun);
        const fill = this.#fillRecord(order, item, 'CONFIRMED', now, run);
        order.fills.push(fill);
        confirmed.push(fill);
        break;
      }
    }
    order.plan = null;
    if (confirmed.length === 0) {
      if (periodicRun) {
        this.#stopPeriodic(order, 'delegation failed on every provider tried');
        return;
      }
      this.#fail(order, 'PROVIDER_UNAVAILABLE', 'Delegation failed on every provider tried');
      return;
    }
    account.ledger.release(order.id); // whatever the lock held beyond the cost
    order.runs = run;
    order.status = 'FILLED';
    order.filled_at ??= now;
    order.total_cost_sun = (order.total_cost_sun ?? 0) + confirmed.reduce((s, f) => s + f.cost_sun, 0);
    order.total_fee_sun = 0;
    this.#verifyAt(now + this.deps.timings.verifyMs, confirmed);
    if (order.order_type === 'PERIODIC') {
      if (order.runs < this.deps.timings.periodicMaxRuns) {
        order.next_run_at = now + order.duration_sec * 1000;
        this.deps.scheduler.schedule(order.next_run_at, `renew ${order.id}`, () => this.#renew(order));
      } else {
        order.next_run_at = null;
        order.periodic_stopped = 'completed';
      }
    }
    this.deps.webhooks.emit(order.account_id, 'order.filled', () => orderFull(order));
  }

  /**
   * Mark fills verified at `at`. Fills due at the same moment share one task (verifying only
   * sets a flag, so their order among themselves does not matter): at bench rates a dozen
   * orders fill in the same millisecond, and verification tasks, three seconds long, were
   * three quarters of the scheduler's heap.
   */
  #verifyAt(at: number, fills: FillRecord[]): void {
    const pending = this.#verifying.get(at);
    if (pending) {
      for (const fill of fills) pending.push(fill);
      return;
    }
    const batch = fills.slice();
    this.#verifying.set(at, batch);
    this.deps.scheduler.schedule(at, 'verify fills', () => {
      this.#verifying.delete(at);
      for (const fill of batch) fill.verified = true;
    });
  }

  #affordable(account: MockAccount, ref: string, item: PlanItem): boolean {
    const held = account.ledger.lockedFor(ref);
    if (item.cost_sun <= held) return true;
    if (account.ledger.available('TRX') < item.cost_sun - held) return false;
    account.ledger.lock('TRX', item.cost_sun - held, ref);
    return true;
  }

  /** PERIODIC: the next run, priced like a MARKET order at this moment. */
  #renew(order: OrderRecord): void {
    if (order.status !== 'FILLED' || order.periodic_stopped) return;
    const account = this.deps.account(order.account_id);
    if (!account) return;
    order.next_run_at = null;
    const selection = this.deps.market.select({
      resource: order.resource_type,
      amount: order.amount,
      duration_sec: order.duration_sec,
      max_price_sun: order.max_price_sun,
    });
    if (!selection.best) {
      this.#stopPeriodic(order, selectionError(selection, order.max_price_sun ?? undefined).code);
      return;
    }
    const plan = [planItem(selection.best, order.amount)];
    if (!this.#cover(account, order.id, plan)) {
      this.#stopPeriodic(order, 'INSUFFICIENT_BALANCE');
      return;
    }
    this.deps.market.consume(selection.best.provider, order.resource_type, order.amount);
    order.plan = plan;
    this.deps.scheduler.schedule(this.deps.now() + this.deps.timings.fillMs, `fill ${order.id} run ${order.runs + 1}`, () => this.#fill(order));
  }

  #stopPeriodic(order: OrderRecord, reason: string): void {
    this.deps.account(order.account_id)?.ledger.release(order.id);
    order.plan = null;
    order.next_run_at = null;
    order.periodic_stopped = reason;
  }

  #fail(order: OrderRecord, reason: string, message: string): void {
    if (order.status === 'FILLED' || order.status === 'FAILED') return;
    this.deps.account(order.account_id)?.ledger.release(order.id);
    this.#waiting.delete(order);
    order.status = 'FAILED';
    order.plan = null;
    order.failure_reason = reason;
    order.failure_message = message;
    this.deps.webhooks.emit(order.account_id, 'order.failed', () => orderFull(order));
  }

  #fillRecord(order: OrderRecord, item: PlanItem, status: 'CONFIRMED' | 'FAILED', now: number, run: number): FillRecord {
    const id = `fill_${this.deps.rng.hex(10)}`;
    // Every fill is a transaction the mock's TRON node knows: a delegation (reverted when it failed).
    const tx_id = this.deps.delegate
      ? this.deps.delegate({
          provider: item.provider,
          target: order.target_address,
          resource: order.resource_type,
          amount: item.amount,
          duration_sec: order.duration_sec,
          success: status === 'CONFIRMED',
          label: id,
        })
      : this.deps.rng.hex(32);
    if (status === 'CONFIRMED' && this.deps.delegate) this.#endRentalAt(now + order.duration_sec * 1000, order.target_address, order.resource_type, item.amount);
    return {
      id,
      order_id: order.id,
      provider: item.provider,
      amount: item.amount,
      price_sun: item.price_sun,
      cost_sun: status === 'CONFIRMED' ? item.cost_sun : 0,
      tx_id,
      status,
      verified: false,
      tronscan_url: `https://tronscan.org/#/transaction/${tx_id}`,
      resource_type: order.resource_type,
      created_at: now,
      confirmed_at: status === 'CONFIRMED' ? now : null,
      run,
    };
  }

  /**
   * The rental ends after its duration: the delegated resource leaves the target. Ends due in
   * the same second for the same target and resource share one task (rounded up to the second),
   * so a soak of thousands of orders an hour keeps at most one task per second and target.
   */
  #endRentalAt(at: number, target: string, resource: ResourceType, amount: number): void {
    const second = Math.ceil(at / 1000) * 1000;
    const key = `${second} ${target} ${resource}`;
    const pending = this.#rentalEnds.get(key);
    if (pending) {
      pending.amount += amount;
      return;
    }
    const entry = { target, resource, amount };
    this.#rentalEnds.set(key, entry);
    this.deps.scheduler.schedule(second, `undelegate ${key}`, () => {
      this.#rentalEnds.delete(key);
      this.onRentalEnd?.(entry.target, entry.resource, entry.amount);
    });
  }

  /** One task re-checks every waiting LIMIT order (at each poll, or at once after a market change). */
  #scheduleLimitCheck(at: number): void {
    if (this.#waiting.size === 0) return;
    const current = this.#limitCheck;
    if (current && !current.cancelled && current.at <= at) return;
    if (current) current.cancelled = true;
    this.#limitCheck = this.deps.scheduler.schedule(at, 'limit check', () => {
      this.#limitCheck = undefined;
      const now = this.deps.now();
      for (const order of [...this.#waiting]) {
        // Orders still inside their first selection delay are picked up by their own task.
        if (now - order.created_at >= this.deps.timings.selectMs) this.#select(order);
      }
      if (this.#waiting.size) this.#scheduleLimitCheck(this.deps.market.nextPollAt());
    });
  }
}

/** Still has work to do (or money locked): never forgotten by retention. */
function isOpen(order: OrderRecord): boolean {
  return order.status === 'PENDING' || order.status === 'EXECUTING' || order.plan !== null || order.next_run_at !== null;
}

function belowMinimum(min: number): MockApiError {
  return new MockApiError('BELOW_MINIMUM_ORDER', `amount: below the provider minimum of ${min} units`, { field: 'amount', min });
}

/** The error for a selection that found nothing: price, minimum, or capacity. */
export function selectionError(selection: Selection, maxPrice: number | undefined): MockApiError {
  if (selection.reason === 'price_exceeded') {
    const best = selection.over_price[0]!;
    return new MockApiError('PRICE_EXCEEDED', `Best price ${best.price_sun} SUN is above max_price_sun ${maxPrice}`, {
      field: 'max_price_sun',
      best_price_sun: best.price_sun,
      max_price_sun: maxPrice,
      provider: best.provider,
    });
  }
  if (selection.reason === 'below_minimum') return belowMinimum(selection.min_amount ?? 0);
  return new MockApiError('PROVIDER_UNAVAILABLE', 'No provider can fulfil this amount and duration right now');
}
