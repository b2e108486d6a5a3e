import * as z from 'zod';
import type { Known } from './known.js';
import {
  LIMITS,
  RESOURCE_TYPES,
  ResourceType,
  lenientEnum,
  looseNumber,
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

/**
 * Body of `createOrder`. Checked before sending: energy amounts of at least 65000, and
 * `max_price_sun` present for LIMIT orders.
 */
export const CreateOrderRequest = z
  .strictObject({
    /** `ENERGY` or `BANDWIDTH`. */
    resource_type: ResourceType,
    /**
     * How the order executes (see {@link ORDER_TYPES}). Omitted: the service uses `MARKET`.
     * @default 'MARKET'
     */
    order_type: OrderType.optional(),
    /** Resource units to rent: a positive whole number, at least 65000 for energy. */
    amount: positiveInt,
    /** Rental duration, in seconds (a positive whole number). */
    duration_sec: positiveInt,
    /** Base58 TRON address that receives the delegated resource. */
    target_address: tronAddress,
    /** Highest price per unit, in SUN. Required for LIMIT orders; a MARKET order fails above it. */
    max_price_sun: z.number().positive().optional(),
  })
  .superRefine((o, ctx) => {
    if (o.resource_type === 'ENERGY' && o.amount < LIMITS.MIN_ENERGY_AMOUNT) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: `must be at least ${LIMITS.MIN_ENERGY_AMOUNT} for energy`,
        params: { min: LIMITS.MIN_ENERGY_AMOUNT },
      });
    }
    if (ORDER_TYPES_NEEDING_PRICE.includes(o.order_type ?? 'MARKET') && o.max_price_sun === undefined) {
      ctx.addIssue({ code: 'custom', path: ['max_price_sun'], message: 'is required for LIMIT orders' });
    }
  });
export type CreateOrderRequest = z.input<typeof CreateOrderRequest>;

/** One provider execution inside an order (a BROADCAST order may have several). */
export const Fill = z.looseObject({
  /** Provider that executed the fill. */
  provider: z.string(),
  /** Units delivered. */
  amount: looseNumber,
  /** Price per unit, in SUN. */
  price_sun: looseNumber,
  /** Total cost of the fill, in SUN. */
  cost_sun: looseNumber,
  /** On-chain delegation transaction hash. */
  tx_id: z.string(),
  /** `CONFIRMED` or `FAILED`; unknown values are kept. */
  status: lenientEnum(FILL_STATUSES),
  /** True once a verifier has confirmed the delegation on-chain; may be false briefly after the fill. */
  verified: z.boolean(),
  /** Link to the transaction in a block explorer. */
  tronscan_url: z.string(),
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
  id: z.string(),
  /** See {@link ORDER_STATUSES}; values this version does not know are kept. */
  status: lenientEnum(ORDER_STATUSES),
  /** `ENERGY` or `BANDWIDTH`. */
  resource_type: lenientEnum(RESOURCE_TYPES),
  /** See {@link ORDER_TYPES}. */
  order_type: lenientEnum(ORDER_TYPES),
  /** Requested resource units. */
  amount: looseNumber,
  /** Rental duration, in seconds. */
  duration_sec: looseNumber,
  /** Base58 TRON address receiving the resource. */
  target_address: z.string(),
  /** Highest price per unit, in SUN, when the order set one. */
  max_price_sun: looseNumber.nullish(),
  /** Total cost in SUN; set once filled. Only in the full order (`getOrder`). */
  total_cost_sun: looseNumber.nullish(),
  /** Fee in SUN, currently 0. Only in the full order (`getOrder`). */
  total_fee_sun: looseNumber.nullish(),
  /** Provider executions. Only in the full order (`getOrder`). */
  fills: z.array(Fill).optional(),
  /** Creation time: ISO 8601 per the spec; Unix time is accepted too. */
  created_at: looseTimestamp,
  /** Completion time, null until filled. Absent from the create response. */
  filled_at: looseTimestamp.nullish(),
  /**
   * When the order ends (follows the live service, not the spec): a waiting LIMIT order's
   * deadline, then the end of the rental once filled. Only in the full order; null until known.
   */
  expires_at: looseTimestamp.nullish(),
  /**
   * PERIODIC orders only (the spec: "Interval field for PERIODIC orders: not shown"; these
   * names are this project's design): the interval between runs in seconds, the runs made so far,
   * and when the next one starts (null when none is due).
   */
  interval_sec: looseNumber.optional(),
  runs: looseNumber.optional(),
  next_run_at: looseTimestamp.nullish(),
  /** FAILED orders only (not in the spec; this project's design): why, as a code and as text. */
  failure_reason: z.string().nullish(),
  failure_message: z.string().nullish(),
});
export type Order = Known<z.infer<typeof Order>>;

/** Query of `listOrders`. Every field is optional. */
export const ListOrdersQuery = z.strictObject({
  /** Only orders in this status. Omitted: every status. */
  status: OrderStatus.optional(),
  /**
   * Page size, 1 to 100. Omitted: the service uses 30.
   * @default 30
   */
  limit: queryInt.pipe(z.number().int().min(1).max(LIMITS.ORDER_LIST_MAX_LIMIT)).optional(),
  /**
   * Orders to skip.
   * @default 0
   */
  offset: queryInt.pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)).optional(),
});
// What callers pass: numbers (the schema also accepts the digit strings a URL query carries).
export type ListOrdersQuery = z.output<typeof ListOrdersQuery>;

/** Response of `listOrders`: one page of orders (list shape, without fills). */
export const OrderList = z.looseObject({
  /** The page, in list shape: no total_cost_sun, total_fee_sun or fills. */
  orders: z.array(Order),
  /** Number of orders matching the filter, over all pages. */
  total: looseNumber,
});
export type OrderList = Known<z.infer<typeof OrderList>>;

/** Path id of `getOrder` (a UUID on the live service; any non-empty id here). */
export const OrderId = z.string().min(1, 'is required');
