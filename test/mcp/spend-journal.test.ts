/**
 * The MCP server's spends outlive its process: a chain spend (ensure_resources' job, through the
 * session's guard) whose order answer is lost (the mock's chaos `drop`: placed, unanswered) is
 * an unknown outcome held against the caps; the spend and its order request (key and body,
 * written before the request left) are in the spend journal of the server's state folder. A new
 * server process on that folder holds it again before anything else and looks it up by the
 * same key and body: found, counted at the order's real cost, settled in the journal, so a third
 * process finds nothing open. The mock's order log is the judge: one order.
 *
 * Keyed POSTs (create_order, withdraw) are in the same journal with their body and arguments: a
 * call again with the same arguments after a lost answer is its retry (refused while the first
 * cannot be looked up, then answered with the first's order by its key, once); the journal view's
 * index of unanswered spends; and a replay past its window is never sent.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/client.js';
import { Effects } from '../../src/mcp/effects.js';
import { chainJob } from '../../src/mcp/lookups.js';
import { REPLAY_WINDOW_MS, keyedPost } from '../../src/mcp/outcome.js';
import { Session } from '../../src/mcp/session.js';
import { SpendJournal } from '../../src/mcp/spend-journal.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { MemoryJournal } from '../../src/store/memory.js';
import { addressMaker } from '../helpers/wallets.js';
import { call, connect, errorOf, ok } from './helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ rateLimits: false, seed: 37, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
});
afterAll(() => mock?.close());
const { fresh } = addressMaker(() => mock, 'spend-journal');

describe('the spend journal of the MCP server', () => {
  it('keeps a spend of unknown outcome across a restart: the next process holds it, finds it by key and body, counts it once', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'mcp-state-'));
    const logs: string[] = [];
    const server = () =>
      new Session({
        baseUrl: mock.url,
        apiKey: mock.apiKey,
        tronFullNode: mock.url,
        allowSpend: true,
        spendWithoutConfirmation: true,
        stateDir,
        log: (l) => logs.push(l),
      });
    const address = fresh();
    mock.state.chain.activate(address);
    const first = server();
    const plan = await first.api.chain.plan({ address, energy: 65_000 });
    expect(plan.cost_sun).toBeGreaterThan(0);
    // Every answer to an order request is lost (retries included) while the first process runs.
    mock.chaos.setRules([{ route: 'POST /api/v1/orders', kind: 'drop', times: 10 }]);
    const effects = new Effects();
    const spend = first.guard.spend(
      {
        tool: 'ensure_resources',
        lines: [{ currency: 'TRX', atomic: BigInt(plan.cost_sun), cap: { atomic: first.guard.limits.maxOrderSun, flag: '--max-order-trx', off: 'off' } }],
        summary: `rent 65000 energy to ${address}`,
      },
      async () => true,
      chainJob(
        first.api,
        effects,
        (idempotencyKey) =>
          first.api.chain.ensure({ address, energy: 65_000, maxCostSun: plan.cost_sun, idempotencyKey, onProgress: effects.onProgress, timeoutMs: 10_000 }),
        (r) => ({ outcomes: { TRX: { state: 'spent', atomic: BigInt(r.cost_sun) } }, what: 'bought' }),
      ),
    );
    await expect(spend).rejects.toMatchObject({ details: { outcome: 'unknown' } });
    mock.chaos.setRules([]);
    expect(first.guard.unknownOutcomes).toBe(1);
    const orders = async () =>
      (await new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey }).orders.list({ limit: 100 })).orders.filter((o) => o.target_address === address);
    expect(await orders()).toHaveLength(1);

    // The server restarts on the same state folder: the spend is held again, then found.
    const second = server();
    await second.guard.restore();
    expect(second.guard.unknownOutcomes).toBe(1);
    expect(second.guard.reserved('TRX')).toBe(BigInt(plan.cost_sun));
    await second.guard.reconcile();
    const [order] = await orders();
    const full = await new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey }).orders.get(order!.id);
    expect(second.guard.unknownOutcomes).toBe(0);
    expect(second.guard.reserved('TRX')).toBe(0n);
    expect(second.guard.spent('TRX')).toBe(BigInt(Number(full.total_cost_sun)));
    expect(logs.some((l) => l.includes('left by an earlier run of the server'))).toBe(true);
    expect(logs.some((l) => l.includes('found ensure_resources'))).toBe(true);
    // Looked up, never bought again.
    expect(await orders()).toHaveLength(1);

    // Settled in the journal: a third process has nothing open.
    const third = server();
    await third.guard.restore();
    expect(third.guard.unknownOutcomes).toBe(0);
    expect(third.guard.reserved('TRX')).toBe(0n);
  }, 60_000);
});

describe('keyed POSTs in the spend journal (create_order, withdraw)', () => {
  it('a call again with the same arguments retries the lost one: refused while it cannot be looked up, then answered with its order; once', async () => {
    const address = fresh();
    mock.state.chain.activate(address);
    const c = await connect(mock, { allowSpend: true, spendWithoutConfirmation: true, stateDir: mkdtempSync(join(tmpdir(), 'mcp-state-')) });
    const orders = async () =>
      (await new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey }).orders.list({ limit: 100 })).orders.filter((o) => o.target_address === address);
    const order = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: address, max_price_sun: 100 };
    try {
      // Every answer to an order request is lost: the call's attempts, and the lookups' replays.
      mock.chaos.setRules([{ route: 'POST /api/v1/orders', kind: 'drop', times: 50 }]);
      const lost = errorOf(await call(c.client, 'create_order', order, 30_000));
      expect(lost.details).toMatchObject({ outcome: 'unknown' });
      const key = lost.details!.idempotency_key as string;
      // The same call while the first cannot be looked up: refused, nothing new sent.
      const still = errorOf(await call(c.client, 'create_order', order, 30_000));
      expect(still.code).toBe('OUTCOME_UNKNOWN');
      expect(still.details).toMatchObject({ outcome: 'unknown', idempotency_key: key });
      expect(await orders()).toHaveLength(1);
      mock.chaos.setRules([]);
      // Answered with the first call's order (found by its key before the call, then replayed with it).
      const again = ok<{ order: { id: string } }>(await call(c.client, 'create_order', order));
      const [placed] = await orders();
      expect(again.order.id).toBe(placed!.id);
      expect(c.logs.some((l) => l.includes(`answered create_order again (idempotency key ${key})`))).toBe(true);
      expect(await orders()).toHaveLength(1);
      // Answered once: the same arguments again are a new order.
      expect(ok<{ order: { id: string } }>(await call(c.client, 'create_order', order)).order.id).not.toBe(placed!.id);
      expect(await orders()).toHaveLength(2);
    } finally {
      mock.chaos.setRules([]);
      await c.close();
    }
  }, 60_000);

  it("the journal view: a keyed spend is a retry's to answer only while no caller got its answer, within the window", async () => {
    const journal = new SpendJournal(new MemoryJournal('spends'));
    const request = { endpoint: 'createOrder' as const, body: { amount: 65_000 }, args: '{"amount":65000}' };
    const open = (key: string, at: number) => journal.opened({ key, tool: 'create_order', summary: 's', held: { TRX: 1n }, at, request });
    await open('a', 1_000);
    expect((await journal.unanswered('create_order', request.args, 0))?.state).toBe('open');
    expect(await journal.unanswered('withdraw', request.args, 0)).toBeUndefined();
    expect(await journal.unanswered('create_order', '{"amount":1}', 0)).toBeUndefined();
    await journal.settled('a', { verdict: 'spent', answered: false });
    expect((await journal.unanswered('create_order', request.args, 0))?.state).toBe('found');
    expect(await journal.unanswered('create_order', request.args, 2_000)).toBeUndefined(); // past the window
    await open('b', 3_000);
    await journal.settled('b', { verdict: 'spent', answered: false });
    await journal.answered('b');
    await open('c', 4_000);
    await journal.settled('c', { verdict: 'spent', answered: true });
    await open('d', 5_000);
    await journal.settled('d', { verdict: 'none', answered: false });
    expect(await journal.unanswered('create_order', request.args, 0)).toBeUndefined();
    expect(await journal.unsettled()).toEqual([]);
  });

  it('a keyed POST older than the replay window is counted at what was reserved, never replayed', async () => {
    let posts = 0;
    const job = keyedPost(
      'TRX',
      async () => ++posts,
      () => 'posted',
      undefined,
      { request: { endpoint: 'createOrder', body: {}, args: '{}' }, sentAt: Date.now() - REPLAY_WINDOW_MS - 1_000 },
    );
    expect((await job.lookup('k', new AbortController().signal)).outcomes).toEqual({ TRX: { state: 'spent' } });
    expect(posts).toBe(0);
    const fresh = keyedPost(
      'TRX',
      async () => ++posts,
      () => 'posted',
      undefined,
      { request: { endpoint: 'createOrder', body: {}, args: '{}' }, sentAt: Date.now() },
    );
    expect((await fresh.lookup('k', new AbortController().signal)).outcomes).toEqual({ TRX: { state: 'spent', atomic: undefined } });
    expect(posts).toBe(1);
  });
});
