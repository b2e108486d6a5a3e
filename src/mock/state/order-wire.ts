/**
 * The spec's three Order shapes as the mock sends them (the create answer, a list item, the
 * full order with its fills) and the control route's view with the execution plan, built from
 * the stored order (`orders.ts` keeps the state machine; this file only serialises).
 * @module
 */
import type { OrderRecord } from './order-record.js';

// The last time formatted: orders created in the same millisecond (a dozen at bench rates) share it.
let lastTime = Number.NaN;
let lastIso = '';

function iso(t: number): string;
function iso(t: number | null): string | null;
function iso(t: number | null): string | null {
  if (t === null) return null;
  if (t !== lastTime) {
    lastIso = new Date(t).toISOString();
    lastTime = t;
  }
  return lastIso;
}

/** POST /orders response. */
export function orderCreated(o: OrderRecord) {
  return {
    id: o.id,
    status: o.status,
    resource_type: o.resource_type,
    order_type: o.order_type,
    amount: o.amount,
    duration_sec: o.duration_sec,
    target_address: o.target_address,
    max_price_sun: o.max_price_sun,
    created_at: iso(o.created_at),
  };
}

/**
 * `expires_at` (production notes): when a LIMIT order stops waiting for its price; once filled,
 * when the rental ends (the last run's delegation plus its duration); null before either is known.
 */
function expiresAt(o: OrderRecord): number | null {
  const lastFill = o.fills.filter((f) => f.status === 'CONFIRMED').at(-1);
  if (lastFill?.confirmed_at) return lastFill.confirmed_at + o.duration_sec * 1000;
  return o.expires_at;
}

/** GET /orders items. */
export function orderListItem(o: OrderRecord) {
  return { ...orderCreated(o), filled_at: iso(o.filled_at) };
}

/**
 * `getOrder` and webhook data, in the order of the spec's Order table, plus the production
 * notes' `expires_at` and fills' `delegation_tx`: nothing else (the mock's own bookkeeping is at
 * `GET /__mock/orders/:id`, {@link orderMockView}).
 */
export function orderFull(o: OrderRecord) {
  const { created_at, filled_at, ...head } = orderListItem(o);
  return {
    ...head,
    total_cost_sun: o.total_cost_sun,
    total_fee_sun: o.total_fee_sun,
    fills: o.fills.map((f) => ({
      provider: f.provider,
      amount: f.amount,
      price_sun: f.price_sun,
      cost_sun: f.cost_sun,
      tx_id: f.tx_id,
      status: f.status,
      verified: f.verified,
      tronscan_url: f.tronscan_url,
      // The live service's clients read the delegation's transaction (production notes).
      delegation_tx: f.status === 'CONFIRMED' ? f.tx_id : null,
    })),
    created_at,
    filled_at,
    expires_at: iso(expiresAt(o)),
  };
}

/**
 * GET /__mock/orders/:id: what the mock knows of an order beyond the service's answer (the spec
 * shows neither a PERIODIC order's interval nor why an order failed): its runs and next run, and
 * the reason of a FAILED one.
 */
export function orderMockView(o: OrderRecord) {
  return {
    id: o.id,
    account_id: o.account_id,
    status: o.status,
    order_type: o.order_type,
    interval_sec: o.order_type === 'PERIODIC' ? o.duration_sec : null,
    runs: o.runs,
    next_run_at: iso(o.next_run_at),
    failure_reason: o.failure_reason,
    failure_message: o.failure_message,
  };
}
