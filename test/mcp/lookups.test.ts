/**
 * What a chain spend records and how its unknown outcome is settled (src/mcp/effects.ts,
 * src/mcp/lookups.ts), against the mock over real HTTP with a loopback proxy that loses or
 * refuses the order request: the order request is recorded as it left (key and body), a lost
 * answer is found by replaying the SAME key and body (no second order: the mock's order log is
 * the judge), a definite refusal settles as nothing spent, and a transaction is looked up by its
 * id (confirmed, pending, expired).
 */
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TrxRent } from '../../src/client.js';
import { TrxRentError } from '../../src/errors/index.js';
import { Effects, recordingFetch } from '../../src/mcp/effects.js';
import { chainJob, lookupTransfer } from '../../src/mcp/lookups.js';

/** Well past the solidification lag (19 blocks of 3 s). */
const SOLIDIFY_MARGIN_MS = 60_000;
import type { Known } from '../../src/mcp/spend.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { pollUntil } from '../../src/utils/clock.js';
import { addressMaker } from '../helpers/wallets.js';
import { type Hostile, type Seen, hostileServer, json } from '../security/hostile.js';

let mock: MockServer;
let direct: TrxRent;
const hostiles: Hostile[] = [];
const { fresh, target } = addressMaker(() => mock, 'lookups');

beforeAll(async () => {
  mock = await startMockServer({ rateLimits: false, seed: 41, timings: { selectMs: 20, fillMs: 40, verifyMs: 60 } });
  direct = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey });
});
afterAll(async () => {
  for (const h of hostiles) await h.close();
  await mock.close();
});

const orderCount = async () => (await direct.orders.list({ limit: 1 })).total;

/** A loopback proxy to the mock; `tamper` may answer (or drop) a request after the mock handled it. */
async function proxy(tamper: (req: Seen, res: ServerResponse) => boolean | void): Promise<Hostile> {
  const h = await hostileServer((req, res) => {
    void (async () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !['host', 'connection', 'content-length'].includes(k)) headers[k] = v;
      const forward = () => fetch(`${mock.url}${req.url}`, { method: req.method, headers, body: req.method === 'GET' ? undefined : req.body });
      // one retry: a pooled connection the mock closed meanwhile is the proxy's fault, not the test's subject
      const upstream = await forward().catch(forward);
      const body = await upstream.text();
      if (tamper(req, res) === true) return;
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' });
      res.end(body);
    })().catch(() => res.destroy());
  });
  hostiles.push(h);
  return h;
}

/** `lookup` until the TRX line is settled (the order fills in about 0.1 s), at most 5 s. */
function settle(lookup: () => Promise<Known>): Promise<Known> {
  return pollUntil<Known>(
    async () => {
      const known = await lookup();
      return known.outcomes.TRX?.state === 'pending' ? { done: false as const } : { done: true as const, value: known };
    },
    { timeoutMs: 5_000, intervalMs: 50 },
  );
}

describe('the journal of an ensure', () => {
  test('records the order request as it left (key and body), only while the spend runs', async () => {
    const seen: string[] = [];
    const api = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, tronNode: mock.url, fetch: recordingFetch() });
    const fx = new Effects();
    // outside the journal: not recorded
    await api.orders.create({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: target() }, { idempotencyKey: 'outside-1' });
    const result = await fx.run(() =>
      api.resources.ensure({ address: target(), energy: 65_000, idempotencyKey: 'k-record-1', onProgress: (e) => (seen.push(e.step), fx.onProgress(e)) }),
    );
    expect(result.order?.status).toBe('FILLED');
    expect(fx.slots).toHaveLength(1);
    const slot = fx.slots[0]!;
    expect(slot.key).toMatch(/^k-record-1/);
    expect(JSON.parse(slot.body!)).toMatchObject({ resource_type: 'ENERGY', amount: 65_000, target_address: result.address });
    expect(slot.order).toMatchObject({ id: result.order!.id, status: 'FILLED', total_cost_sun: result.cost_sun });
    expect(seen).toContain('ordered');
    expect(fx.known().outcomes.TRX).toEqual({ state: 'spent', atomic: BigInt(result.cost_sun) });
  });

  test('every answer to the order lost: TRX unknown; the lookup replays the same key and body and finds the one order', async () => {
    let lose = true;
    const h = await proxy((req, res) => {
      if (lose && req.method === 'POST' && req.url === '/api/v1/orders') {
        res.destroy(); // the mock created (or replayed) the order; its answer never arrives
        return true;
      }
    });
    const api = new TrxRent({
      baseUrl: h.url,
      apiKey: mock.apiKey,
      tronNode: mock.url,
      fetch: recordingFetch(),
      maxRetries: 1,
      retry: { baseDelayMs: 10, maxDelayMs: 20 },
    });
    const before = await orderCount();
    const fx = new Effects();
    const job = chainJob(
      api,
      fx,
      (key) => api.resources.ensure({ address: target(), energy: 65_000, idempotencyKey: key, onProgress: fx.onProgress }),
      () => ({ outcomes: {}, what: '' }),
    );
    const error = await job.run('k-lost-1').catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('CONNECTION_ERROR');
    expect(job.failed(error, 'k-lost-1').outcomes.TRX).toEqual({ state: 'pending' });
    expect(await orderCount()).toBe(before + 1); // it went through
    const posts = h.seen.filter((s) => s.method === 'POST' && s.url === '/api/v1/orders');
    expect(posts.length).toBeGreaterThanOrEqual(1);

    // still lost: the lookup learns nothing, no new order
    expect((await job.lookup('k-lost-1', AbortSignal.timeout(10_000))).outcomes.TRX).toEqual({ state: 'pending' });
    lose = false;
    const known = await settle(() => job.lookup('k-lost-1', AbortSignal.timeout(10_000)));
    expect(known.outcomes.TRX).toMatchObject({ state: 'spent' });
    expect(known.what).toMatch(/^order \S+ FILLED for [\d.]+ TRX$/);
    expect(await orderCount()).toBe(before + 1); // the replay created nothing
    // every order request carried the one key and the one body
    const replays = h.seen.filter((s) => s.method === 'POST' && s.url === '/api/v1/orders');
    expect(new Set(replays.map((s) => s.headers['idempotency-key']))).toEqual(new Set([fx.slots[0]!.key]));
    expect(new Set(replays.map((s) => s.body)).size).toBe(1);
    const charged = (known.outcomes.TRX as { atomic: bigint }).atomic;
    const order = await direct.orders.get(fx.slots[0]!.order!.id);
    expect(charged).toBe(BigInt(order.total_cost_sun!));
  });

  test('a definite refusal of the order request: nothing spent, no lookup needed', async () => {
    const h = await proxy((req, res) => {
      if (req.method === 'POST' && req.url === '/api/v1/orders') {
        json(res, 400, { error: { code: 'INSUFFICIENT_BALANCE', message: 'not enough TRX' } });
        return true;
      }
    });
    const api = new TrxRent({ baseUrl: h.url, apiKey: mock.apiKey, tronNode: mock.url, fetch: recordingFetch() });
    const fx = new Effects();
    const job = chainJob(
      api,
      fx,
      (key) => api.resources.ensure({ address: target(), energy: 65_000, idempotencyKey: key, onProgress: fx.onProgress }),
      () => ({ outcomes: {}, what: '' }),
    );
    const error = await job.run('k-refused-1').catch((e: unknown) => e);
    expect(fx.slots).toHaveLength(1);
    const known = job.failed(error, 'k-refused-1');
    expect(known.outcomes.TRX).toEqual({ state: 'none' });
    expect(known.what).toMatch(/ENERGY order refused by the service/);
  });
});

