/** Authentication and permissions: keys (any header case), JWT, 401/403, revocation. */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ForbiddenError, TrxRent, UnauthorizedError } from '../../src/index.js';
import { PERMISSIONS, type Permission } from '../../src/schemas/keys.js';
import { buildTrxTransfer, signTransaction } from '../../src/protocol/tron-transaction.js';
import { JWT_LIFETIME_MS, type MockServer } from '../../src/mock/index.js';
import { TARGET, USER_ADDRESS, USER_KEY, isErrorEnvelope, manualServer, raw } from './helpers.js';

let mock: MockServer;
const order = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET } as const;

beforeAll(async () => {
  mock = await manualServer();
});
afterAll(() => mock.close());

function rawHeaderGet(url: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url + path, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('API keys', () => {
  it('issues sk_live_ + 64 hex secrets', async () => {
    expect(mock.apiKey).toMatch(/^sk_live_[0-9a-f]{64}$/);
    const r = await raw(mock.url, 'POST', '/api/v1/keys', { key: mock.apiKey, body: { name: 'x', permissions: ['view_orders'] } });
    expect(r.json.key).toMatch(/^sk_live_[0-9a-f]{64}$/);
    expect(r.json.key).not.toBe(mock.apiKey);
  });

  it('accepts the key header in any case on the wire', async () => {
    for (const name of ['x-api-key', 'X-API-KEY', 'X-Api-Key', 'x-API-key']) {
      expect(await rawHeaderGet(mock.url, '/api/v1/balance', { [name]: mock.apiKey })).toBe(200);
    }
    expect(await rawHeaderGet(mock.url, '/api/v1/balance', { 'x-api-keys': mock.apiKey })).toBe(401);
  });

  it('enforces the permission table: each permission grants exactly its endpoints (403 otherwise)', async () => {
    const tx = () =>
      signTransaction(buildTrxTransfer({ from: USER_ADDRESS, to: TARGET, amountSun: 1, now: mock.state.now() + Math.floor(Math.random() * 1e6) }), USER_KEY);
    const created = await raw(mock.url, 'POST', '/api/v1/orders', { key: mock.apiKey, body: order });
    const grants: Record<Permission, Array<() => [string, string, unknown?]>> = {
      create_orders: [() => ['POST', '/api/v1/orders', order]],
      view_orders: [() => ['GET', '/api/v1/orders'], () => ['GET', `/api/v1/orders/${created.json.id}`]],
      view_balance: [() => ['GET', '/api/v1/balance'], () => ['GET', '/api/v1/history']],
      broadcast: [() => ['POST', '/api/v1/broadcast', { signed_tx: tx() }]],
    };
    for (const permission of PERMISSIONS) {
      const only = mock.state.createAccount({ trx_sun: 1e9, permissions: [permission] });
      const others = mock.state.createAccount({ trx_sun: 1e9, permissions: PERMISSIONS.filter((p) => p !== permission) });
      // the order to read must belong to the caller: view_orders is checked on that account's own order
      for (const call of grants[permission]) {
        const [method, path, body] = call();
        const denied = await raw(mock.url, method, path, { key: others.api_key, body });
        expect(denied.status, `${permission} ${method} ${path}`).toBe(403);
        expect(denied.json.error).toMatchObject({ code: 'FORBIDDEN', details: { permission } });
        const allowed = await raw(mock.url, method, path.replace(created.json.id, 'x'), { key: only.api_key, body: method === 'POST' ? call()[2] : undefined });
        expect([200, 201, 404], `${permission} ${method} ${path}: ${allowed.text}`).toContain(allowed.status);
      }
    }
  });

  it('endpoints with no listed permission need only authentication', async () => {
    const narrow = mock.state.createAccount({ trx_sun: 1e9, permissions: ['view_orders'] });
    for (const [method, path, body] of [
      ['GET', '/api/v1/history/summary'],
      ['GET', '/api/v1/deposit/info'],
      ['POST', '/api/v1/deposit/prepare', { amount_sun: 1_000_000 }],
      ['GET', '/api/v1/webhooks'],
      ['POST', '/api/v1/withdraw', { address: TARGET, amount: 50_000_000, currency: 'TRX' }],
    ] as const) {
      const r = await raw(mock.url, method, path, { key: narrow.api_key, body });
      expect(r.status, `${method} ${path}: ${r.text}`).toBe(200);
      expect((await raw(mock.url, method, path, { body })).status).toBe(401);
    }
  });

  it('public endpoints need no credentials: GET /prices and POST /deposit/submit', async () => {
    expect((await raw(mock.url, 'GET', '/api/v1/prices')).status).toBe(200);
    const submit = await raw(mock.url, 'POST', '/api/v1/deposit/submit', { body: {} });
    expect(submit.status).toBe(400); // validation, not authentication
    expect(submit.json.error.code).toBe('VALIDATION_ERROR');
  });

  it('revocation is immediate and irreversible: 401 right after, 404 on a second revoke', async () => {
    const acct = mock.state.createAccount({ trx_sun: 1e9 });
    const client = new TrxRent({ baseUrl: mock.url, apiKey: acct.api_key, maxRetries: 0 });
    await client.balance.get();
    await new TrxRent({ baseUrl: mock.url, jwt: acct.jwt, maxRetries: 0 }).keys.revoke(acct.key_id);
    await expect(client.balance.get()).rejects.toBeInstanceOf(UnauthorizedError);
    const r = await raw(mock.url, 'GET', '/api/v1/balance', { key: acct.api_key });
    expect(r.status).toBe(401);
    expect(isErrorEnvelope(r.json)).toBe(true);
    expect((await raw(mock.url, 'DELETE', `/api/v1/keys/${acct.key_id}`, { jwt: acct.jwt })).status).toBe(404);
    // a key can revoke itself; the very next call is 401
    const self = await raw(mock.url, 'POST', '/api/v1/keys', { jwt: acct.jwt, body: { name: 'self', permissions: ['view_balance'] } });
    expect((await raw(mock.url, 'DELETE', `/api/v1/keys/${self.json.id}`, { key: self.json.key })).status).toBe(200);
    expect((await raw(mock.url, 'GET', '/api/v1/balance', { key: self.json.key })).status).toBe(401);
  });

  it("a key cannot revoke another account's key (404), nor grant permissions it lacks (403)", async () => {
    const a = mock.state.createAccount();
    const b = mock.state.createAccount();
    expect((await raw(mock.url, 'DELETE', `/api/v1/keys/${b.key_id}`, { key: a.api_key })).status).toBe(404);
    expect((await raw(mock.url, 'GET', '/api/v1/balance', { key: b.api_key })).status).toBe(200);
    const narrow = mock.state.createAccount({ permissions: ['view_balance'] });
    const client = new TrxRent({ baseUrl: mock.url, apiKey: narrow.api_key, maxRetries: 0 });
    await expect(client.keys.create({ name: 'wider', permissions: ['create_orders'] })).rejects.toBeInstanceOf(ForbiddenError);
    expect((await client.keys.create({ name: 'same', permissions: ['view_balance'] })).permissions).toEqual(['view_balance']);
  });
});

describe('JWT', () => {
  it('Authorization: Bearer <JWT> works with every permission (any scheme case)', async () => {
    const client = new TrxRent({ baseUrl: mock.url, jwt: mock.jwt, maxRetries: 0 });
    expect((await client.balance.get()).trx).toBeGreaterThan(0);
    expect((await client.orders.create(order)).status).toBe('PENDING');
    expect((await raw(mock.url, 'GET', '/api/v1/balance', { headers: { authorization: `bearer ${mock.jwt}` } })).status).toBe(200);
    expect((await raw(mock.url, 'GET', '/api/v1/balance', { headers: { authorization: `Basic ${mock.jwt}` } })).status).toBe(401);
  });

  it('a tampered or expired JWT is 401', async () => {
    const [h, p, s] = mock.jwt.split('.') as [string, string, string];
    const forged = JSON.parse(Buffer.from(p, 'base64url').toString());
    forged.sub = 'acct_other';
    const tampered = `${h}.${Buffer.from(JSON.stringify(forged)).toString('base64url')}.${s}`;
    expect((await raw(mock.url, 'GET', '/api/v1/balance', { jwt: tampered })).status).toBe(401);
    expect((await raw(mock.url, 'GET', '/api/v1/balance', { jwt: `${h}.${p}.${s.slice(1)}A` })).status).toBe(401);
    const fresh = mock.state.createAccount();
    await mock.state.advance(JWT_LIFETIME_MS - 1);
    expect((await raw(mock.url, 'GET', '/api/v1/balance', { jwt: fresh.jwt })).status).toBe(200);
    await mock.state.advance(1);
    expect((await raw(mock.url, 'GET', '/api/v1/balance', { jwt: fresh.jwt })).status).toBe(401);
    expect((await raw(mock.url, 'GET', '/api/v1/balance', { key: fresh.api_key })).status).toBe(200);
  });
});
