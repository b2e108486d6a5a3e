/**
 * The MCP server's spends outlive its process: a chain spend (ensure_resources' job, through the
 * session's guard) whose order answer is lost (the mock's chaos `drop`: placed, unanswered) is
 * an unknown outcome held against the caps; the spend and its order request (key and body,
 * written before the request left) are in the spend journal of the server's state folder. A new
 * server process on that folder holds it again before anything else and looks it up by the
 * same key and body: found, counted at the order's real cost, settled in the journal, so a third
 * process finds nothing open. The mock's order log is the judge: one order.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/client.js';
import { Effects } from '../../src/mcp/effects.js';
import { chainJob } from '../../src/mcp/lookups.js';
import { Session } from '../../src/mcp/session.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { addressMaker } from '../helpers/wallets.js';

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
