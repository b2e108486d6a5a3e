import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ALL_ROUTES } from '../../src/mock/routes.js';
import type { RouteDef } from '../../src/mock/http/route.js';
import { OrderDetail as FullOrder } from '../../src/schemas/orders.js';
import { Balance } from '../../src/schemas/balance.js';
import { NetworkInfo, SendResult, Watch, X402Account, X402PriceList } from '../../src/schemas/x402.js';
import { PRODUCTION_EXTRAS, checkRoute, isServiceRoute, responseSchema } from '../helpers/exact-responses.js';
import { exactShapeIssues } from '../helpers/exact-shape.js';

/**
 * The exact-shape check every mock answer goes through in the test suite (issue 21, item 3;
 * `test/helpers/exact-responses.setup.ts`): it must fail on one extra key, anywhere, and it must
 * cover every route of the service.
 */

const ISO = '2026-11-20T00:00:00.000Z';
const route = (method: RouteDef['method'], path: string) => ALL_ROUTES.find((r) => r.method === method && r.path === path)!;

describe('exactShapeIssues: the strict reading of a lenient schema', () => {
  it('the SDK schema is lenient (keeps an unknown key); the strict reading names it', () => {
    const watch = { watch_id: 'wch_1', expires_at: ISO, status: 'active', webhook_secret: 'ab' };
    expect(Watch.parse(watch)).toHaveProperty('webhook_secret');
    expect(exactShapeIssues(Watch, watch)).toEqual(['webhook_secret: key not in the schema']);
    expect(exactShapeIssues(Watch, { watch_id: 'wch_1', expires_at: ISO, status: 'active' })).toEqual([]);
  });

  it('finds one extra key at any depth: array items, nested objects', () => {
    const entry = { provider: 'catfee', price_sun: 30, available: 1000 };
    expect(exactShapeIssues(X402PriceList, [entry, { ...entry, resource_type: 'ENERGY' }])).toEqual(['[1].resource_type: key not in the schema']);
    const account = { address: 'T', balance: 1, energy_limit: 0, bandwidth_limit: 600, trc20_balances: [{ symbol: 'USDT', contract: 'T', balance: '1', decimals: 6, extra: 1 }] };
    expect(exactShapeIssues(X402Account, account)).toEqual(['trc20_balances[0].extra: key not in the schema']);
  });

  it('a value the schema refuses is reported as such', () => {
    expect(exactShapeIssues(Watch, { watch_id: 1, expires_at: ISO, status: 'active' })[0]).toMatch(/^watch_id: /);
  });

  it('fields the spec does not show stay open: the network object, a send result’s resources', () => {
    expect(exactShapeIssues(NetworkInfo, { block_height: 1, anything: { deep: true } })).toEqual([]);
    expect(exactShapeIssues(SendResult, { txid: 'a', status: 'confirmed', resources: { energy_used: 1 } })).toEqual([]);
    expect(exactShapeIssues(SendResult, { txid: 'a', status: 'confirmed', resources: {}, memo: 'x' })).toEqual(['memo: key not in the schema']);
  });

  it('the production notes’ extras are allowed where they apply, and only there', () => {
    const sample = { trx: 1, usdt: 0, trx_locked: 0 };
    expect(exactShapeIssues(Balance, { ...sample, updated_at: ISO }, PRODUCTION_EXTRAS)).toEqual([]);
    expect(exactShapeIssues(Balance, { ...sample, updated_at: ISO })).toEqual(['updated_at: key not in the schema']);
    expect(PRODUCTION_EXTRAS.get(FullOrder)).toEqual(['expires_at']);
    expect(exactShapeIssues(z.object({ a: z.number() }), { a: 1, expires_at: ISO }, PRODUCTION_EXTRAS)).toEqual(['expires_at: key not in the schema']);
  });
});

describe('every mock answer in the test suite is checked', () => {
  it('every route of the service has a success schema in the contract (none is skipped)', () => {
    const service = ALL_ROUTES.filter(isServiceRoute);
    expect(service.length).toBeGreaterThan(30);
    const missing = service.filter((r) => ![200, 201].some((status) => responseSchema(r, status)));
    expect(missing.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('checkRoute fails a paid result with one key the spec does not have', () => {
    const watch = route('POST', '/x402/tron/watch');
    const exact = { watch_id: 'wch_1', expires_at: ISO, status: 'active' };
    expect(checkRoute(watch, { status: 200, body: { data: exact } })).toEqual([]);
    expect(checkRoute(watch, { status: 200, body: { data: { ...exact, webhook_secret: 'ab' } } })).toEqual([
      'POST /x402/tron/watch 200: data.webhook_secret: key not in the schema',
    ]);
  });

  it('checkRoute fails an account answer with one key beyond the spec and the production notes', () => {
    const withdraw = route('POST', '/api/v1/withdraw');
    const body = { id: 'w1', status: 'PENDING', amount: 50_000_000, currency: 'TRX', address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW' };
    expect(checkRoute(withdraw, { status: 200, body })).toEqual([]);
    expect(checkRoute(withdraw, { status: 200, json: JSON.stringify({ ...body, created_at: ISO }), body: null })).toEqual([
      'POST /api/v1/withdraw 200: created_at: key not in the schema',
    ]);
  });

  it('the setup file has wrapped every service route of the mock', () => {
    const wrapped = Symbol.for('trx-rent.test.exact-shape');
    const service = ALL_ROUTES.filter(isServiceRoute) as unknown as Array<Record<symbol, boolean>>;
    expect(service.every((r) => r[wrapped] === true)).toBe(true);
  });
});
