import { ACCOUNT_WIRE as E } from '../api/account.js';
import { OrderFailedError, TimeoutError } from '../errors/index.js';
import { ApiPromise, type WithResponse } from '../http/api-promise.js';
import type { RequestOptions } from '../http/client.js';
import { pollUntil } from '../utils/clock.js';
import { walkPages } from '../internal/paginate.js';
import { type CreateOrderRequest, FINAL_ORDER_STATUSES, type ListOrdersQuery, type Order, type OrderList } from '../schemas/orders.js';
import type { PreviewQuery } from '../schemas/prices.js';
import { Resource } from './resource.js';

/** Options of {@link Orders.waitFor}: how long to wait and how often to poll. */
export interface WaitForOptions {
  /** Give up (TimeoutError) after this long. Default 120 000 ms. */
  timeoutMs?: number;
  /** First poll delay; grows 1.5x per poll up to maxPollIntervalMs. Default 500 ms. */
  pollIntervalMs?: number;
  /** Ceiling of the poll delay. Default 6 000 ms (10 polls a minute, the orders rate limit). */
  maxPollIntervalMs?: number;
  signal?: AbortSignal;
  /** Called with the order after every poll (progress: its status as it moves). */
  onStatus?: (order: Order) => void;
}

/**
 * `await orders.list()` gives one page `{ orders, total }`; `for await (const o of orders.list())`
 * walks every page from the given offset until `total` is reached.
 *
 * The walk trusts no server to end it: it stops on an empty page, on a page that brings no id
 * it has not already yielded (an id is never yielded twice), or on an offset past `total`; and
 * after `maxPages` pages it fails with PaginationLimitError rather than walk forever.
 */
export class OrderPage extends ApiPromise<OrderList> implements AsyncIterable<Order> {
  readonly #fetchPage: (offset: number) => Promise<WithResponse<OrderList>>;
  readonly #offset: number;
  readonly #maxPages: number;

  constructor(fetchPage: (offset: number) => Promise<WithResponse<OrderList>>, offset: number, maxPages = Number.POSITIVE_INFINITY) {
    super(() => fetchPage(offset));
    this.#fetchPage = fetchPage;
    this.#offset = offset;
    this.#maxPages = maxPages;
  }

  /** Every order from the page's offset on, one page request at a time (see the class notes for when it stops). */
  [Symbol.asyncIterator](): AsyncIterator<Order> {
    return walkPages<WithResponse<OrderList>, Order>({
      facts: E.listOrders.pagination,
      startOffset: this.#offset,
      maxPages: this.#maxPages,
      first: () => this.withResponse(),
      fetchPage: this.#fetchPage,
      body: (page) => page.data,
    });
  }
}

/** `client.orders`: preview, create, get, list (one page or `for await` over all) and wait for orders. */
export class Orders extends Resource {
  /** What an order would cost now; places nothing. */
  preview(params: PreviewQuery, options?: RequestOptions) {
    return this.call(E.previewOrder, { query: params }, options);
  }

  /**
   * Place an order. An Idempotency-Key is generated when none is given and reused on every
   * retry, so a retried create never places a second order. `.withResponse()` tells a replay
   * (status 200) from a first create (201).
   *
   * One call to the account API, which knows no TRON node: the target is not checked here. TRON
   * refuses a delegation to an address that has never received TRX and to a contract, so the
   * service fails such an order after it is placed (nothing charged). To refuse it before, call
   * `client.chain.checkTarget(target_address)` first (TARGET_NOT_ACTIVATED, TARGET_IS_CONTRACT);
   * `client.chain.ensure`, the CLI's `buy` and the MCP `create_order` tool do.
   */
  create(params: CreateOrderRequest, options?: RequestOptions) {
    return this.call(E.createOrder, { body: params }, options);
  }

  /** The full order with fills. */
  get(id: string, options?: RequestOptions) {
    return this.call(E.getOrder, { params: { id } }, options);
  }

  /** One page (await) or every order from `offset` on (for await); the query is validated on first use. */
  list(params: ListOrdersQuery = {}, options?: RequestOptions): OrderPage {
    const offsetOf = E.listOrders.pagination.offset;
    const fetchPage = (offset: number) => this.send(E.listOrders, { query: { ...params, [offsetOf]: offset } }, options);
    return new OrderPage(fetchPage, Number(params.offset ?? 0), this.http.maxPages);
  }

  /**
   * Poll an order until it is FILLED (resolves with it), another final status (FAILED,
   * CANCELLED, PARTIALLY_FILLED, EXPIRED: rejects at once with OrderFailedError carrying the order
   * and naming the status) or the deadline passes (TimeoutError). Polls back off 1.5x per round.
   */
  async waitFor(id: string, options: WaitForOptions = {}): Promise<Order> {
    const timeoutMs = options.timeoutMs ?? 120_000;
    let last: string | undefined;
    return pollUntil<Order>(
      async (remaining) => {
        let order: Order;
        try {
          // Each poll gets at least 2 s, however little of the wait is left: a poll cut to 1 ms
          // would fail as a request timeout instead of reporting where the order stands.
          order = await this.get(id, { signal: options.signal, timeoutMs: Math.min(30_000, Math.max(remaining, 2_000)) });
        } catch (error) {
          if (error instanceof TimeoutError && last !== undefined && remaining <= 0) {
            throw new TimeoutError(`Order ${id} still ${last} after ${timeoutMs} ms (the last poll timed out)`, error);
          }
          throw error;
        }
        last = order.status;
        options.onStatus?.(order);
        if (order.status === 'FILLED') return { done: true, value: order };
        if (FINAL_ORDER_STATUSES.includes(String(order.status))) throw new OrderFailedError(order);
        return { done: false, last: order.status };
      },
      {
        timeoutMs,
        intervalMs: options.pollIntervalMs ?? 500,
        maxIntervalMs: options.maxPollIntervalMs ?? 60_000 / 10,
        clock: this.http.clock,
        signal: options.signal,
        timeoutMessage: (status) => `Order ${id} still ${String(status)} after ${timeoutMs} ms`,
      },
    );
  }
}
