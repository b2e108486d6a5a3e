/**
 * The endpoint table (src/api/endpoints.ts) is the one place each endpoint fact is written:
 * - every operation has an SDK method, or says why not;
 * - every operation has a mock route built from it, with the table's facts;
 * - every spec path template appears in the code of exactly one file under src/ (the table).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { ACCOUNT_WIRE } from '../../src/api/account.js';
import { ACCOUNT_DOCS } from '../../src/api/account-docs.js';
import { X402_ENDPOINTS } from '../../src/api/x402.js';
import { ENDPOINTS, ENDPOINT_LIST, type EndpointDef, allErrors, buildPath, findEndpoint, pathParams } from '../../src/api/endpoints.js';
import { TrxRent } from '../../src/index.js';
import { X402Client } from '../../src/x402/client.js';
import { API_PREFIX } from '../../src/api/prefixes.js';
import { CONTROL_ENDPOINTS } from '../../src/mock/control-endpoints.js';
import { ALL_ROUTES } from '../../src/mock/routes.js';
import { assertExactShape, exactShape } from '../../src/internal/exact.js';
import { Order, OrderList } from '../../src/schemas/orders.js';

const account = new TrxRent({ apiKey: 'sk_live_x', baseUrl: 'http://127.0.0.1:1' });
const x402 = new X402Client({ baseUrl: 'http://127.0.0.1:1', payers: [{ kind: 'evm', register() {}, supports: () => false } as never] });

function sdkMethod(client: object, dotted: string): unknown {
  return dotted.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), client);
}

describe('the endpoint table', () => {
  it('lists every operation of both APIs once: the account table (wire and docs halves agree) and the x402 table', () => {
    // Derived from the tables themselves, so adding an entry changes no number here.
    expect(
      ENDPOINT_LIST.filter((e) => e.api === 'account')
        .map((e) => e.id)
        .sort(),
    ).toEqual(Object.keys(ACCOUNT_WIRE).sort());
    expect(Object.keys(ACCOUNT_DOCS).sort()).toEqual(Object.keys(ACCOUNT_WIRE).sort());
    expect(
      ENDPOINT_LIST.filter((e) => e.api === 'x402')
        .map((e) => e.id)
        .sort(),
    ).toEqual(Object.keys(X402_ENDPOINTS).sort());
    expect(ENDPOINT_LIST).toHaveLength(Object.keys(ACCOUNT_WIRE).length + Object.keys(X402_ENDPOINTS).length);
    const keys = ENDPOINT_LIST.map((e) => `${e.method} ${e.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const [id, e] of Object.entries(ENDPOINTS)) expect(e.id).toBe(id);
  });

  it('operations without an SDK method: each entry says why (the list is printed)', () => {
    const missing: string[] = [];
    for (const e of [...ENDPOINT_LIST, ...Object.values(CONTROL_ENDPOINTS)] as (EndpointDef & { id: string })[]) {
      if (typeof e.sdk === 'string') {
        const client = e.api === 'x402' ? x402 : account;
        expect(typeof sdkMethod(client, e.sdk), `${e.id}: sdk '${e.sdk}' is not a method of ${e.api === 'x402' ? 'X402Client' : 'TrxRent'}`).toBe('function');
        continue;
      }
      const reason = (e.sdk as { none?: unknown }).none;
      expect(typeof reason === 'string' && reason.trim().length >= 10, `${e.id} has no SDK method and gives no reason`).toBe(true);
      missing.push(`${e.id} (${e.method} ${e.path}): ${String(reason)}`);
    }
    // Every service operation has a method; only the mock's control routes do not.
    expect(missing.filter((m) => !m.includes('/__mock/') && !m.includes('/openapi.json'))).toEqual([]);
    console.info(`table operations without an SDK method:\n  ${missing.join('\n  ')}`);
  });

  it('each entry is complete: summary, source, schemas for its params, errors with statuses, x402 prices', () => {
    for (const e of [...ENDPOINT_LIST, ...Object.values(CONTROL_ENDPOINTS)] as (EndpointDef & { id: string })[]) {
      expect(e.summary.length, e.id).toBeGreaterThan(5);
      expect(['spec', 'live-service', 'natural-design']).toContain(e.source);
      const names = pathParams(e.path);
      if (names.length) expect(Object.keys((e.params as z.ZodObject).shape).sort(), e.id).toEqual([...names].sort());
      else expect(e.params, e.id).toBeUndefined();
      for (const err of allErrors(e)) expect(err.status >= 400 && err.status < 600, `${e.id} ${err.code}`).toBe(true);
      expect(Boolean(e.price), e.id).toBe(e.api === 'x402');
      if (e.method === 'GET') expect(e.body, e.id).toBeUndefined();
    }
    // The spec's endpoint-specific statuses.
    const status = (id: keyof typeof ENDPOINTS, code: string) => allErrors(ENDPOINTS[id]).find((x) => x.code === code)?.status;
    expect([status('createOrder', 'VALIDATION_ERROR'), status('createOrder', 'INSUFFICIENT_BALANCE')]).toEqual([400, 402]);
    expect(status('createWithdrawal', 'INSUFFICIENT_BALANCE')).toBe(400);
    expect([status('submitDeposit', 'VALIDATION_ERROR'), status('submitDeposit', 'BROADCAST_FAILED')]).toEqual([400, 502]);
    expect([status('getOrder', 'UNAUTHORIZED'), status('getOrder', 'FORBIDDEN'), status('getOrder', 'RATE_LIMITED')]).toEqual([401, 403, 429]);
    expect(status('listPrices', 'UNAUTHORIZED')).toBeUndefined();
    expect(status('x402Send', 'PAYMENT_REQUIRED')).toBe(402);
  });

  it("every path lives below its API's prefix (the one the clients read, src/api/prefixes.ts)", () => {
    const outside = ENDPOINT_LIST.filter((e) => e.api !== 'mock' && !e.path.startsWith(`${API_PREFIX[e.api]}/`)).map((e) => `${e.api} ${e.path}`);
    expect(outside).toEqual([]);
    expect(ENDPOINT_LIST.some((e) => e.api === 'x402') && ENDPOINT_LIST.some((e) => e.api === 'account')).toBe(true);
  });

  it('paths: built with each parameter as one encoded segment (the rest parameter may span), and found back', () => {
    expect(buildPath(ENDPOINTS.getOrder, { id: 'a b?' })).toBe('/api/v1/orders/a%20b%3F');
    expect(() => buildPath(ENDPOINTS.getOrder, { id: '../keys' })).toThrow(/not a valid path segment/);
    expect(buildPath(ENDPOINTS.x402Rpc, { method: 'wallet/getnowblock' })).toBe('/x402/tron/rpc/wallet/getnowblock');
    expect(findEndpoint('GET', '/api/v1/orders/preview')?.id).toBe('previewOrder');
    expect(findEndpoint('GET', '/api/v1/orders/abc')?.id).toBe('getOrder');
    expect(findEndpoint('POST', '/x402/tron/rpc/wallet/getaccount')?.id).toBe('x402Rpc');
    expect(findEndpoint('GET', '/api/v1/nope')).toBeUndefined();
  });

  it('the mock routes every entry with the facts of the table (group, auth, idempotency, statuses)', () => {
    for (const e of [...ENDPOINT_LIST, ...Object.values(CONTROL_ENDPOINTS)] as (EndpointDef & { id: string })[]) {
      const route = ALL_ROUTES.find((r) => r.endpoint?.id === e.id);
      expect(route, e.id).toBeDefined();
      expect([route!.method, route!.group, route!.idempotent, route!.auth]).toEqual([
        e.method,
        e.rateGroup,
        e.idempotent,
        e.auth === 'x402' ? 'public' : e.auth,
      ]);
    }
  });
});

describe('exactShape: a response holds its schema with no extra keys', () => {
  const order = {
    id: 'o',
    status: 'PENDING',
    resource_type: 'ENERGY',
    order_type: 'MARKET',
    amount: 65000,
    duration_sec: 3600,
    target_address: 'T',
    created_at: 'now',
  };

  it('passes the exact shape and fails on one extra key, at any depth', () => {
    expect(exactShape(Order, order)).toEqual({ ok: true });
    expect(exactShape(Order, { ...order, invented: 1 })).toMatchObject({ ok: false, extraKeys: ['invented'] });
    expect(exactShape(OrderList, { orders: [order, { ...order, id: 'p', x: 1 }], total: 2 })).toMatchObject({ ok: false, extraKeys: ['orders[1].x'] });
    expect(() => assertExactShape(OrderList, { orders: [], total: 0, more: true }, 'GET /orders')).toThrow(/extra keys: more/);
    // The production notes' fields are part of the shape.
    expect(exactShape(Order, { ...order, expires_at: null })).toEqual({ ok: true });
  });

  it('the mock answers 500 naming the keys when a handler sends one the table does not have', async () => {
    const { createFetchHandler, createMockState } = await import('../../src/mock/index.js');
    const state = createMockState({ clock: 'manual' });
    const origin = state.balance.bind(state);
    (state as { balance: unknown }).balance = (id: string) => ({ ...origin(id), invented: true });
    const handle = createFetchHandler(state, { rateLimits: false, exactResponses: 'account' });
    const r = await handle(new Request(`http://mock.test${ENDPOINTS.getBalance.path}`, { headers: { 'x-api-key': state.demo.api_key } }));
    expect(r.status).toBe(500);
    expect(((await r.json()) as { error: { message: string } }).error.message).toMatch(/getBalance .*extra keys: invented/);
  });
});

describe('must-show: each spec path template is written in exactly one file under src/', () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) files.push(p);
    }
  };
  walk('src');
  const texts = files.map((f) => [relative('.', f), readFileSync(f, 'utf8')] as const);

  /** The template as written anywhere: full path, and below the API base when it has two or more segments. */
  function patterns(template: string): RegExp[] {
    const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const body = (t: string) =>
      t
        .split(/\{\w+\}/)
        .map(esc)
        .join('(?:\\{\\w+\\}|:\\w+|\\*\\w+|\\$\\{[^}]*\\})');
    const end = '(?![\\w/-])';
    const out = [new RegExp(body(template) + end)];
    const below = template.replace(/^\/api\/v1|^\/x402\/tron/, '');
    if (below.split('/').filter(Boolean).length >= 2) out.push(new RegExp(`(?<![\\w/])${body(below)}${end}`));
    return out;
  }

  for (const e of ENDPOINT_LIST) {
    it(`${e.method} ${e.path}`, () => {
      const where = texts.filter(([, text]) => patterns(e.path).some((re) => re.test(text))).map(([f]) => f);
      expect(where).toEqual([e.api === 'x402' ? 'src/api/x402.ts' : 'src/api/account.ts']);
    });
  }
});
