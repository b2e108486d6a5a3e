/**
 * Where the order engine keeps its orders: by id, per account, and oldest first for retention,
 * with the confirmed spend of the orders retention forgot (the books still count it). The
 * queries (`find`, `get`, `list`, `all`) read from here; the state machine is `orders.ts`.
 * @module
 */
import type { OrderStatus } from '../../schemas/orders.js';
import { Fifo } from '../shared/fifo.js';
import type { OrderRecord } from './order-record.js';

/** The stored orders, their indexes, and retention. */
export class OrderBook {
  readonly #orders = new Map<string, OrderRecord>();
  /** Orders oldest first, for retention (an open order seen at the front is pushed back). */
  readonly #age = new Fifo<OrderRecord>();
  /** Per account, in insertion order (Sets, so eviction removes one in O(1)). */
  readonly #byAccount = new Map<string, Set<OrderRecord>>();
  /** Confirmed spend of orders forgotten by retention, per account (the books still count it). */
  readonly #evictedSpent = new Map<string, number>();

  /** @param maxOrders Most orders kept (oldest finished ones forgotten first). */
  constructor(private readonly maxOrders = Infinity) {}

  /** Store a new (or restored) order. */
  add(order: OrderRecord): void {
    this.#orders.set(order.id, order);
    this.#age.push(order);
    let list = this.#byAccount.get(order.account_id);
    if (!list) this.#byAccount.set(order.account_id, (list = new Set()));
    list.add(order);
  }

  /** Forget every order (the evicted spend stays), before a restore. */
  clear(): void {
    this.#orders.clear();
    this.#byAccount.clear();
    this.#age.clear();
  }

  /** Any account's order (for `/__mock/` helpers). */
  find(id: string): OrderRecord | undefined {
    return this.#orders.get(id);
  }

  /** The account's order with this id. */
  get(accountId: string, id: string): OrderRecord | undefined {
    const order = this.#orders.get(id);
    return order && order.account_id === accountId ? order : undefined;
  }

  /** GET /orders: the account's orders, newest first, filtered and paged, with the total. */
  list(accountId: string, filter: { status?: OrderStatus; limit: number; offset: number }): { orders: OrderRecord[]; total: number } {
    const all = [...(this.#byAccount.get(accountId) ?? [])].filter((o) => !filter.status || o.status === filter.status);
    all.sort((a, b) => b.created_at - a.created_at || b.seq - a.seq);
    return { orders: all.slice(filter.offset, filter.offset + filter.limit), total: all.length };
  }

  /** The account's orders (every order without one), in insertion order. */
  all(accountId?: string): OrderRecord[] {
    return accountId ? [...(this.#byAccount.get(accountId) ?? [])] : [...this.#orders.values()];
  }

  /** How many orders are kept now. */
  get size(): number {
    return this.#orders.size;
  }

  /** Confirmed spend of orders retention forgot, per account (saved with the orders). */
  get evictedSpentByAccount(): Map<string, number> {
    return this.#evictedSpent;
  }

  /** Confirmed spend of the account's orders that retention forgot (so the books still balance). */
  evictedSpent(accountId: string): number {
    return this.#evictedSpent.get(accountId) ?? 0;
  }

  /**
   * Retention: past `maxOrders`, forget the oldest finished orders. An open one at the front is
   * moved to the back instead (at most a few per call), so each create does constant work.
   */
  trim(): void {
    const max = this.maxOrders;
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
}

/** Still has work to do (or money locked): never forgotten by retention. */
function isOpen(order: OrderRecord): boolean {
  return order.status === 'PENDING' || order.status === 'EXECUTING' || order.plan !== null || order.next_run_at !== null;
}
