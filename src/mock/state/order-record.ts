/**
 * An order as the mock stores it (the spec's fields plus its execution plan and runs) and its
 * fills, and how a new one of each is made: the record the order engine (`orders.ts`) moves and
 * `order-wire.ts` serialises.
 * @module
 */
import type { ResourceType } from '../../schemas/common.js';
import type { OrderStatus, OrderType } from '../../schemas/orders.js';
import type { PlanItem } from './market-selection.js';
import type { NewOrder } from './order-rules.js';

/** One provider's delegation for an order, as the mock stores it. */
export interface FillRecord {
  id: string;
  order_id: string;
  provider: string;
  amount: number;
  price_sun: number;
  cost_sun: number;
  tx_id: string;
  status: 'CONFIRMED' | 'FAILED';
  verified: boolean;
  tronscan_url: string;
  resource_type: ResourceType;
  created_at: number;
  confirmed_at: number | null;
  run: number;
}

/** An order as the mock stores it: the spec's fields plus its execution plan and runs. */
export interface OrderRecord {
  seq: number;
  id: string;
  account_id: string;
  status: OrderStatus;
  resource_type: ResourceType;
  order_type: OrderType;
  amount: number;
  duration_sec: number;
  target_address: string;
  max_price_sun: number | null;
  created_at: number;
  filled_at: number | null;
  total_cost_sun: number | null;
  total_fee_sun: number | null;
  fills: FillRecord[];
  /** LIMIT only. */
  expires_at: number | null;
  /** The providers chosen for the current execution. */
  plan: PlanItem[] | null;
  /** PERIODIC: executions done so far. */
  runs: number;
  next_run_at: number | null;
  periodic_stopped: string | null;
  failure_reason: string | null;
  failure_message: string | null;
}

/** A new order, PENDING, as POST /orders creates it (LIMIT orders expire at `expires_at`). */
export function newOrderRecord(
  input: NewOrder,
  made: { seq: number; id: string; account_id: string; order_type: OrderType; created_at: number; expires_at: number | null },
): OrderRecord {
  return {
    seq: made.seq,
    id: made.id,
    account_id: made.account_id,
    status: 'PENDING',
    resource_type: input.resource_type,
    order_type: made.order_type,
    amount: input.amount,
    duration_sec: input.duration_sec,
    target_address: input.target_address,
    max_price_sun: input.max_price_sun ?? null,
    created_at: made.created_at,
    filled_at: null,
    total_cost_sun: null,
    total_fee_sun: null,
    fills: [],
    expires_at: made.expires_at,
    plan: null,
    runs: 0,
    next_run_at: null,
    periodic_stopped: null,
    failure_reason: null,
    failure_message: null,
  };
}

/** The record of one share's delegation, confirmed (charged) or failed (free), with its transaction. */
export function newFillRecord(
  order: OrderRecord,
  item: PlanItem,
  status: 'CONFIRMED' | 'FAILED',
  made: { id: string; tx_id: string; now: number; run: number },
): FillRecord {
  const { id, tx_id, now, run } = made;
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
