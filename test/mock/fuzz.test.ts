/**
 * Bounded fuzz: at least 2,000 malformed requests across every route (and unknown ones) over
 * real HTTP. Most start from a valid request for the route and break it (a field dropped, set
 * to a wrong type or edge value, an unknown field added, the JSON cut short, the wrong
 * credentials or content type); the rest are random. Every error must be a well-formed
 * envelope with a known code and a status the spec allows for it; never a 500, never a dropped
 * connection; the books balance afterwards.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ERROR_STATUS } from '../../src/schemas/errors.js';
import { buildTrxTransfer, signTransaction } from '../../src/protocol/tron-transaction.js';
import { type MockServer, ROUTES } from '../../src/mock/index.js';
import { BAD_ADDRESS, TARGET, USER_ADDRESS, USER_KEY, isErrorEnvelope, manualServer, raw } from './helpers.js';

let mock: MockServer;
let templates: Record<string, Record<string, unknown>>;

beforeAll(async () => {
  mock = await manualServer({ market: { offlineRate: 0.1 } });
  const deposit = signTransaction(
    buildTrxTransfer({
      from: USER_ADDRESS,
      to: mock.state.platformAddress,
      amountSun: 2_000_000,
      memo: mock.memo,
      now: mock.state.now(),
      expirationMs: 3_600_000,
    }),
    USER_KEY,
  );
  // A valid request for every route with parameters (body for POST, query for GET).
  templates = {
    'POST /api/v1/orders': { resource_type: 'ENERGY', order_type: 'MARKET', amount: 65_000, duration_sec: 3600, target_address: TARGET, max_price_sun: 100 },
    'POST /api/v1/withdraw': { address: TARGET, amount: 50_000_000, currency: 'TRX' },
    'POST /api/v1/keys': { name: 'k', permissions: ['view_orders'] },
    'POST /api/v1/webhooks': { url: 'https://hooks.example/x', events: ['order.filled'] },
    'POST /api/v1/deposit/prepare': { amount_sun: 1_000_000 },
    'POST /api/v1/deposit/submit': { signed_tx: { ...deposit } },
    'POST /api/v1/broadcast': { signed_tx: { ...deposit } },
    'POST /__mock/accounts': { trx_sun: 1_000_000, permissions: ['view_orders'] },
    'POST /__mock/credit': { amount_sun: 1_000 },
    'POST /__mock/clock/advance': { ms: 1_000 },
    'POST /__mock/deposits': { amount_sun: 1_000_000 },
    'POST /__mock/providers/:id': { price_factor: 1 },
    'GET /api/v1/orders/preview': { resource: 'ENERGY', amount: '65000', duration: '3600', max_price_sun: '100' },
    'GET /api/v1/orders': { status: 'FILLED', limit: '10', offset: '0' },
    'GET /api/v1/history': { period: '7D' },
    'GET /api/v1/prices/best': { resource: 'ENERGY', amount: '65000' },
    'GET /api/v1/prices/history': { provider: 'tem', resource: 'ENERGY', period: '1h' },
    'GET /__mock/webhooks/deliveries': { event: 'order.filled' },
  };
});
afterAll(() => mock.close());

const edge = fc.constantFrom<unknown>(
  65_000,
  64_999,
  3600,
  299,
  2_592_001,
  -1,
  0,
  1,
  1.5,
  1e21,
  Number.MAX_SAFE_INTEGER,
  2 ** 53 + 2,
  -0,
  '65000',
  '',
  ' ',
  'ENERGY',
  'BANDWIDTH',
  'MARKET',
  'LIMIT',
  'BROADCAST',
  'PERIODIC',
  'DONE',
  'TRX',
  'USDT',
  TARGET,
  BAD_ADDRESS,
  'T',
  'https://hooks.example/x',
  'http://example.com/h',
  'order.filled',
  'deposit.confirmed',
  'view_orders',
  'admin',
  [],
  ['order.filled'],
  ['create_orders', 'x'],
  {},
  { txID: 'ab'.repeat(32), raw_data: {}, signature: ['00'] },
  null,
  true,
  false,
  '\u0000',
  'é'.repeat(3),
  'a'.repeat(300),
);
const value = fc.oneof(
  { weight: 3, arbitrary: edge },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

type Mutation = { kind: 'drop' | 'set' | 'add' | 'nested'; pick: number; value: unknown; name: string };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('drop', 'set', 'set', 'add', 'nested'),
  pick: fc.nat(),
  value,
  name: fc.constantFrom('extra', 'id', '__proto__', 'constructor', 'amount ', 'AMOUNT', 'x'),
});

function mutate(template: Record<string, unknown>, mutations: Mutation[]): Record<string, unknown> {
  const out: Record<string, unknown> = structuredClone(template);
  for (const m of mutations) {
    const keys = Object.keys(out);
    const key = keys.length ? keys[m.pick % keys.length]! : m.name;
    if (m.kind === 'drop') delete out[key];
    else if (m.kind === 'set') out[key] = m.value;
    else if (m.kind === 'add') Object.defineProperty(out, m.name, { value: m.value, enumerable: true, writable: true, configurable: true });
    else {
      const inner = out[key];
      if (inner && typeof inner === 'object' && !Array.isArray(inner)) {
        const innerKeys = Object.keys(inner);
        if (innerKeys.length) (inner as Record<string, unknown>)[innerKeys[m.pick % innerKeys.length]!] = m.value;
      } else out[key] = m.value;
    }
  }
  return out;
}

// Routes that take a body or a query, where malformed input matters most, are drawn 3x as often.
const PARAM_ROUTES = ROUTES.filter(
  (r) =>
    r.body ||
    ['/api/v1/orders/preview', '/api/v1/orders', '/api/v1/history', '/api/v1/prices/best', '/api/v1/prices/history', '/__mock/webhooks/deliveries'].includes(
      r.path,
    ),
);
const shaped = fc.record({
  route: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PARAM_ROUTES) }, { weight: 1, arbitrary: fc.constantFrom(...ROUTES) }),
  id: fc.oneof(fc.constantFrom('tem', 'netts', 'x', '00000000-0000-4000-8000-000000000000'), fc.string({ maxLength: 12 })),
  mutations: fc.array(mutation, { minLength: 0, maxLength: 3 }),
  truncate: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  method: fc.oneof(
    { weight: 12, arbitrary: fc.constant<string | undefined>(undefined) },
    { weight: 1, arbitrary: fc.constantFrom('PUT', 'PATCH', 'DELETE', 'GET', 'POST') },
  ),
});

const randomBody = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 40 }).map((text) => ({ text })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => ({ text: JSON.stringify(v) })),
  fc.uint8Array({ maxLength: 48 }).map((bytes) => ({ bytes })),
);
const randomRequest = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH'),
  path: fc
    .tuple(fc.constantFrom('/api/v1/', '/api/v1/orders/', '/__mock/', '/api/', '/', '/api/v1/prices/'), fc.string({ maxLength: 16 }))
    .map(([p, rest]) => p + encodeURIComponent(rest)),
  query: fc.dictionary(fc.string({ maxLength: 6 }), fc.string({ maxLength: 10 }), { maxKeys: 3 }),
  body: randomBody,
});

const envelope = fc.record({
  auth: fc.oneof(
    { weight: 6, arbitrary: fc.constant('key') },
    { weight: 2, arbitrary: fc.constant('jwt') },
    { weight: 1, arbitrary: fc.constant('narrow-key') },
    { weight: 1, arbitrary: fc.constantFrom('none', 'bad-key', 'bad-bearer', 'revoked-key') },
  ),
  contentType: fc.oneof(
    { weight: 8, arbitrary: fc.constant<string | undefined>('application/json') },
    { weight: 1, arbitrary: fc.constantFrom('text/plain', undefined) },
  ),
  idempotencyKey: fc.oneof({ weight: 3, arbitrary: fc.constant<string | undefined>(undefined) }, { weight: 1, arbitrary: fc.stringMatching(/^[!-~]{1,70}$/) }),
});

const request = fc.tuple(
  fc.oneof({ weight: 4, arbitrary: shaped.map((s) => ({ shaped: s })) }, { weight: 1, arbitrary: randomRequest.map((r) => ({ random: r })) }),
  envelope,
);

/** Statuses each code may come with: the table's, plus the endpoint rows of the spec (and 413 for an oversized body). */
function allowedStatuses(code: keyof typeof ERROR_STATUS): number[] {
  if (code === 'VALIDATION_ERROR') return [400, 422, 413];
  if (code === 'INSUFFICIENT_BALANCE') return [400, 402, 422];
  return [ERROR_STATUS[code]];
}

