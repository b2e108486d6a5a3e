/**
 * The CLI's zod-free facts (src/cli/facts.ts) re-export src/schemas/enums.ts and limits.ts; this
 * checks they are the very values the zod schemas enforce.
 */
import { describe, expect, it } from 'vitest';
import * as facts from '../../src/cli/facts.js';
import { RESOURCE_TYPES } from '../../src/schemas/common.js';
import { HISTORY_PERIODS } from '../../src/schemas/history.js';
import { PERMISSIONS } from '../../src/schemas/keys.js';
import { LIMITS } from '../../src/schemas/limits.js';
import { CreateOrderRequest, ORDER_STATUSES, ORDER_TYPES } from '../../src/schemas/orders.js';
import { WEBHOOK_EVENTS } from '../../src/schemas/webhooks.js';
import { CURRENCIES } from '../../src/schemas/withdrawals.js';
import { ESTIMATE_OPERATIONS, RPC_METHODS, WATCH_EVENT_TYPES } from '../../src/schemas/x402.js';

describe('CLI facts', () => {
  it("are the schemas' enumerations and limits", () => {
    expect(facts.LIMITS).toBe(LIMITS);
    expect(facts.RESOURCE_TYPES).toEqual(RESOURCE_TYPES);
    expect(facts.ORDER_TYPES).toEqual(ORDER_TYPES);
    expect(facts.ORDER_STATUSES).toEqual(ORDER_STATUSES);
    expect(facts.HISTORY_PERIODS).toEqual(HISTORY_PERIODS);
    expect(facts.PERMISSIONS).toEqual(PERMISSIONS);
    expect(facts.WEBHOOK_EVENTS).toEqual(WEBHOOK_EVENTS);
    expect(facts.CURRENCIES).toEqual(CURRENCIES);
    expect(facts.ESTIMATE_OPERATIONS).toEqual(ESTIMATE_OPERATIONS);
    expect(facts.WATCH_EVENT_TYPES).toEqual(WATCH_EVENT_TYPES);
    expect(facts.RPC_METHODS).toEqual(RPC_METHODS);
  });

  it('PRICED_ORDER_TYPES are exactly the order types the schema refuses without max_price_sun', () => {
    const base = { resource_type: 'ENERGY', amount: LIMITS.MIN_ENERGY_AMOUNT, duration_sec: 3600, target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW' };
    const needsPrice = ORDER_TYPES.filter((order_type) => !CreateOrderRequest.safeParse({ ...base, order_type }).success);
    expect(needsPrice).toEqual(facts.PRICED_ORDER_TYPES);
    for (const order_type of needsPrice) expect(CreateOrderRequest.safeParse({ ...base, order_type, max_price_sun: 30 }).success).toBe(true);
  });

  it('the idempotency-key pattern follows the limit', () => {
    expect(facts.IDEMPOTENCY_KEY_PATTERN.test('k'.repeat(LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH))).toBe(true);
    expect(facts.IDEMPOTENCY_KEY_PATTERN.test('k'.repeat(LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH + 1))).toBe(false);
    expect(facts.IDEMPOTENCY_KEY_PATTERN.test('')).toBe(false);
    expect(facts.IDEMPOTENCY_KEY_PATTERN.test('has space')).toBe(false);
    expect(facts.orList(['a', 'b', 'c'])).toBe('a, b or c');
  });
});