describe('the journal pairs requests and orders', () => {
  test('an energy and a bandwidth order: each request with its order; a refused one is nothing, the filled one its charge', () => {
    const fx = new Effects();
    fx.noteRequest('k', JSON.stringify({ resource_type: 'ENERGY', amount: 65_000 }));
    fx.noteRequest('k', JSON.stringify({ resource_type: 'ENERGY', amount: 65_000 })); // a retry: the same request
    fx.noteRequest('k:bw', JSON.stringify({ resource_type: 'BANDWIDTH', amount: 1_000 }));
    fx.onProgress({ step: 'ordered', order: { id: 'e1', status: 'PENDING', resource_type: 'ENERGY' } as never });
    expect(fx.slots.map((s) => [s.key, s.order?.id])).toEqual([
      ['k', 'e1'],
      ['k:bw', undefined],
    ]);
    expect(fx.known().outcomes.TRX).toEqual({ state: 'pending' });
    fx.onProgress({ step: 'filled', order: { id: 'e1', status: 'FILLED', resource_type: 'ENERGY', total_cost_sun: 2_000_000 } as never });
    const refusal = new TrxRentError({ code: 'INSUFFICIENT_BALANCE', message: 'no', status: 400 });
    Object.defineProperty(refusal, 'idempotencyKey', { value: 'k:bw' });
    fx.noteError(new TrxRentError({ code: 'INSUFFICIENT_BALANCE', message: 'renting failed', details: { transfer_sent: false }, cause: refusal }));
    expect(fx.known()).toMatchObject({ outcomes: { TRX: { state: 'spent', atomic: 2_000_000n } }, ids: { order_ids: ['e1'] } });
  });
});

describe('lookupTransfer', () => {
  test('confirmed by its receipt, pending while in no block, expired once the chain passed its expiration', async () => {
    const api = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, tronNode: mock.url });
    const chain = mock.state.chain;
    const tx = chain.syntheticTransfer({ token: chain.token('USDT')!, to: fresh(), amount: 1n, label: 'lookup' });
    expect(await lookupTransfer(api, tx.txid)).toMatchObject({ tx_id: tx.txid, state: 'confirmed', block: tx.block });
    const never = 'cd'.repeat(32);
    const now = Date.now();
    expect((await lookupTransfer(api, never, now + 60_000)).state).toBe('pending');
    expect((await lookupTransfer(api, never)).state).toBe('pending'); // no expiration known: never "expired"
    expect((await lookupTransfer(api, never, now - SOLIDIFY_MARGIN_MS - 60_000)).state).toBe('expired');
  });

  test('a signed transfer that expired unconfirmed releases the tokens; the rental still counts', async () => {
    const api = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, tronNode: mock.url });
    const fx = new Effects();
    fx.onProgress({ step: 'ordered', order: { id: 'x', status: 'FILLED', resource_type: 'ENERGY', total_cost_sun: 3_000_000 } as never });
    fx.onProgress({ step: 'signed', tx_id: 'ef'.repeat(32), expiration: Date.now() + 60_000 });
    const token = { currency: 'USDT' as const, atomic: 1_000_000n, label: 'sent 1 USDT' };
    const job = chainJob(
      api,
      fx,
      async () => 'x',
      () => ({ outcomes: {}, what: '' }),
      token,
    );
    expect(job.failed(new Error('lost'), 'k').outcomes).toEqual({ USDT: { state: 'pending' }, TRX: { state: 'pending' } });
    fx.transfer!.expiration = Date.now() - SOLIDIFY_MARGIN_MS - 60_000;
    const known = await job.lookup('k', AbortSignal.timeout(10_000));
    expect(known.outcomes).toEqual({ USDT: { state: 'none' }, TRX: { state: 'spent', atomic: 3_000_000n } });
    expect(known.what).toMatch(/expired unconfirmed/);
  });
});
