/**
 * The contract checked from the mock's side: every `/api/v1` and `/x402/tron` route of the mock
 * is called over real HTTP (successes and error cases; every paid route to its 402 challenge, a
 * 400 and a paid 200), and every response is validated against the OpenAPI document generated
 * from the zod schemas: status documented, body valid, required headers present and valid.
 * Any violation fails the test, except the few known ones listed in KNOWN_PROBLEMS, each marked
 * FIDELITY (a finding for the mock, not a licence). Fields the mock sends beyond the document
 * are collected and compared with KNOWN_EXTRAS in the last test, so the list stays exact.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ROUTES, type MockServer, createManualClock, startMockServer } from '../../src/mock/index.js';
import { CHAIN_TOKENS, labelAddress } from '../../src/mock/x402/index.js';
import { ENDPOINT_LIST } from '../../src/api/endpoints.js';
import { buildOpenApiDocument, OPERATION_KEYS } from '../../src/openapi/document.js';
import { encodeBase64Json } from '../../src/protocol/codec.js';
import { buildTrxTransfer, privateKeyToTronAddress, signTransaction } from '../../src/protocol/tron-transaction.js';
import { X402Client, evmPayer, signTrc20Transfer } from '../../src/x402/index.js';
import { ContractValidator, type Exchange } from './validator.js';

const TARGET = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
/** Base58 shape, wrong checksum. */
const BAD_ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u';
const USER_KEY = '1'.repeat(64);
const USER_ADDRESS = privateKeyToTronAddress(USER_KEY);
const SENDER_KEY = '2'.repeat(64);
const SENDER = privateKeyToTronAddress(SENDER_KEY);
/** A fixed test key, never real funds. */
const EVM_KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const USDT = CHAIN_TOKENS.find((t) => t.symbol === 'USDT')!;

/**
 * Known contract violations of the mock, each a fidelity finding for the mock's owner: the
 * operation, the status, and a pattern of the problem text. Everything else fails.
 */
const KNOWN_PROBLEMS: Array<{ op: string; status: number; problem: RegExp }> = [];

/**
 * Fields the mock sends that the document does not declare (allowed: the contract keeps
 * objects open), per `operation status`. The last test fails on any difference, both ways.
 */
const KNOWN_EXTRAS: Record<string, string[]> = {
  // Balance `updated_at`, an order's `expires_at` and fills' `delegation_tx` (production notes) are declared in the
  // document now (the table's Order schema), so they are no extras. Nothing else either: the
  // mock's own bookkeeping (a PERIODIC order's runs, why an order failed) is at /__mock/orders/:id,
  // and POST /broadcast answers the natural design's `{ tx_id, status }` only.
  // The paid API's results carry exactly the spec's fields; the account result's TRC-20 balances
  // (`trc20_balances`, a name the spec does not show) are declared in the document.
};

const doc = buildOpenApiDocument();
const validator = new ContractValidator(doc);
let mock: MockServer;
/** operation -> statuses seen */
const covered = new Map<string, Set<number>>();
/** `operation status` -> undeclared fields seen */
const extrasSeen = new Map<string, Set<string>>();

beforeAll(async () => {
  mock = await startMockServer({ rateLimits: false, clock: createManualClock() });
});
afterAll(async () => {
  await mock?.close();
});

interface CallInit {
  /** The concrete path when the operation's path has parameters. */
  path?: string;
  query?: Record<string, string>;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  /** Credentials: the demo key (default on authenticated routes), its JWT, none, or another key. */
  auth?: 'key' | 'jwt' | 'none' | { key: string };
  /** Statuses that fall under the operation's `default` response are accepted (500, 503...). */
  allowDefault?: boolean;
}

interface CallResult extends Exchange {
  json: any;
}

function record(op: string, exchange: Exchange, options: { allowDefault?: boolean } = {}): void {
  const { problems, extras } = validator.checkResponse(op, exchange, options);
  const unexpected = problems.filter((p) => !KNOWN_PROBLEMS.some((k) => k.op === op && k.status === exchange.status && k.problem.test(p)));
  expect(unexpected, `${op} -> ${exchange.status}: ${exchange.text.slice(0, 500)}`).toEqual([]);
  const statuses = covered.get(op) ?? new Set<number>();
  statuses.add(exchange.status);
  covered.set(op, statuses);
  if (extras.length) {
    const key = `${op} ${exchange.status}`;
    const set = extrasSeen.get(key) ?? new Set<string>();
    for (const e of extras) set.add(e);
    extrasSeen.set(key, set);
  }
}

