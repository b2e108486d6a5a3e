import * as z from 'zod/mini';
import type { Known } from './known.js';
import {
  LIMITS,
  RESOURCE_TYPES,
  ResourceType,
  lenientEnum,
  looseNumber,
  sunAmount,
  sunPrice,
  looseTimestamp,
  positiveInt,
  queryInt,
  tronAddress,
} from './common.js';
import { ORDER_TYPES, ORDER_STATUSES, FILL_STATUSES, ORDER_TYPES_NEEDING_PRICE } from './enums.js';
import { described, withMeta } from './meta.js';
export { ORDER_TYPES, ORDER_STATUSES, FILL_STATUSES, ORDER_TYPES_NEEDING_PRICE, FINAL_ORDER_STATUSES } from './enums.js';

/** One of {@link ORDER_TYPES}, as a request sends it (strict). */
export const OrderType = z.enum(ORDER_TYPES);
export type OrderType = Known<z.infer<typeof OrderType>>;
/** One of {@link ORDER_STATUSES}, as a request (the `status` filter of GET /orders) sends it. */
export const OrderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = Known<z.infer<typeof OrderStatus>>;

/** An energy order asks for at least {@link LIMITS.MIN_ENERGY_AMOUNT} units (a rule of `CreateOrderRequest`). */
export function energyAmountIsEnough(o: { resource_type: string; amount: number }): boolean {
  return o.resource_type !== 'ENERGY' || o.amount >= LIMITS.MIN_ENERGY_AMOUNT;
}

/** A LIMIT order names its `max_price_sun` (a rule of `CreateOrderRequest`). */
export function limitOrderHasPrice(o: { order_type?: string | undefined; max_price_sun?: number | undefined }): boolean {
  return !(ORDER_TYPES_NEEDING_PRICE as readonly string[]).includes(o.order_type ?? 'MARKET') || o.max_price_sun !== undefined;
}

/**
 * Body of `createOrder`. Checked before sending: energy amounts of at least 65000, and
 * `max_price_sun` present for LIMIT orders.
 */
export const CreateOrderRequest = z
  .strictObject({
    /** `ENERGY` or `BANDWIDTH`. */
    resource_type: described(ResourceType, 'ENERGY or BANDWIDTH.'),
    /**
     * How the order executes (see {@link ORDER_TYPES}). Omitted: the service uses `MARKET`.
     * @default 'MARKET'
     */
    order_type: described(
      z.optional(OrderType),
      'MARKET (default: at once at the best price), LIMIT (waits for max_price_sun), PERIODIC (re-executes at an interval) or BROADCAST (several providers).',
    ),
    /** Resource units to rent: a positive whole number, at least 65000 for energy. */
    amount: described(positiveInt, `Resource units to rent (not SUN); at least ${LIMITS.MIN_ENERGY_AMOUNT} for ENERGY.`),
    /** Rental duration, in seconds (a positive whole number). */
    duration_sec: described(positiveInt, 'Rental duration in seconds, e.g. 3600 for one hour.'),
    /** Base58 TRON address that receives the delegated resource. */
    target_address: described(tronAddress, 'Base58 TRON address (T…) that receives the resource.'),
    /** Highest price per unit, in SUN. Required for LIMIT orders; a MARKET order fails above it. */
    max_price_sun: described(z.optional(z.number().check(z.positive())), 'Highest price in SUN per unit; required for LIMIT orders.'),
  })
  .check(
    // Named predicates, not a superRefine: the build-time fast checks (scripts/checks.mjs) call
    // these very functions; an anonymous one would leave the body to zod alone.
    z.refine(energyAmountIsEnough, {
      path: ['amount'],
      message: `must be at least ${LIMITS.MIN_ENERGY_AMOUNT} for energy`,
      params: { min: LIMITS.MIN_ENERGY_AMOUNT },
    }),
    z.refine(limitOrderHasPrice, { path: ['max_price_sun'], message: 'is required for LIMIT orders' }),
  );
export type CreateOrderRequest = z.input<typeof CreateOrderRequest>;

/** One provider execution inside an order (a BROADCAST order may have several). */
export const Fill = z.looseObject({
  /** Provider that executed the fill. */
  provider: described(z.string(), 'Provider that executed the fill.'),
  /** Units delivered. */
  amount: described(looseNumber, 'Units delivered.'),
  /** Price per unit, in SUN. */
  price_sun: described(sunPrice, 'Price per unit in SUN.'),
  /** Total cost of the fill, in SUN. */
  cost_sun: described(sunAmount, 'Total cost of the fill in SUN.'),
  /** On-chain delegation transaction hash. */
  tx_id: described(z.string(), 'On-chain transaction hash.'),
  /** `CONFIRMED` or `FAILED`; unknown values are kept. */
  status: described(lenientEnum(FILL_STATUSES), 'CONFIRMED or FAILED.'),
  /** True once a verifier has confirmed the delegation on-chain; may be false briefly after the fill. */
  verified: described(z.boolean(), 'True once a verifier has confirmed the delegation on-chain; may be false briefly after the fill.'),
  /** Link to the transaction in a block explorer. */
  tronscan_url: described(z.string(), 'Link to the transaction in a block explorer.'),
  /** The delegation's transaction id (follows the live service, not the spec); null for a failed fill. */
  delegation_tx: z.nullish(z.string()),
});
export type Fill = Known<z.infer<typeof Fill>>;

