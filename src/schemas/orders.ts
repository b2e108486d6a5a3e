import * as z from 'zod';
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
    resource_type: ResourceType.describe('ENERGY or BANDWIDTH.'),
    /**
     * How the order executes (see {@link ORDER_TYPES}). Omitted: the service uses `MARKET`.
     * @default 'MARKET'
     */
    order_type: OrderType.optional().describe('MARKET (default: at once at the best price), LIMIT (waits for max_price_sun), PERIODIC (re-executes at an interval) or BROADCAST (several providers).'),
    /** Resource units to rent: a positive whole number, at least 65000 for energy. */
    amount: positiveInt.describe(`Resource units to rent (not SUN); at least ${LIMITS.MIN_ENERGY_AMOUNT} for ENERGY.`),
    /** Rental duration, in seconds (a positive whole number). */
    duration_sec: positiveInt.describe('Rental duration in seconds, e.g. 3600 for one hour.'),
    /** Base58 TRON address that receives the delegated resource. */
    target_address: tronAddress.describe('Base58 TRON address (T…) that receives the resource.'),
    /** Highest price per unit, in SUN. Required for LIMIT orders; a MARKET order fails above it. */
    max_price_sun: z.number().positive().optional().describe('Highest price in SUN per unit; required for LIMIT orders.'),
  })
  // Named predicates, not a superRefine: the build-time fast checks (scripts/checks.mjs) call
  // these very functions; an anonymous one would leave the body to zod alone.
  .refine(energyAmountIsEnough, {
    path: ['amount'],
    message: `must be at least ${LIMITS.MIN_ENERGY_AMOUNT} for energy`,
    params: { min: LIMITS.MIN_ENERGY_AMOUNT },
  })
  .refine(limitOrderHasPrice, { path: ['max_price_sun'], message: 'is required for LIMIT orders' });
export type CreateOrderRequest = z.input<typeof CreateOrderRequest>;

/** One provider execution inside an order (a BROADCAST order may have several). */
export const Fill = z.looseObject({
  /** Provider that executed the fill. */
  provider: z.string().describe('Provider that executed the fill.'),
  /** Units delivered. */
  amount: looseNumber.describe('Units delivered.'),
  /** Price per unit, in SUN. */
  price_sun: sunPrice.describe('Price per unit in SUN.'),
  /** Total cost of the fill, in SUN. */
  cost_sun: sunAmount.describe('Total cost of the fill in SUN.'),
  /** On-chain delegation transaction hash. */
  tx_id: z.string().describe('On-chain transaction hash.'),
  /** `CONFIRMED` or `FAILED`; unknown values are kept. */
  status: lenientEnum(FILL_STATUSES).describe('CONFIRMED or FAILED.'),
  /** True once a verifier has confirmed the delegation on-chain; may be false briefly after the fill. */
  verified: z.boolean().describe('True once a verifier has confirmed the delegation on-chain; may be false briefly after the fill.'),
  /** Link to the transaction in a block explorer. */
  tronscan_url: z.string().describe('Link to the transaction in a block explorer.'),
  /** The delegation's transaction id (follows the live service, not the spec); null for a failed fill. */
  delegation_tx: z.string().nullish(),
});
export type Fill = Known<z.infer<typeof Fill>>;

/**
 * An order as the API returns it. One schema for the three shapes the spec gives: the create
 * response, list items (plus filled_at) and the full order of `getOrder` (plus
 * total_cost_sun, total_fee_sun, fills). Money is in SUN; unknown statuses and fields are kept.
 */
export const Order = z.looseObject({
  /** Order UUID. */
  id: z.string().describe('Order UUID.'),
  /** See {@link ORDER_STATUSES}; values this version does not know are kept. */
  status: lenientEnum(ORDER_STATUSES).describe('PENDING, EXECUTING, FILLED or FAILED.'),
  /** `ENERGY` or `BANDWIDTH`. */
  resource_type: lenientEnum(RESOURCE_TYPES).describe('ENERGY or BANDWIDTH.'),
  /** See {@link ORDER_TYPES}. */
  order_type: lenientEnum(ORDER_TYPES).describe('MARKET, LIMIT, PERIODIC or BROADCAST.'),
  /** Requested resource units. */
  amount: looseNumber.describe('Requested resource units.'),
  /** Rental duration, in seconds. */
  duration_sec: looseNumber.describe('Rental duration in seconds.'),
  /** Base58 TRON address receiving the resource. */
  target_address: z.string().describe('Receiving TRON address (base58).'),
  /** Highest price per unit, in SUN, when the order set one. */
  max_price_sun: sunPrice.nullish().describe('Max price per unit in SUN, when given.'),
  /** Total cost in SUN; set once filled. Only in the full order (`getOrder`). */
  total_cost_sun: sunAmount.nullish().describe('Total cost in SUN; set after fill.'),
  /** Fee in SUN, currently 0. Only in the full order (`getOrder`). */
  total_fee_sun: sunAmount.nullish().describe('Fee in SUN; currently 0 (0% commission).'),
  /** Provider executions. Only in the full order (`getOrder`). */
  fills: z.array(Fill).optional().describe('Provider executions; a BROADCAST order may have several.'),
  /** Creation time: ISO 8601 per the spec; Unix time is accepted too. */
  created_at: looseTimestamp.describe('ISO 8601.'),
  /** Completion time, null until filled. Absent from the create response. */
  filled_at: looseTimestamp.nullish().describe('Completion time (ISO 8601); null until filled.'),
  /**
   * When the order ends (follows the live service, not the spec): a waiting LIMIT order's
   * deadline, then the end of the rental once filled. Only in the full order; null until known.
   */
  expires_at: looseTimestamp.nullish(),
});
export type Order = Known<z.infer<typeof Order>>;

/** The full order of `getOrder`: the create shape plus its cost, fee and fills. */
export const OrderDetail = Order.required({ fills: true });
export type OrderDetail = Known<z.infer<typeof OrderDetail>>;

/** Query of `listOrders`. Every field is optional. */
export const ListOrdersQuery = z.strictObject({
  /** Only orders in this status. Omitted: every status. */
  status: OrderStatus.optional().describe('Only orders in this status.'),
  /**
   * Page size, 1 to 100. Omitted: the service uses 30.
   * @default 30
   */
  limit: queryInt.pipe(z.number().int().min(1).max(LIMITS.ORDER_LIST_MAX_LIMIT)).optional().meta({ description: `Page size, 1 to ${LIMITS.ORDER_LIST_MAX_LIMIT}.`, default: LIMITS.ORDER_LIST_DEFAULT_LIMIT }),
  /**
   * Orders to skip.
   * @default 0
   */
  offset: queryInt.pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)).optional().meta({ description: 'Orders to skip.', default: 0 }),
});
// What callers pass: numbers (the schema also accepts the digit strings a URL query carries).
export type ListOrdersQuery = z.output<typeof ListOrdersQuery>;

/** Response of `listOrders`: one page of orders (list shape, without fills). */
export const OrderList = z.looseObject({
  /** The page, in list shape: no total_cost_sun, total_fee_sun or fills. */
  orders: z.array(Order).describe('Orders in list shape.'),
  /** Number of orders matching the filter, over all pages. */
  total: looseNumber.describe('Number of orders matching the filter.'),
});
export type OrderList = Known<z.infer<typeof OrderList>>;

/** Path id of `getOrder` (a UUID on the live service; any non-empty id here). */
export const OrderId = z.string().min(1, 'is required').describe('Order UUID.');
