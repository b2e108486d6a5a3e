/**
 * The order engine's rules that hold no state: its timings, what a new order asks, the duration
 * bounds, and the errors a selection that found nothing turns into (price, minimum, capacity).
 * @module
 */
import type { ResourceType } from '../../schemas/common.js';
import type { OrderType } from '../../schemas/orders.js';
import { MockApiError } from '../shared/errors.js';
import { MARKET_RULES } from './market-providers.js';
import type { Selection } from './market-selection.js';

/** Delays and limits of the order state machine (mock-clock ms). */
export interface OrderTimings {
  /** PENDING -> EXECUTING (provider selection). Default 300 ms. */
  selectMs: number;
  /** EXECUTING -> FILLED (delegation confirmed). Default 700 ms. */
  fillMs: number;
  /** FILLED -> fills verified. Default 3 000 ms. */
  verifyMs: number;
  /** How long a LIMIT order waits before it fails with EXPIRED. Default 24 h. */
  limitOrderTtlMs: number;
  /** PERIODIC: total executions including the first. Default 24. */
  periodicMaxRuns: number;
}

/** Default delays of the order state machine (mock-clock ms); see the mock README's Timings. */
export const DEFAULT_ORDER_TIMINGS: OrderTimings = {
  selectMs: 300,
  fillMs: 700,
  verifyMs: 3_000,
  limitOrderTtlMs: 24 * 60 * 60 * 1000,
  periodicMaxRuns: 24,
};

/** How many times a failing delegation is retried on the next cheapest provider, per share. */
export const MAX_DELEGATION_RETRIES = 2;

/** What POST /orders asks for (validated). */
export interface NewOrder {
  resource_type: ResourceType;
  order_type?: OrderType | undefined;
  amount: number;
  duration_sec: number;
  target_address: string;
  max_price_sun?: number | undefined;
}

/** Duration bounds (the spec gives none; see MARKET_RULES). VALIDATION_ERROR naming the field. */
export function checkDuration(durationSec: number, field = 'duration_sec'): void {
  const { MIN_DURATION_SEC, MAX_DURATION_SEC } = MARKET_RULES;
  if (durationSec < MIN_DURATION_SEC || durationSec > MAX_DURATION_SEC) {
    throw new MockApiError('VALIDATION_ERROR', `${field}: must be between ${MIN_DURATION_SEC} and ${MAX_DURATION_SEC} seconds`, {
      field,
      min: MIN_DURATION_SEC,
      max: MAX_DURATION_SEC,
    });
  }
}

/** BELOW_MINIMUM_ORDER for an amount below `min`. */
export function belowMinimum(min: number): MockApiError {
  return new MockApiError('BELOW_MINIMUM_ORDER', `amount: below the provider minimum of ${min} units`, { field: 'amount', min });
}

/** The error for a selection that found nothing: price, minimum, or capacity. */
export function selectionError(selection: Selection, maxPrice: number | undefined): MockApiError {
  if (selection.reason === 'price_exceeded') {
    const best = selection.over_price[0]!;
    return new MockApiError('PRICE_EXCEEDED', `Best price ${best.price_sun} SUN is above max_price_sun ${maxPrice}`, {
      field: 'max_price_sun',
      best_price_sun: best.price_sun,
      max_price_sun: maxPrice,
      provider: best.provider,
    });
  }
  if (selection.reason === 'below_minimum') return belowMinimum(selection.min_amount ?? 0);
  return new MockApiError('PROVIDER_UNAVAILABLE', 'No provider can fulfil this amount and duration right now');
}
