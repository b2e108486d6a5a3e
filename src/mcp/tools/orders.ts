/**
 * Orders: create (spends TRX from the account balance, capped and confirmed) and wait until an
 * order is filled or failed. Getting and listing orders are read tools generated from the
 * endpoint table (`./read.ts`).
 */
import * as z from 'zod';
import { OrderFailedError, TrxRentError } from '../../errors/index.js';
import { LIMITS } from '../../schemas/limits.js';
import { FINAL_ORDER_STATUSES } from '../../schemas/orders.js';
import { ACCOUNT_WIRE as E } from '../../api/account.js';
import { canonicalJson } from '../../internal/json.js';

const Order = E.createOrder.response;
import { sunToTrx } from '../../utils/units.js';
import { keyedPost } from '../spend.js';
import { tool } from '../tool.js';

/** Longest wait_for_order, in seconds (a client's request timeout is often 60 s). */
export const MAX_WAIT_SECONDS = 300;
const PROGRESS_EVERY_MS = 5_000;
const WaitInput = z.strictObject({
  id: E.getOrder.params.shape.id,
  timeout_sec: z.number().int().min(1).max(MAX_WAIT_SECONDS).optional(),
});

const CreatedOrder = z.object({
  order: Order,
  /** The price per unit the order was limited to, in SUN. */
  max_price_sun: z.number(),
  /** The most the order can cost, in SUN (amount x max_price_sun, rounded up). */
  max_cost_sun: z.number(),
  /** The same, in TRX. */
  max_cost_trx: z.string(),
});

export const ORDER_TOOLS = [
  tool({
    name: 'create_order',
    title: 'Rent energy or bandwidth',
    description:
      "Place an order that rents TRON ENERGY or BANDWIDTH to target_address; it is paid from the account's TRX balance. SPENDS MONEY: " +
      'needs a server started with --allow-spend, is capped per order (--max-order-trx) and in total for the server (--session-limit, all sessions together), and the user must confirm it (elicitation). ' +
      `amount is in resource units (not SUN), at least ${LIMITS.MIN_ENERGY_AMOUNT} for ENERGY; duration_sec in seconds; max_price_sun in SUN per unit (1 TRX = 1,000,000 SUN). ` +
      'Without max_price_sun the order is limited to the current best price (from a preview), so it cannot cost more than the amount confirmed; ' +
      'a MARKET order fails (nothing charged) if the price rose above it meanwhile. PERIODIC orders are not available here. ' +
      'target_address is read on the TRON node first: a contract (TARGET_IS_CONTRACT) or an address never activated (TARGET_NOT_ACTIVATED: it must receive TRX first) ' +
      'cannot receive a delegation on TRON, so such an order is refused before anything is ordered. ' +
      'Returns the order (status PENDING) and its maximum cost; use wait_for_order to see it filled.',
    access: 'spend',
    input: E.createOrder.body,
    output: CreatedOrder,
    // The other fields are described by the request schema; these two behave differently here.
    fields: {
      order_type: 'MARKET (default: at once at the best price), LIMIT (waits for max_price_sun), BROADCAST (several providers); PERIODIC is refused here',
      max_price_sun: 'Highest price in SUN per unit (required for LIMIT). Omitted: the current best price',
    },
    async run(args, { session, signal, ask }) {
      if (args.order_type === 'PERIODIC') {
        throw new TrxRentError({
          code: 'VALIDATION_ERROR',
          message:
            'order_type PERIODIC re-executes at an interval with no bound on its total cost, so it is not available through MCP; use MARKET, LIMIT or BROADCAST. Nothing was ordered.',
          details: { field: 'order_type' },
        });
      }
      // TRON refuses a delegation to a contract or to no account: refuse the order before it is placed.
      await session.api.chain.checkTarget(args.target_address, { signal });
      let price = args.max_price_sun;
      if (price === undefined) {
        const preview = await session.api.orders.preview({ resource: args.resource_type, amount: args.amount, duration: args.duration_sec }, { signal });
        if (!preview.best) {
          throw new TrxRentError({ code: 'PROVIDER_UNAVAILABLE', message: 'No provider can fill this order now (preview found none); nothing was ordered.' });
        }
        price = Number(preview.best.price_sun);
      }
      const maxCost = Math.ceil(args.amount * price);
      if (!Number.isSafeInteger(maxCost)) {
        throw new TrxRentError({
          code: 'VALIDATION_ERROR',
          message: 'amount x max_price_sun is too large; nothing was ordered.',
          details: { field: 'amount' },
        });
      }
      const body = { ...args, max_price_sun: price };
      const summary =
        `Rent ${args.amount} ${args.resource_type} to ${args.target_address} for ${args.duration_sec} s (${args.order_type ?? 'MARKET'}), ` +
        `at most ${price} SUN per unit: at most ${sunToTrx(maxCost)} TRX`;
      const { limits } = session.guard;
      const order = await session.guard.spend(
        {
          tool: 'create_order',
          lines: [{ currency: 'TRX', atomic: BigInt(maxCost), cap: { atomic: limits.maxOrderSun, flag: '--max-order-trx', off: 'orders are off' } }],
          summary,
        },
        ask,
        // One keyed POST, journaled before it leaves: its replay with the same key is the lookup of
        // an unknown outcome (by this process or the next), and answers a call again with the same arguments.
        keyedPost(
          'TRX',
          (idempotencyKey, replaySignal) => session.api.orders.create(body, { signal: replaySignal ?? signal, idempotencyKey }),
          (o) => `order ${o.id} (${o.status}) ${args.amount} ${args.resource_type} to ${args.target_address}, at most ${sunToTrx(maxCost)} TRX`,
          // The charge once the answer shows it (a new order has none yet: the most it can cost).
          (o) => (typeof o.total_cost_sun === 'number' ? BigInt(o.total_cost_sun) : undefined),
          { request: { endpoint: 'createOrder', body, args: canonicalJson(args) } },
        ),
      );
      // A retry is answered with the first call's order, pinned to the price it was sent with.
      const pinned = typeof order.max_price_sun === 'number' ? order.max_price_sun : price;
      const most = Math.ceil(args.amount * pinned);
      return { order, max_price_sun: pinned, max_cost_sun: most, max_cost_trx: sunToTrx(most) };
    },
  }),
  tool({
    name: 'wait_for_order',
    title: 'Wait for an order',
    description:
      `Poll an order until it reaches a final status (${FINAL_ORDER_STATUSES.join(', ')}) and return it (an order that ended other than FILLED is returned, not an error); a TIMEOUT error after timeout_sec (default 45, at most ${MAX_WAIT_SECONDS}) if it is still pending. ` +
      'Spends nothing. Money fields are in SUN.',
    access: 'read',
    input: WaitInput,
    output: Order,
    fields: { id: 'Order id (UUID)', timeout_sec: `How long to wait, in seconds (default 45, at most ${MAX_WAIT_SECONDS})` },
    async run(args, { session, signal, progress }) {
      const seconds = args.timeout_sec ?? 45;
      const started = Date.now();
      // A progress notification every few seconds (clients that asked for them keep waiting).
      const ticker = setInterval(() => {
        progress(Math.round((Date.now() - started) / 1000), seconds, `waiting for order ${args.id}`).catch(() => undefined);
      }, PROGRESS_EVERY_MS);
      try {
        return await session.api.orders.waitFor(args.id, { timeoutMs: seconds * 1000, signal });
      } catch (error) {
        if (error instanceof OrderFailedError) return Order.parse(error.order);
        throw error;
      } finally {
        clearInterval(ticker);
      }
    },
  }),
];