/** Call operation `op` (`METHOD /template`) on the mock, expect `status`, validate the response. */
async function call(op: string, status: number, init: CallInit = {}): Promise<CallResult> {
  const [method, template] = op.split(' ') as [string, string];
  const path = init.path ?? template;
  expect(path.includes('{'), `${op}: give the concrete path`).toBe(false);
  // Who may call it comes from the table entry: a new public endpoint needs no list here.
  const entry = ENDPOINT_LIST.find((e) => `${e.method} ${e.path}` === op);
  const paidOrPublic = !entry || entry.auth === 'public' || entry.auth === 'x402';
  const auth = init.auth ?? (paidOrPublic ? 'none' : 'key');
  const headers: Record<string, string> = { ...init.headers };
  if (auth === 'key') headers['x-api-key'] = mock.apiKey;
  else if (auth === 'jwt') headers.authorization = `Bearer ${mock.jwt}`;
  else if (typeof auth === 'object') headers['x-api-key'] = auth.key;
  let body: string | undefined = init.rawBody;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const query = init.query ? `?${new URLSearchParams(init.query)}` : '';
  const response = await fetch(`${mock.url}${path}${query}`, { method, headers, body, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  expect(response.status, `${op}: ${text.slice(0, 500)}`).toBe(status);
  record(op, { status: response.status, headers: response.headers, text }, { allowDefault: init.allowDefault });
  // What the mock accepted, the document's request schema accepts too.
  if (status < 300 && init.body !== undefined) expect(validator.checkRequestBody(op, init.body), `${op} request body`).toEqual([]);
  return { status: response.status, headers: response.headers, text, json };
}

// ---------------------------------------------------------------------------------------------

describe('the document and the mock list the same routes', () => {
  it('every /api/v1 and /x402/tron route of the mock is an operation of the document, and back', () => {
    const mockOps = ALL_ROUTES.filter((r) => r.path.startsWith('/api/v1/') || r.path.startsWith('/x402/tron/')).map(
      (r) => `${r.method} ${r.path.replace(/[:*](\w+)/g, '{$1}')}`,
    );
    expect([...mockOps].sort()).toEqual([...OPERATION_KEYS].sort());
    // One operation per entry of the endpoint table (a count derived from it, not written here).
    expect([...OPERATION_KEYS].sort()).toEqual(ENDPOINT_LIST.map((e) => `${e.method} ${e.path}`).sort());
  });

  it('every operation documents a success, the error envelope by default, and security', () => {
    for (const key of OPERATION_KEYS) {
      const { op } = validator.operation(key);
      const statuses = Object.keys(op.responses as object);
      expect(
        statuses.some((s) => /^2\d\d$/.test(s)),
        key,
      ).toBe(true);
      expect(statuses, key).toContain('default');
      expect(Array.isArray(op.security), key).toBe(true);
      if (key.includes(' /x402/')) expect(statuses, key).toEqual(expect.arrayContaining(['200', '400', '402']));
    }
  });
});

describe('the validator catches what does not match', () => {
  it('a wrong body fails: a missing field, a wrong type, an unknown enum value', () => {
    const good = { trx: 1, usdt: 2, trx_locked: 0 };
    const ok = (body: unknown) =>
      validator.checkResponse('GET /api/v1/balance', { status: 200, headers: new Headers({ 'content-type': 'application/json' }), text: JSON.stringify(body) });
    expect(ok(good).problems).toEqual([]);
    expect(ok({ trx: 1, usdt: 2 }).problems.join()).toMatch(/trx_locked/);
    // SUN amounts are whole numbers (the SDK refuses anything else): the document says integer.
    expect(ok({ ...good, trx: '1' }).problems.join()).toMatch(/\/trx must be integer/);
    expect(ok({ ...good, trx: 1.5 }).problems.join()).toMatch(/\/trx must be integer/);
    const order = (status: string) =>
      validator.checkResponse('GET /api/v1/orders/{id}', {
        status: 200,
        headers: new Headers({ 'content-type': 'application/json' }),
        text: JSON.stringify({
          id: 'x',
          status,
          resource_type: 'ENERGY',
          order_type: 'MARKET',
          amount: 65000,
          duration_sec: 3600,
          target_address: TARGET,
          total_cost_sun: null,
          total_fee_sun: 0,
          fills: [],
          created_at: '2026-01-01T00:00:00.000Z',
          filled_at: null,
        }),
      }).problems;
    expect(order('FILLED')).toEqual([]);
    expect(order('PARTIALLY_FILLED').join()).toMatch(/\/status must be equal to one of the allowed values/);
  });

  it('an undocumented status, a missing required header, a non-JSON body and a wrong error code fail', () => {
    const json = new Headers({ 'content-type': 'application/json' });
    const err = (code: string) => JSON.stringify({ error: { code, message: 'm' } });
    expect(validator.checkResponse('GET /api/v1/balance', { status: 418, headers: json, text: err('X') }).problems.join()).toMatch(
      /status 418 is not documented/,
    );
    expect(validator.checkResponse('GET /api/v1/balance', { status: 429, headers: json, text: err('RATE_LIMITED') }).problems).toEqual([
      'required header Retry-After is missing',
    ]);
    expect(validator.checkResponse('GET /api/v1/balance', { status: 401, headers: json, text: err('FORBIDDEN') }).problems.join()).toMatch(
      /\/error\/code must be equal to one of the allowed values/,
    );
    expect(validator.checkResponse('GET /api/v1/balance', { status: 200, headers: json, text: '<html>' }).problems.join()).toMatch(/not JSON/);
    expect(validator.checkResponse('GET /x402/tron/prices', { status: 200, headers: json, text: JSON.stringify({ data: [] }) }).problems).toEqual([
      'required header PAYMENT-RESPONSE is missing',
    ]);
    expect(validator.checkResponse('GET /x402/tron/prices', { status: 200, headers: json, text: '[]' }).problems.join()).toMatch(/must be object/);
    const challenge = {
      x402Version: 2,
      accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '10000', asset: '0x1', payTo: '0x2', maxTimeoutSeconds: 300 }],
    };
    const header = new Headers({ 'content-type': 'application/json', 'payment-required': encodeBase64Json({ ...challenge, accepts: [] }) });
    expect(validator.checkResponse('GET /x402/tron/prices', { status: 402, headers: header, text: JSON.stringify(challenge) }).problems.join()).toMatch(
      /PAYMENT-REQUIRED \(decoded\).*accepts must NOT have fewer than 1 items/,
    );
  });

  it('undeclared fields are reported as extras, not problems', () => {
    const r = validator.checkResponse('GET /api/v1/balance', {
      status: 200,
      headers: new Headers({ 'content-type': 'application/json' }),
      text: JSON.stringify({ trx: 1, usdt: 2, trx_locked: 0, invented_field: 'x' }),
    });
    expect(r).toEqual({ problems: [], extras: ['/invented_field'] });
  });
});

