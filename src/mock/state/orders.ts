import type { ResourceType } from '../../schemas/common.js';
import type { OrderStatus, OrderType } from '../../schemas/orders.js';
import { MockApiError } from '../shared/errors.js';
import type { MockAccount } from './accounts.js';
import { MARKET_RULES } from './market-providers.js';
import type { Market } from './market.js';
import { type PlanItem, type Selection, planCost, planItem } from './market-selection.js';
import type { Rng } from './rng.js';
import type { Scheduler } from '../shared/scheduler.js';
import type { WebhookHub } from './webhooks.js';
import { type FillRecord, type OrderRecord, newFillRecord, newOrderRecord } from './order-record.js';
import { orderFull } from './order-wire.js';
import { OrderBook } from './order-book.js';
import { MAX_DELEGATION_RETRIES, type NewOrder, type OrderTimings, belowMinimum, checkDuration, selectionError } from './order-rules.js';
import { FillVerifications, LimitChecks, OrderSteps, RentalEnds } from './order-timers.js';

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
export class OrderEngine {
  /** The orders by id and per account, with retention (`order-book.ts`). */
  readonly #book: OrderBook;
  /** Rentals ending, summed per (second, target, resource): one task each, however many fills. */
  readonly #rentalEnds: RentalEnds;
  /** LIMIT orders still waiting for their price, re-checked by one task. */
  readonly #limits: LimitChecks;
  /** Fills to mark verified, by due time (one scheduled task per time). */
  readonly #verifying: FillVerifications;
  /** Selections and fills due, one task for each run of them scheduled together. */
  readonly #selections: OrderSteps;
  readonly #fills: OrderSteps;
  #seq = 0;
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
      delegate?: (fill: {
        provider: string;
        target: string;
        resource: ResourceType;
        amount: number;
        duration_sec: number;
        success: boolean;
        label: string;
      }) => string;
      /** Most orders kept (oldest finished ones forgotten first). @default Infinity */
      maxOrders?: number;
      /**
       * Why the chain would refuse a delegation to an address (java-tron
       * `DelegateResourceActuator.validate`: no account, "Account[…] not exists"; a contract,
       * "Do not allow delegate resources to contract addresses"), or undefined. A refused order
       * fails with `reason` (TARGET_NOT_ACTIVATED, TARGET_IS_CONTRACT) and nothing is charged,
       * instead of delegating to nowhere. Without it every target is taken.
       */
      targetRefusal?: (address: string) => { reason: string; message: string } | undefined;
    },
  ) {
    this.#book = new OrderBook(deps.maxOrders);
    this.#rentalEnds = new RentalEnds(deps.scheduler, (target, resource, amount) => this.onRentalEnd?.(target, resource, amount));
    this.#verifying = new FillVerifications(deps.scheduler);
    this.#selections = new OrderSteps(deps.scheduler, 'select orders', (order) => this.#select(order));
    this.#fills = new OrderSteps(deps.scheduler, 'fill orders', (order) => this.#fill(order));
    const nextPollAt = () => deps.market.nextPollAt();
    this.#limits = new LimitChecks({ scheduler: deps.scheduler, now: deps.now, timings: deps.timings, nextPollAt, select: (order) => this.#select(order) });
    deps.market.onChange = () => this.#limits.scheduleAt(this.deps.now());
  }

  /** Duration bounds (the spec gives none; see MARKET_RULES). VALIDATION_ERROR naming the field. */
  checkDuration(durationSec: number, field = 'duration_sec'): void {
    checkDuration(durationSec, field);
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
      lock = planCost(plan);
    }
    if (!Number.isSafeInteger(lock)) {
      throw new MockApiError('INSUFFICIENT_BALANCE', 'The order would cost more than any balance can hold', {
        required_sun: lock,
        available_sun: account.ledger.available('TRX'),
      });
    }
    const order = newOrderRecord(input, {
      seq: ++this.#seq,
      id: this.deps.rng.uuid(),
      account_id: account.id,
      order_type: type,
      created_at: now,
      expires_at: type === 'LIMIT' ? now + this.deps.timings.limitOrderTtlMs : null,
    });
    account.ledger.lock('TRX', lock, order.id); // throws INSUFFICIENT_BALANCE before anything is stored
    this.#book.add(order);
    this.#book.trim();
    this.#selections.at(now + this.deps.timings.selectMs, order);
    if (order.expires_at !== null) {
      this.#limits.waiting.add(order);
      this.deps.scheduler.schedule(order.expires_at, `expire ${order.id}`, () => this.#expire(order));
    }
    return order;
  }

  /** Any account's order (for `/__mock/` helpers). */
  find(id: string): OrderRecord | undefined {
    return this.#book.find(id);
  }

  get(accountId: string, id: string): OrderRecord | undefined {
    return this.#book.get(accountId, id);
  }

  list(accountId: string, filter: { status?: OrderStatus; limit: number; offset: number }): { orders: OrderRecord[]; total: number } {
    return this.#book.list(accountId, filter);
  }

  all(accountId?: string): OrderRecord[] {
    return this.#book.all(accountId);
  }

  /** Every order and the engine's counters, as plain data (see persist.ts). */
  dump() {
    return { seq: this.#seq, orders: this.#book.all(), evicted_spent: this.#book.evictedSpentByAccount, rental_ends: this.#rentalEnds.pending };
  }

  /**
   * Load a {@link dump} and schedule again what each order was waiting for: selection, expiry,
   * the fill of a plan in progress, verification, the next periodic run, the rentals' ends.
   */
  load(d: ReturnType<OrderEngine['dump']>): void {
    const { scheduler, timings } = this.deps;
    const now = this.deps.now();
    this.#seq = d.seq;
    this.#book.clear();
    this.#limits.waiting.clear();
    for (const [account, spent] of d.evicted_spent) this.#book.evictedSpentByAccount.set(account, spent);
    for (const order of d.orders) {
      this.#book.add(order);
      if (order.status === 'PENDING') {
        this.#selections.at(order.created_at + timings.selectMs, order);
        if (order.expires_at !== null) {
          this.#limits.waiting.add(order);
          scheduler.schedule(order.expires_at, `expire ${order.id}`, () => this.#expire(order));
        }
      } else if (order.plan !== null) {
        this.#fills.at(now, order);
      }
      const unverified = order.fills.filter((f) => f.status === 'CONFIRMED' && !f.verified);
      for (const fill of unverified) {
        this.#verifying.at((fill.confirmed_at ?? now) + timings.verifyMs, [fill]);
      }
      if (order.status === 'FILLED' && order.plan === null && order.next_run_at !== null) {
        scheduler.schedule(order.next_run_at, `renew ${order.id}`, () => this.#renew(order));
      }
    }
    this.#rentalEnds.load(d.rental_ends);
    this.#limits.scheduleAt(now);
  }

  /** How many orders are kept now. */
  get size(): number {
    return this.#book.size;
  }

  /** Confirmed spend of the account's orders that retention forgot (so the books still balance). */
  evictedSpent(accountId: string): number {
    return this.#book.evictedSpent(accountId);
  }

  // ---- transitions ----

  #expire(order: OrderRecord): void {
    if (order.status === 'PENDING') this.#fail(order, 'EXPIRED', 'No provider reached the limit price before the order expired');
  }

  #select(order: OrderRecord): void {
    if (order.status !== 'PENDING') return;
    this.#limits.waiting.delete(order);
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
        this.#limits.waiting.add(order);
        this.#limits.scheduleAt(this.deps.market.nextPollAt());
        return; // keeps waiting, funds stay locked
      }
      const error = selectionError(this.deps.market.select(query), order.max_price_sun ?? undefined);
      this.#fail(order, error.code, error.message);
      return;
    }
    if (!this.#cover(account, order.id, planCost(plan))) {
      this.#fail(order, 'INSUFFICIENT_BALANCE', 'The price rose above what the balance can cover');
      return;
    }
    for (const item of plan) this.deps.market.consume(item.provider, order.resource_type, item.amount);
    order.plan = plan;
    order.status = 'EXECUTING';
    this.#fills.at(this.deps.now() + this.deps.timings.fillMs, order);
  }

  /** Make the lock of `ref` cover `cost` (a plan's, or one share's), locking more if needed. */
  #cover(account: MockAccount, ref: string, cost: number): boolean {
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
    const refusal = this.deps.targetRefusal?.(order.target_address);
    if (refusal) {
      order.plan = null;
      const what = refusal.reason === 'TARGET_NOT_ACTIVATED' ? 'is not activated on chain' : 'is a contract';
      const remedy = refusal.reason === 'TARGET_NOT_ACTIVATED' ? ' (send it TRX first)' : '';
      const why = `${order.target_address} ${what}: providers cannot delegate to it${remedy}; the chain says "${refusal.message}"`;
      if (periodicRun) this.#stopPeriodic(order, refusal.reason);
      else this.#fail(order, refusal.reason, why);
      return;
    }
    const confirmed: FillRecord[] = [];
    const tried = new Set(order.plan.map((p) => p.provider));
    for (const share of order.plan) {
      let item: PlanItem | undefined = share;
      for (let attempt = 0; item && attempt <= MAX_DELEGATION_RETRIES; attempt++) {
        if (this.deps.market.isFailing(item.provider) || !this.#cover(account, order.id, item.cost_sun)) {
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
    this.#verifying.at(now + this.deps.timings.verifyMs, confirmed);
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
    if (!this.#cover(account, order.id, planCost(plan))) {
      this.#stopPeriodic(order, 'INSUFFICIENT_BALANCE');
      return;
    }
    this.deps.market.consume(selection.best.provider, order.resource_type, order.amount);
    order.plan = plan;
    this.#fills.at(this.deps.now() + this.deps.timings.fillMs, order);
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
    this.#limits.waiting.delete(order);
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
    if (status === 'CONFIRMED' && this.deps.delegate)
      this.#rentalEnds.at(now + order.duration_sec * 1000, order.target_address, order.resource_type, item.amount);
    return newFillRecord(order, item, status, { id, tx_id, now, run });
  }
}
