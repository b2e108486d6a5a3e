/**
 * `client.transfers.sweep` on the in-process mock: deposit addresses of all sizes, some never
 * activated and some below the minimum, swept into a treasury with one energy order per source;
 * the judge is the mock's chain (each balance received once, each unactivated source activated
 * once) and its order log; the same call again on the finished journal spends nothing. Stops and
 * resumes at each crash point: sweep-resume.test.ts; signers: sweep-signers.test.ts; SIGKILLs:
 * sweep-chaos.test.ts.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { account, ordersOf } from './payouts-helpers.js';
import { activationsOf, depositSources, funding, receivedBy, treasury } from './sweep-helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 41, rateLimits: false, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
});
afterAll(async () => {
  await mock.close();
});

const client = (apiKey: string) => new TrxRent({ baseUrl: mock.url, apiKey, tronNode: mock.url, maxRetries: 2 });

describe('client.transfers.sweep', { timeout: 90_000 }, () => {
  it('plans without spending, then sweeps each source holding at least min exactly once', async () => {
    const sources = depositSources(mock, 30, 'a');
    const fund = funding(mock, 'a');
    const to = treasury(mock, 'a');
    const acct = account(mock, '100000');
    const c = client(acct.apiKey);
    const plan = await c.transfers.sweepPlan(sources, { to, min: '10', funding: { privateKey: fund.privateKey } });
    const eligible = sources.filter((s) => s.atomic >= 10_000_000n);
    expect(plan.to_sweep).toBe(eligible.length);
    expect(plan.below_min).toBe(sources.length - eligible.length);
    expect(plan.to_activate).toBe(eligible.filter((s) => !s.activated).length);
    expect(plan.orders).toBe(eligible.length);
    expect(plan.total_atomic).toBe(eligible.reduce((s, e) => s + e.atomic, 0n).toString());
    expect(plan.burn_cost_sun).toBeGreaterThan(plan.total_cost_sun);
    expect(plan.order_note).toMatch(/one energy order per source/);
    expect(ordersOf(mock, acct.accountId)).toEqual([]);
    expect(receivedBy(mock, to).size).toBe(0);

    const journal = join(mkdtempSync(join(tmpdir(), 'sweep-')), 'sweep.journal');
    const events: string[] = [];
    const report = await c.transfers.sweep(sources, { to, min: '10', funding: { privateKey: fund.privateKey }, journal, onEvent: (e) => events.push(e.event) });
    expect(report.complete).toBe(true);
    expect(report.swept).toBe(eligible.length);
    const got = receivedBy(mock, to);
    for (const s of eligible) expect(got.get(s.address), s.address).toEqual({ count: 1, atomic: s.atomic });
    for (const s of sources.filter((x) => x.atomic < 10_000_000n)) expect(got.has(s.address)).toBe(false);
    const acts = activationsOf(mock, fund.address);
    for (const s of eligible.filter((x) => !x.activated)) expect(acts.get(s.address), s.address).toBe(1);
    expect(acts.size).toBe(eligible.filter((x) => !x.activated).length);
    expect(ordersOf(mock, acct.accountId).length).toBe(eligible.length);
    // The sweeps burnt no TRX for energy: the rental covered each.
    const burnt = [...mock.state.chain.transactions.values()].filter((t) => t.transfer?.to === to && (t.energyFeeSun ?? 0) > 0);
    expect(burnt).toEqual([]);
    // The journal agrees with the chain.
    const lines = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const swept = lines.filter((l) => l.type === 'swept');
    expect(swept.length).toBe(eligible.length);
    for (const l of swept) expect(mock.state.chain.transactions.get(l.tx_id)?.transfer?.to).toBe(to);
    expect(report.rows.filter((r) => r.status === 'swept').every((r) => r.tx_id && r.cost_sun > 0)).toBe(true);
    expect(events).toContain('planned');

    // The same call again: the journal says everything is done; nothing is spent twice.
    const again = await c.transfers.sweep(sources, { to, min: '10', funding: { privateKey: fund.privateKey }, journal });
    expect(again.swept).toBe(eligible.length);
    expect(ordersOf(mock, acct.accountId).length).toBe(eligible.length);
    expect([...receivedBy(mock, to).values()].every((e) => e.count === 1)).toBe(true);
  });

  it('refuses unactivated sources without a funding wallet, before anything is spent', async () => {
    const sources = depositSources(mock, 6, 'b');
    const to = treasury(mock, 'b');
    const acct = account(mock, '100000');
    await expect(client(acct.apiKey).transfers.sweep(sources, { to, min: '1' })).rejects.toMatchObject({ code: 'TARGET_NOT_ACTIVATED' });
    expect(ordersOf(mock, acct.accountId)).toEqual([]);
  });

  it('holds the run to the confirmed cost: a cap below the plan spends nothing', async () => {
    const sources = depositSources(mock, 6, 'c');
    const fund = funding(mock, 'c');
    const to = treasury(mock, 'c');
    const acct = account(mock, '100000');
    await expect(
      client(acct.apiKey).transfers.sweep(sources, { to, min: '1', funding: { privateKey: fund.privateKey }, maxCostSun: 1_000 }),
    ).rejects.toMatchObject({ code: 'SPENDING_CAP_EXCEEDED' });
    expect(ordersOf(mock, acct.accountId)).toEqual([]);
    expect(activationsOf(mock, fund.address).size).toBe(0);
  });
});
