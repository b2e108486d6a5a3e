/**
 * An order as the mock stores it (the spec's fields plus its execution plan and runs) and its
 * fills: the record the order engine (`orders.ts`) moves and `order-wire.ts` serialises.
 * @module
 */
import type { ResourceType } from '../../schemas/common.js';
import type { OrderStatus, OrderType } from '../../schemas/orders.js';
import type { PlanItem } from './market.js';

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