describe('account API (/api/v1)', () => {
  let narrowKey = '';
  let narrowKeyId = '';
  let orderId = '';
  let periodicId = '';
  let failedId = '';

  it('keys: create (201), invalid (422), unauthenticated (401)', async () => {
    const created = await call('POST /api/v1/keys', 201, { body: { name: 'contract narrow', permissions: ['view_orders'] } });
    narrowKey = created.json.key;
    narrowKeyId = created.json.id;
    await call('POST /api/v1/keys', 201, { body: { name: 'contract via jwt', permissions: ['view_balance'] }, auth: 'jwt' });
    await call('POST /api/v1/keys', 422, { body: { name: 'x', permissions: ['everything'] } });
    await call('POST /api/v1/keys', 401, { body: { name: 'x', permissions: [] }, auth: 'none' });
    await call('POST /api/v1/keys', 403, { body: { name: 'wider', permissions: ['create_orders'] }, auth: { key: narrowKey } });
  });

  it('prices: list, best, history, stats (public)', async () => {
    const prices = await call('GET /api/v1/prices', 200);
    expect(prices.json.length).toBeGreaterThan(0);
    await call('GET /api/v1/prices/best', 200, { query: { resource: 'ENERGY' } });
    await call('GET /api/v1/prices/best', 200, { query: { resource: 'BANDWIDTH', amount: '1000' } });
    await call('GET /api/v1/prices/best', 422, { query: { resource: 'WATER' } });
    const providers = prices.json.map((p: { provider: string }) => p.provider);
    for (const p of providers) mock.state.setProviderOverride(p, { online: false });
    const none = await call('GET /api/v1/prices/best', 503, { query: { resource: 'ENERGY' } });
    expect(none.json.error.code).toBe('PROVIDER_UNAVAILABLE');
    for (const p of providers) mock.state.setProviderOverride(p, null);
    const history = await call('GET /api/v1/prices/history', 200, { query: { resource: 'ENERGY', period: '1h' } });
    expect(history.json.length).toBeGreaterThan(0);
    await call('GET /api/v1/prices/history', 200, { query: { provider: 'no-such-provider' } });
    await call('GET /api/v1/prices/history', 422, { query: { period: '1y' } });
    await call('GET /api/v1/prices/stats', 200);
  });

  it('orders/preview: with and without credentials (200), below the energy minimum (422)', async () => {
    const q = { resource: 'ENERGY', amount: '65000', duration: '3600' };
    const preview = await call('GET /api/v1/orders/preview', 200, { query: q });
    expect(preview.json.best).not.toBeNull();
    await call('GET /api/v1/orders/preview', 200, { query: { ...q, max_price_sun: '1' }, auth: 'key' });
    await call('GET /api/v1/orders/preview', 422, { query: { ...q, amount: '1000' } });
  });

  it('orders: create (201), replay (200), conflict (409), 400, 402, 403, 401', async () => {
    const body = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET };
    const created = await call('POST /api/v1/orders', 201, { body, headers: { 'idempotency-key': 'contract-order-1' } });
    orderId = created.json.id;
    const replay = await call('POST /api/v1/orders', 200, { body, headers: { 'idempotency-key': 'contract-order-1' } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.json).toEqual(created.json);
    await call('POST /api/v1/orders', 409, { body: { ...body, amount: 70_000 }, headers: { 'idempotency-key': 'contract-order-1' } });
    await call('POST /api/v1/orders', 201, { body: { ...body, order_type: 'LIMIT', max_price_sun: 1 } });
    periodicId = (await call('POST /api/v1/orders', 201, { body: { ...body, order_type: 'PERIODIC' } })).json.id;
    await call('POST /api/v1/orders', 422, { body: { ...body, max_price_sun: 1 } });
    const providers = (await call('GET /api/v1/prices', 200)).json.map((p: { provider: string }) => p.provider);
    await mock.state.advance(5_000); // the orders so far fill
    for (const p of providers) mock.state.setProviderOverride(p, { fail_delegations: true });
    failedId = (await call('POST /api/v1/orders', 201, { body })).json.id;
    await mock.state.advance(60_000);
    for (const p of providers) mock.state.setProviderOverride(p, null);
    await call('POST /api/v1/orders', 400, { body: { ...body, amount: 1000 } });
    await call('POST /api/v1/orders', 400, { rawBody: JSON.stringify(body), headers: { 'content-type': 'text/plain' } });
    await call('POST /api/v1/orders', 422, { body: { ...body, target_address: BAD_ADDRESS } });
    await call('POST /api/v1/orders', 503, { body: { ...body, amount: 500_000_000 } });
    const broke = mock.state.createAccount({ name: 'contract broke', trx_sun: 0 });
    await call('POST /api/v1/orders', 402, { body, auth: { key: broke.api_key } });
    await call('POST /api/v1/orders', 403, { body, auth: { key: narrowKey } });
    await call('POST /api/v1/orders', 401, { body, auth: { key: 'sk_live_' + '0'.repeat(64) } });
  });

  it('orders: list (200, filtered, JWT), bad limit (422), get (200 once filled, 404)', async () => {
    await mock.state.advance(5_000);
    const list = await call('GET /api/v1/orders', 200);
    expect(list.json.total).toBeGreaterThan(0);
    await call('GET /api/v1/orders', 200, { query: { status: 'FILLED', limit: '1', offset: '0' }, auth: 'jwt' });
    await call('GET /api/v1/orders', 200, { auth: { key: narrowKey } });
    await call('GET /api/v1/orders', 422, { query: { limit: '1000' } });
    await call('GET /api/v1/orders', 401, { auth: 'none' });
    const order = await call('GET /api/v1/orders/{id}', 200, { path: `/api/v1/orders/${orderId}` });
    expect(order.json.status).toBe('FILLED');
    expect(order.json.fills.length).toBeGreaterThan(0);
    await call('GET /api/v1/orders/{id}', 200, { path: `/api/v1/orders/${periodicId}` });
    const failed = await call('GET /api/v1/orders/{id}', 200, { path: `/api/v1/orders/${failedId}` });
    expect(failed.json.status).toBe('FAILED');
    await call('GET /api/v1/orders/{id}', 404, { path: '/api/v1/orders/00000000-0000-4000-8000-000000000000' });
  });

  it('balance, history, summary', async () => {
    await call('GET /api/v1/balance', 200);
    await call('GET /api/v1/balance', 200, { auth: 'jwt' });
    await call('GET /api/v1/balance', 403, { auth: { key: narrowKey } });
    await call('GET /api/v1/balance', 401, { auth: 'none' });
    const history = await call('GET /api/v1/history', 200);
    expect(history.json.length).toBeGreaterThan(0);
    await call('GET /api/v1/history', 200, { query: { period: '90D' } });
    await call('GET /api/v1/history', 422, { query: { period: '1Y' } });
    await call('GET /api/v1/history', 403, { auth: { key: narrowKey } });
    await call('GET /api/v1/history/summary', 200);
    await call('GET /api/v1/history/summary', 401, { auth: 'none' });
  });

  it('deposits: info, prepare (200, 422), submit (200, 400 without memo, 502 when broadcast twice)', async () => {
    await call('GET /api/v1/deposit/info', 200);
    await call('POST /api/v1/deposit/prepare', 200, { body: { amount_sun: 5_000_000 } });
    await call('POST /api/v1/deposit/prepare', 422, { body: { amount_sun: 5 } });
    const transfer = (memo?: string) =>
      signTransaction(
        buildTrxTransfer({ from: USER_ADDRESS, to: mock.state.platformAddress, amountSun: 3_000_000, ...(memo ? { memo } : {}), now: mock.state.now() }),
        USER_KEY,
      );
    const tx = transfer(mock.memo);
    await call('POST /api/v1/deposit/submit', 200, { body: { signed_tx: tx } });
    await call('POST /api/v1/deposit/submit', 502, { body: { signed_tx: tx } });
    await call('POST /api/v1/deposit/submit', 400, { body: { signed_tx: transfer() } });
    await call('POST /api/v1/deposit/submit', 400, { body: { signed_tx: { txID: 'nope' } } });
  });

  it('withdraw: 200, replay, 409, 400 (balance, address), 422 (below minimum)', async () => {
    const body = { address: TARGET, amount: 50_000_000, currency: 'TRX' };
    await call('POST /api/v1/withdraw', 200, { body, headers: { 'idempotency-key': 'contract-withdraw-1' } });
    const replay = await call('POST /api/v1/withdraw', 200, { body, headers: { 'idempotency-key': 'contract-withdraw-1' } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    await call('POST /api/v1/withdraw', 409, { body: { ...body, amount: 60_000_000 }, headers: { 'idempotency-key': 'contract-withdraw-1' } });
    await call('POST /api/v1/withdraw', 400, { body: { ...body, amount: 9_000_000_000_000 } });
    await call('POST /api/v1/withdraw', 400, { body: { ...body, address: BAD_ADDRESS } });
    await call('POST /api/v1/withdraw', 422, { body: { ...body, amount: 1 } });
    await call('POST /api/v1/withdraw', 401, { body, auth: 'none' });
  });

  it('webhooks: create (201), invalid (422), list (200), delete (200, 404)', async () => {
    const created = await call('POST /api/v1/webhooks', 201, { body: { url: 'https://127.0.0.1:1/hook', events: ['order.filled'] } });
    await call('POST /api/v1/webhooks', 422, { body: { url: 'http://hooks.invalid/hook', events: ['order.filled'] } });
    await call('POST /api/v1/webhooks', 422, { body: { url: 'https://127.0.0.1:1/hook', events: [] } });
    const list = await call('GET /api/v1/webhooks', 200);
    expect(list.json.length).toBeGreaterThan(0);
    await call('GET /api/v1/webhooks', 401, { auth: 'none' });
    await call('DELETE /api/v1/webhooks/{id}', 200, { path: `/api/v1/webhooks/${created.json.id}` });
    await call('DELETE /api/v1/webhooks/{id}', 404, { path: `/api/v1/webhooks/${created.json.id}` });
  });

  it('broadcast: a signed transaction (200), twice (200, the same tx_id), garbage (400, as the table gives it), a key without the permission (403)', async () => {
    const tx = signTransaction(buildTrxTransfer({ from: USER_ADDRESS, to: TARGET, amountSun: 1_000_000, now: mock.state.now() }), USER_KEY);
    await call('POST /api/v1/broadcast', 200, { body: { signed_tx: tx } });
    await call('POST /api/v1/broadcast', 200, { body: { signed_tx: tx } });
    await call('POST /api/v1/broadcast', 400, { body: { signed_tx: { txID: 'x' } } });
    await call('POST /api/v1/broadcast', 403, { body: { signed_tx: tx }, auth: { key: narrowKey } });
  });

  it('keys: revoke (200), again (404), the revoked key is refused (401)', async () => {
    await call('DELETE /api/v1/keys/{id}', 200, { path: `/api/v1/keys/${narrowKeyId}` });
    await call('DELETE /api/v1/keys/{id}', 404, { path: `/api/v1/keys/${narrowKeyId}` });
    await call('GET /api/v1/orders', 401, { auth: { key: narrowKey } });
  });
});

// ---------------------------------------------------------------------------------------------

describe('pay-per-call API (/x402/tron)', () => {
  /** Every exchange the SDK's x402 client makes (the 402 challenge, then the paid retry). */
  const exchanges: Array<Exchange & { method: string; url: string }> = [];
  const recordingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const text = await response.clone().text();
    const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
    const url = input instanceof Request ? input.url : String(input);
    exchanges.push({ method, url, status: response.status, headers: response.headers, text });
    return response;
  };
  const client = () => new X402Client({ baseUrl: mock.url, payers: [evmPayer({ privateKey: EVM_KEY })], fetch: recordingFetch, timeoutMs: 10_000 });

  /** Run one paid SDK call; validate its challenge and its paid 200 against operation `op`. */
  async function paid<T>(op: string, run: () => Promise<T>): Promise<T> {
    exchanges.length = 0;
    const result = await run();
    expect(exchanges.map((e) => e.status)).toEqual([402, 200]);
    for (const e of exchanges) record(op, e);
    return result;
  }

  it('every paid route answers an unpaid call with the 402 challenge (header and body agree)', async () => {
    const cases: Array<[string, CallInit]> = [
      ['GET /x402/tron/prices', { query: { resource: 'ENERGY' } }],
      ['GET /x402/tron/account/{address}', { path: `/x402/tron/account/${TARGET}` }],
      ['POST /x402/tron/estimate', { body: { operation: 'trc20_transfer', to: TARGET, amount: '1' } }],
      ['POST /x402/tron/swap/quote', { body: { from: 'TRX', to: 'USDT', amount: '100' } }],
      ['GET /x402/tron/network', {}],
      ['POST /x402/tron/invoice', { body: { amount_usdt: '5' } }],
      ['POST /x402/tron/watch', { body: { address: TARGET, webhook_url: 'https://127.0.0.1:1/watch' } }],
      ['POST /x402/tron/receive', { body: { expected_amount: '1' } }],
      ['POST /x402/tron/swap/execute', { body: { from_token: 'USDT', to_token: 'TRX', amount: '10' } }],
      ['POST /x402/tron/rpc/{method}', { path: '/x402/tron/rpc/wallet/getnowblock', body: {} }],
      ['POST /x402/tron/rpc/{method}', { path: '/x402/tron/rpc/wallet%2Fgetchainparameters', body: {} }],
    ];
    for (const [op, init] of cases) {
      const r = await call(op, 402, init);
      const header = JSON.parse(Buffer.from(r.headers.get('payment-required')!, 'base64').toString('utf8'));
      expect(header, op).toEqual(r.json);
    }
  });

  it('every paid route refuses an invalid request with 400 before any challenge', async () => {
    const cases: Array<[string, CallInit]> = [
      ['GET /x402/tron/prices', { query: { resource: 'WATER' } }],
      ['POST /x402/tron/estimate', { body: { operation: 'mint' } }],
      ['POST /x402/tron/swap/quote', { body: { from: 'TRX', amount: '1' } }],
      ['GET /x402/tron/network', { query: { format: 'xml' } }],
      ['POST /x402/tron/invoice', { body: { amount_usdt: '-1' } }],
      ['POST /x402/tron/watch', { body: { address: TARGET, webhook_url: 'ftp://127.0.0.1/watch' } }],
      ['POST /x402/tron/receive', { body: { expected_amount: 'lots' } }],
      ['POST /x402/tron/send', { body: { to: TARGET, amount_usdt: '1', signed_tx: 'zz' } }],
      ['POST /x402/tron/send/batch', { body: { transfers: [] } }],
      ['POST /x402/tron/swap/execute', { body: { from_token: 'USDT', amount: '1' } }],
      ['POST /x402/tron/rpc/{method}', { path: '/x402/tron/rpc/wallet/createtransaction', body: {} }],
      ['POST /x402/tron/rpc/{method}', { path: '/x402/tron/rpc/wallet/getnowblock', rawBody: '{', headers: { 'content-type': 'application/json' } }],
    ];
    for (const [op, init] of cases) {
      const r = await call(op, 400, init);
      expect(r.json.error.code, op).toBe('VALIDATION_ERROR');
    }
  });

  it('an address that fails its checksum', async () => {
    // Paid routes answer every invalid input, an address failing its checksum included, with 400
    // before any challenge.
    const invalid = await call('GET /x402/tron/account/{address}', 400, { path: `/x402/tron/account/${BAD_ADDRESS}` });
    expect(invalid.json.error.code).toBe('INVALID_ADDRESS');
    const bad = await call('GET /x402/tron/account/{address}', 402, { path: `/x402/tron/account/${TARGET}`, headers: { 'payment-signature': '%%%' } });
    expect(bad.json.error).toBe('invalid_payload');
    await call('POST /x402/tron/estimate', 400, { body: { operation: 'trc20_transfer', to: BAD_ADDRESS } });
  });

  it('a malformed payment header and a payment that does not verify are both a 402 naming why', async () => {
    const bad = await call('GET /x402/tron/prices', 402, { headers: { 'payment-signature': 'not base64!' } });
    expect(bad.json.error).toBe('invalid_payload');
    expect(bad.headers.get('payment-response')).not.toBeNull();
    const forged = encodeBase64Json({
      x402Version: 2,
      accepted: {
        scheme: 'exact',
        network: 'eip155:8453',
        amount: '1',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        payTo: '0x0000000000000000000000000000000000000001',
        maxTimeoutSeconds: 300,
      },
      payload: {},
    });
    const refused = await call('GET /x402/tron/prices', 402, { headers: { 'payment-signature': forged } });
    expect(refused.headers.get('payment-response')).not.toBeNull();
  });

  // The account tests moved the mock clock about 70 s ahead of wall time: EVM authorizations
  // (valid for 300 s of wall time) and transfers signed for an hour still verify.
  it('paid calls (USDC on Base through the SDK): every route’s 200 { data } with PAYMENT-RESPONSE', async () => {
    const c = client();
    await paid('GET /x402/tron/prices', () => c.prices({ resource: 'ENERGY' }));
    await paid('GET /x402/tron/prices', () => c.prices());
    mock.state.chain.syntheticTransfer({ token: USDT, to: TARGET, amount: 5_000_000n });
    await paid('GET /x402/tron/account/{address}', () => c.account(TARGET));
    await paid('POST /x402/tron/estimate', () => c.estimate({ operation: 'trc20_transfer', to: TARGET, amount: '1' }));
    await paid('POST /x402/tron/estimate', () => c.estimate({ operation: 'trx_transfer', to: labelAddress('contract empty'), amount: '1' }));
    await paid('POST /x402/tron/swap/quote', () => c.swapQuote({ from: 'TRX', to: 'USDT', amount: '100' }));
    await paid('GET /x402/tron/network', () => c.network());
    await paid('GET /x402/tron/network', () => c.network({ format: 'summary' }));
    await paid('POST /x402/tron/invoice', () => c.invoice({ amount_usdt: '5', description: 'contract' }));
    await paid('POST /x402/tron/watch', () => c.watch({ address: TARGET, webhook_url: 'https://127.0.0.1:1/watch' }));
    await paid('POST /x402/tron/receive', () => c.receive({ expected_amount: '1' }));
    mock.state.chain.syntheticTransfer({ token: USDT, to: SENDER, amount: 10_000_000n });
    mock.state.chain.fundTrx(SENDER, 5_000_000n); // an account on chain: java-tron refuses a sender that is none
    const to = labelAddress('contract send');
    const one = await signTrc20Transfer({ privateKey: SENDER_KEY, to, amount: '1.5', fullNode: mock.url, expirationSeconds: 3600 });
    await paid('POST /x402/tron/send', () => c.send({ to, amount_usdt: '1.5', signed_tx: one.signed_tx, memo: 'contract' }));
    const a = labelAddress('contract batch a');
    const transfers = [
      {
        to: a,
        amount: '0.25',
        signed_tx: (await signTrc20Transfer({ privateKey: SENDER_KEY, to: a, amount: '0.25', fullNode: mock.url, expirationSeconds: 3600 })).signed_tx,
      },
      {
        to: a,
        amount: '9',
        signed_tx: (await signTrc20Transfer({ privateKey: SENDER_KEY, to: a, amount: '8', fullNode: mock.url, expirationSeconds: 3600 })).signed_tx,
      },
    ];
    const batch = await paid('POST /x402/tron/send/batch', () => c.sendBatch({ transfers }));
    expect(batch.data).toMatchObject({ total: 2, succeeded: 1, failed: 1 });
    await paid('POST /x402/tron/swap/execute', () => c.swapExecute({ from_token: 'USDT', to_token: 'TRX', amount: '10' }));
    await paid('POST /x402/tron/rpc/{method}', () => c.rpc('wallet/getnowblock', {}));
    await paid('POST /x402/tron/rpc/{method}', () => c.rpc('wallet/getaccount', { address: TARGET, visible: true }));
  });
});

// ---------------------------------------------------------------------------------------------

/** A concrete path for every operation (sample values for its parameters). */
function samplePath(key: string): string {
  const template = key.split(' ')[1]!;
  return template.replace('{address}', TARGET).replace('{method}', 'wallet/getnowblock').replace('{id}', 'sample-id');
}

describe('a new route is exercised by itself', () => {
  it('every account GET without path parameters answers its documented success to the demo key (no hand-written call needed)', async () => {
    let probed = 0;
    for (const e of ENDPOINT_LIST) {
      if (e.api !== 'account' || e.method !== 'GET' || e.path.includes('{')) continue;
      // A query the schema accepts empty; otherwise the entry's own test supplies one.
      if (e.query && !(e.query as { safeParse: (v: unknown) => { success: boolean } }).safeParse({}).success) continue;
      await call(`${e.method} ${e.path}`, e.status);
      probed++;
    }
    expect(probed).toBeGreaterThan(3);
  });
});

describe('faults: every operation answers in the error envelope', () => {
  it('429 (documented with Retry-After on the account API), 500 and 503 (the default response)', async () => {
    for (const key of OPERATION_KEYS) {
      const paidRoute = key.includes(' /x402/');
      const body = key.startsWith('POST ') ? {} : undefined;
      // The paid API's rate limits are not shown by the spec: its 429 is a default response there.
      await call(key, 429, { path: samplePath(key), body, headers: { 'x-mock-chaos': '429' }, allowDefault: paidRoute });
      await call(key, 500, { path: samplePath(key), body, headers: { 'x-mock-chaos': '500' }, allowDefault: true });
      await call(key, 503, { path: samplePath(key), body, headers: { 'x-mock-chaos': '503' }, allowDefault: true });
    }
  });

  it('the real rate limiter: 429 with Retry-After, and the RateLimit headers on every answer', async () => {
    const limited = await startMockServer({ rateLimits: { prices: 1, orders: 1 }, clock: createManualClock() });
    try {
      for (const [op, init] of [
        ['GET /api/v1/prices', {}],
        ['GET /api/v1/orders', { headers: { 'x-api-key': limited.apiKey } }],
      ] as const) {
        const path = op.split(' ')[1]!;
        const first = await fetch(`${limited.url}${path}`, init);
        const second = await fetch(`${limited.url}${path}`, init);
        for (const r of [first, second]) record(op, { status: r.status, headers: r.headers, text: await r.text() });
        expect([first.status, second.status]).toEqual([200, 429]);
        expect(first.headers.get('ratelimit-limit')).toBe('1');
        expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    } finally {
      await limited.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('coverage and fidelity', () => {
  it('every operation was exercised with a success and at least one error status', () => {
    for (const key of OPERATION_KEYS) {
      const statuses = [...(covered.get(key) ?? [])];
      expect(
        statuses.some((s) => s < 300),
        `${key}: no success`,
      ).toBe(true);
      expect(
        statuses.some((s) => s >= 400),
        `${key}: no error`,
      ).toBe(true);
      if (key.includes(' /x402/')) expect(statuses, key).toEqual(expect.arrayContaining([200, 400, 402]));
    }
  });

  it('the fields the mock sends beyond the document are exactly the known ones (FIDELITY)', () => {
    const seen = Object.fromEntries([...extrasSeen].map(([k, v]) => [k, [...v].sort()]).sort(([a], [b]) => String(a).localeCompare(String(b))));
    expect(seen).toEqual(KNOWN_EXTRAS);
  });
});