/**
 * An order as the API returns it. One schema for the three shapes the spec gives: the create
 * response, list items (plus filled_at) and the full order of `getOrder` (plus
 * total_cost_sun, total_fee_sun, fills). Money is in SUN; unknown statuses and fields are kept.
 */
export const Order = z.looseObject({
  /** Order UUID. */
  id: described(z.string(), 'Order UUID.'),
  /** See {@link ORDER_STATUSES}; values this version does not know are kept. */
  status: described(lenientEnum(ORDER_STATUSES), 'PENDING, EXECUTING, FILLED or FAILED.'),
  /** `ENERGY` or `BANDWIDTH`. */
  resource_type: described(lenientEnum(RESOURCE_TYPES), 'ENERGY or BANDWIDTH.'),
  /** See {@link ORDER_TYPES}. */
  order_type: described(lenientEnum(ORDER_TYPES), 'MARKET, LIMIT, PERIODIC or BROADCAST.'),
  /** Requested resource units. */
  amount: described(looseNumber, 'Requested resource units.'),
  /** Rental duration, in seconds. */
  duration_sec: described(looseNumber, 'Rental duration in seconds.'),
  /** Base58 TRON address receiving the resource. */
  target_address: described(z.string(), 'Receiving TRON address (base58).'),
  /** Highest price per unit, in SUN, when the order set one. */
  max_price_sun: described(z.nullish(sunPrice), 'Max price per unit in SUN, when given.'),
  /** Total cost in SUN; set once filled. Only in the full order (`getOrder`). */
  total_cost_sun: described(z.nullish(sunAmount), 'Total cost in SUN; set after fill.'),
  /** Fee in SUN, currently 0. Only in the full order (`getOrder`). */
  total_fee_sun: described(z.nullish(sunAmount), 'Fee in SUN; currently 0 (0% commission).'),
  /** Provider executions. Only in the full order (`getOrder`). */
  fills: described(z.optional(z.array(Fill)), 'Provider executions; a BROADCAST order may have several.'),
  /** Creation time: ISO 8601 per the spec; Unix time is accepted too. */
  created_at: described(looseTimestamp, 'ISO 8601.'),
  /** Completion time, null until filled. Absent from the create response. */
  filled_at: described(z.nullish(looseTimestamp), 'Completion time (ISO 8601); null until filled.'),
  /**
   * When the order ends (follows the live service, not the spec): a waiting LIMIT order's
   * deadline, then the end of the rental once filled. Only in the full order; null until known.
   */
  expires_at: z.nullish(looseTimestamp),
});
export type Order = Known<z.infer<typeof Order>>;

/** The full order of `getOrder`: the create shape plus its cost, fee and fills. */
export const OrderDetail = z.required(Order, { fills: true });
export type OrderDetail = Known<z.infer<typeof OrderDetail>>;

/** Query of `listOrders`. Every field is optional. */
export const ListOrdersQuery = z.strictObject({
  /** Only orders in this status. Omitted: every status. */
  status: described(z.optional(OrderStatus), 'Only orders in this status.'),
  /**
   * Page size, 1 to 100. Omitted: the service uses 30.
   * @default 30
   */
  limit: withMeta(z.optional(z.pipe(queryInt, z.number().check(z.int(), z.minimum(1), z.maximum(LIMITS.ORDER_LIST_MAX_LIMIT)))), {
    description: `Page size, 1 to ${LIMITS.ORDER_LIST_MAX_LIMIT}.`,
    default: LIMITS.ORDER_LIST_DEFAULT_LIMIT,
  }),
  /**
   * Orders to skip.
   * @default 0
   */
  offset: withMeta(z.optional(z.pipe(queryInt, z.number().check(z.int(), z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER)))), {
    description: 'Orders to skip.',
    default: 0,
  }),
});
// What callers pass: numbers (the schema also accepts the digit strings a URL query carries).
export type ListOrdersQuery = z.output<typeof ListOrdersQuery>;

/** Response of `listOrders`: one page of orders (list shape, without fills). */
export const OrderList = z.looseObject({
  /** The page, in list shape: no total_cost_sun, total_fee_sun or fills. */
  orders: described(z.array(Order), 'Orders in list shape.'),
  /** Number of orders matching the filter, over all pages. */
  total: described(looseNumber, 'Number of orders matching the filter.'),
});
export type OrderList = Known<z.infer<typeof OrderList>>;

/** Path id of `getOrder` (a UUID on the live service; any non-empty id here). */
export const OrderId = described(z.string().check(z.minLength(1, 'is required')), 'Order UUID.');