it('2,000+ malformed requests across all routes: only well-formed envelopes with known codes, no 500', async () => {
  const narrow = mock.state.createAccount({ trx_sun: 1e9, permissions: ['view_orders'] });
  const revoked = mock.state.createAccount({ trx_sun: 1e9 });
  mock.state.accounts.revokeKey(mock.state.getAccount(revoked.account_id)!, revoked.key_id);
  const codes = new Map<string, number>();
  const routesHit = new Set<string>();
  let sent = 0;
  await fc.assert(
    fc.asyncProperty(request, async ([req, env]) => {
      const headers: Record<string, string> = {};
      if (env.auth === 'key') headers['x-api-key'] = mock.apiKey;
      if (env.auth === 'narrow-key') headers['X-Api-Key'] = narrow.api_key;
      if (env.auth === 'revoked-key') headers['x-api-key'] = revoked.api_key;
      if (env.auth === 'jwt') headers.authorization = `Bearer ${mock.jwt}`;
      if (env.auth === 'bad-key') headers['x-api-key'] = `sk_live_${'0'.repeat(64)}`;
      if (env.auth === 'bad-bearer') headers.authorization = 'Bearer not.a.jwt';
      if (env.contentType) headers['content-type'] = env.contentType;
      if (env.idempotencyKey) headers['idempotency-key'] = env.idempotencyKey;
      let method: string;
      let path: string;
      let payload: string | Uint8Array | undefined;
      if ('shaped' in req) {
        const { route, id, mutations, truncate } = req.shaped;
        method = req.shaped.method ?? route.method;
        path = route.path.replace(':id', encodeURIComponent(id) || 'x');
        routesHit.add(`${route.method} ${route.path}`);
        const template = templates[`${route.method} ${route.path}`];
        const params = template ? mutate(template, mutations) : {};
        if (route.method === 'GET') {
          const qs = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')])).toString();
          if (qs) path += `?${qs}`;
        } else if (method !== 'GET') {
          const text = JSON.stringify(params);
          payload = truncate ? text.slice(0, Math.max(0, text.length - 2)) : text;
        }
      } else {
        const r = req.random;
        method = r.method;
        const qs = new URLSearchParams(r.query).toString();
        path = r.path + (qs ? `?${qs}` : '');
        if (method !== 'GET' && r.body) payload = 'bytes' in r.body ? r.body.bytes : r.body.text;
      }
      const response = await fetch(mock.url + path, { method, headers, body: payload as BodyInit | undefined });
      const text = await response.text();
      sent++;
      const what = `${method} ${path} ${typeof payload === 'string' ? payload : ''} -> ${response.status} ${text}`;
      expect(response.status, what).not.toBe(500);
      if (response.status >= 400) {
        const json = JSON.parse(text);
        expect(isErrorEnvelope(json), what).toBe(true);
        expect(allowedStatuses(json.error.code), what).toContain(response.status);
        codes.set(json.error.code, (codes.get(json.error.code) ?? 0) + 1);
      } else {
        expect(() => JSON.parse(text), what).not.toThrow();
        codes.set(String(response.status), (codes.get(String(response.status)) ?? 0) + 1);
      }
    }),
    // A fixed seed keeps CI deterministic (the coverage checks below must not flake); set
    // FUZZ_SEED to explore other inputs locally.
    { numRuns: 2_500, interruptAfterTimeLimit: 100_000, seed: Number(process.env.FUZZ_SEED ?? 20_261_120) },
  );
  expect(sent).toBeGreaterThanOrEqual(2_000);
  expect(routesHit.size).toBe(ROUTES.length);
  // the fuzz reached the interesting rows, not just 404s
  for (const code of ['200', '201', 'NOT_FOUND', 'UNAUTHORIZED', 'FORBIDDEN', 'VALIDATION_ERROR', 'INSUFFICIENT_BALANCE', 'BROADCAST_FAILED']) {
    expect(codes.get(code) ?? 0, `${code}: ${JSON.stringify([...codes])}`).toBeGreaterThan(0);
  }
  // still serving, and the books balance
  expect((await raw(mock.url, 'GET', '/api/v1/prices')).status).toBe(200);
  await mock.state.advance(60_000);
  expect(mock.state.checkInvariants().problems).toEqual([]);
}, 120_000);
