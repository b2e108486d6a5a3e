import { z } from 'zod';
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

export const ORDER_TYPES = ['MARKET', 'LIMIT', 'PERIODIC', 'BROADCAST'] as const;
export const ORDER_STATUSES = ['PENDING', 'EXECUTING', 'FILLED', 'FAILED'] as const;
export const FILL_STATUSES = ['CONFIRMED', 'FAILED'] as const;
export const OrderType = z.enum(ORDER_TYPES);
export type OrderType = z.infer<typeof OrderType>;
export const OrderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatus>;

/** POST /api/v1/orders */
export const CreateOrderRequest = z
  .strictObject({
    resource_type: ResourceType,
    order_type: OrderType.optional(),
    amount: positiveInt,
    duration_sec: positiveInt,
    target_address: tronAddress,
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
    if (o.order_type === 'LIMIT' && o.max_price_sun === undefined) {
      ctx.addIssue({ code: 'custom', path: ['max_price_sun'], message: 'is required for LIMIT orders' });
    }
  });
export type CreateOrderRequest = z.input<typeof CreateOrderRequest>;

export const Fill = z.looseObject({
  provider: z.string(),
  amount: looseNumber,
  price_sun: looseNumber,
  cost_sun: looseNumber,
  tx_id: z.string(),
  status: lenientEnum(FILL_STATUSES),
  verified: z.boolean(),
  tronscan_url: z.string(),
});
export type Fill = z.infer<typeof Fill>;

/**
 * One schema for the three shapes the spec gives: the create response, list items (plus
 * filled_at) and the full order (plus total_cost_sun, total_fee_sun, fills).
 */
export const Order = z.looseObject({
  id: z.string(),
  status: lenientEnum(ORDER_STATUSES),
  resource_type: lenientEnum(RESOURCE_TYPES),
  order_type: lenientEnum(ORDER_TYPES),
  amount: looseNumber,
  duration_sec: looseNumber,
  target_address: z.string(),
  max_price_sun: looseNumber.nullish(),
  total_cost_sun: looseNumber.nullish(),
  total_fee_sun: looseNumber.nullish(),
  fills: z.array(Fill).optional(),
  created_at: looseTimestamp,
  filled_at: looseTimestamp.nullish(),
});
export type Order = z.infer<typeof Order>;

/** GET /api/v1/orders */
export const ListOrdersQuery = z.strictObject({
  status: OrderStatus.optional(),
  limit: queryInt.pipe(z.number().int().min(1).max(LIMITS.ORDER_LIST_MAX_LIMIT)).optional(),
  offset: queryInt.pipe(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)).optional(),
});
// What callers pass: numbers (the schema also accepts the digit strings a URL query carries).
export type ListOrdersQuery = z.output<typeof ListOrdersQuery>;

export const OrderList = z.looseObject({
  orders: z.array(Order),
  total: looseNumber,
});
export type OrderList = z.infer<typeof OrderList>;

/** Path id of GET /api/v1/orders/:id (a UUID on the live service; any non-empty id here). */
export const OrderId = z.string().min(1, 'is required');
