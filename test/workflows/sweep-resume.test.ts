/**
 * The crash points of a sweep that must leave a source to be swept, never ended unswept, on the
 * mock's manual clock (the client on `virtualClock`, so every wait is deterministic): an energy
 * order that ends FAILED (the market moved between the order and its execution; nothing charged)
 * in the run and just before a crash, a crash between the signed activation's journal line and
 * its broadcast, and a kill in the middle of the plan's one large write (a killed process's write
 * can end part-way: the journal holds a prefix of it, its last line torn). A crash is a stop at that
 * exact step (`run.stop()` from the step's event): what the journal holds then is what a SIGKILL
 * there leaves; the torn plan is that journal cut short. The judge is the mock's chain and order log.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent, virtualClock } from '../../src/index.js';
import { type MockServer, createManualClock, startMockServer } from '../../src/mock/index.js';
import type { SweepEvent } from '../../src/workflows/sweep/index.js';
import { account, ordersOf } from './payouts-helpers.js';
import { activationsOf, depositSources, funding, receivedBy, treasury } from './sweep-helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({
    seed: 4141,
    clock: createManualClock(Date.UTC(2026, 11, 7)),
    rateLimits: false,
    market: { offlineRate: 0 },
    timings: { selectMs: 10, fillMs: 20, verifyMs: 30 },
  });
});
afterAll(async () => {
  await mock?.close();
});

const client = (apiKey: string) => new TrxRent({ baseUrl: mock.url, apiKey, tronNode: mock.url, clock: virtualClock(mock.state.clock), maxRetries: 3 });
const providers = () => mock.state.market.snapshot().providers.map((p) => p.def.id);
/** Every provider's delegations fail: an order is accepted, then ends FAILED having charged nothing. */
const failDelegations = (on: boolean) => {
  for (const id of providers()) mock.state.setProviderOverride(id, on ? { fail_delegations: true } : null);
};
const journalOf = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

/** Each eligible source swept once with its balance, one FILLED order each, every other order FAILED at no cost. */
function expectSweptOnce(sources: ReturnType<typeof depositSources>, to: string, accountId: string) {
  const eligible = sources.filter((s) => s.atomic >= 10_000_000n);
  const got = receivedBy(mock, to);
  for (const s of eligible) expect(got.get(s.address), s.address).toEqual({ count: 1, atomic: s.atomic });
  expect(got.size).toBe(eligible.length);
  const orders = ordersOf(mock, accountId);
  for (const s of eligible) expect(orders.filter((o) => o.target_address === s.address && o.status === 'FILLED').length, s.address).toBe(1);
  const failed = orders.filter((o) => o.status === 'FAILED');
  for (const o of failed) expect(Number(o.total_cost_sun ?? 0)).toBe(0);
  return { eligible, failed };
}

describe('sweep crash points', { timeout: 60_000 }, () => {
  it('an order that ends FAILED is followed by a new order under the next key; the source is swept, not ended', async () => {
    const sources = depositSources(mock, 6, 'resume a');
    const fund = funding(mock, 'resume a');
    const to = treasury(mock, 'resume a');
    const acct = account(mock, '100000');
    const events: SweepEvent[] = [];
    failDelegations(true);
    const report = await client(acct.apiKey).transfers.sweep(sources, {
      to,
      min: '10',
      funding: { privateKey: fund.privateKey },
      concurrency: 2,
      onEvent: (e) => {
        events.push(e);
        // The market recovers once the first order has failed.
        if (e.event === 'order' && e.state === 'failed') failDelegations(false);
      },
    });
    const { eligible, failed } = expectSweptOnce(sources, to, acct.accountId);
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(report).toMatchObject({ complete: true, swept: eligible.length, failed: 0, pending: 0 });
    // The source whose order failed was ordered again, under `<key>:<address>:2`.
    const retried = failed[0]!.target_address;
    expect(events.filter((e) => e.event === 'order' && e.address === retried && e.state === 'filled').length).toBe(1);
  });

  it('a crash right after a FAILED order is journaled: the resume orders again and sweeps the source', async () => {
    const sources = depositSources(mock, 6, 'resume b');
    const fund = funding(mock, 'resume b');
    const to = treasury(mock, 'resume b');
    const acct = account(mock, '100000');
    const journal = join(mkdtempSync(join(tmpdir(), 'sweep-resume-')), 'sweep.journal');
    const c = client(acct.apiKey);
    const options = { to, min: '10', funding: { privateKey: fund.privateKey }, journal, concurrency: 1 };
    failDelegations(true);
    let crashed: string | undefined;
    const first = await c.transfers.sweepRun(sources, {
      ...options,
      onEvent: (e) => {
        if (e.event === 'order' && e.state === 'failed' && !crashed) {
          crashed = e.address;
          first.stop();
        }
      },
    });
    const stopped = await first.start();
    failDelegations(false);
    expect(stopped.complete).toBe(false);
    // The crash point: the order's FAILED end is in the journal, the source has no final line.
    const lines = journalOf(journal);
    const mine = lines.filter((l) => l.address === crashed);
    expect(mine.filter((l) => l.type === 'order').at(-1)).toMatchObject({ state: 'failed' });
    expect(mine.some((l) => l.type === 'swept' || l.type === 'failed')).toBe(false);

    const report = await c.transfers.sweep(sources, options);
    expect(report).toMatchObject({ complete: true, failed: 0, pending: 0 });
    expectSweptOnce(sources, to, acct.accountId);
    const orders = journalOf(journal).filter((l) => l.type === 'order' && l.address === crashed);
    expect(orders.map((o) => `${o.attempt ?? 1} ${o.state}`)).toEqual(['1 placing', '1 failed', '2 placing', '2 filled']);
    expect(orders.at(-1).key).toBe(`${report.key}:${crashed}:2`);
  });

  it('a crash between the signed activation and its broadcast: the resume broadcasts those bytes, activating once', async () => {
    const sources = depositSources(mock, 2, 'resume c');
    const unactivated = sources.find((s) => !s.activated)!;
    const fund = funding(mock, 'resume c');
    const to = treasury(mock, 'resume c');
    const acct = account(mock, '100000');
    const journal = join(mkdtempSync(join(tmpdir(), 'sweep-resume-')), 'sweep.journal');
    const c = client(acct.apiKey);
    const options = { to, min: '10', funding: { privateKey: fund.privateKey }, journal, concurrency: 1 };
    let signedTx: string | undefined;
    const first = await c.transfers.sweepRun(sources, {
      ...options,
      onEvent: (e) => {
        if (e.event === 'activation' && e.state === 'signed' && !signedTx) {
          signedTx = e.tx_id;
          first.stop();
        }
      },
    });
    await first.start();
    // The crash point: journaled with its bytes, never broadcast.
    expect(signedTx).toBeDefined();
    expect(mock.state.chain.transactions.get(signedTx!)).toBeUndefined();
    const line = journalOf(journal).find((l) => l.type === 'activation' && l.state === 'signed');
    expect(line).toMatchObject({ address: unactivated.address, tx_id: signedTx });

    const report = await c.transfers.sweep(sources, options);
    expect(report).toMatchObject({ complete: true, failed: 0 });
    expectSweptOnce(sources, to, acct.accountId);
    // The journaled transaction is the one that activated it: no second one was signed.
    expect(activationsOf(mock, fund.address).get(unactivated.address)).toBe(1);
    expect(mock.state.chain.transactions.get(signedTx!)?.trxTransfer?.to).toBe(unactivated.address);
    expect(report.rows.find((r) => r.address === unactivated.address)?.activation_tx_id).toBe(signedTx);
    // It could: its bytes are in the journal line written before the broadcast.
    expect(line.signed.txID.toLowerCase()).toBe(signedTx);
  });

  it("a kill in the middle of the plan's write (a prefix of its lines, the last torn): the resume plans again and sweeps every source", async () => {
    const sources = depositSources(mock, 12, 'resume d');
    const fund = funding(mock, 'resume d');
    const to = treasury(mock, 'resume d');
    const acct = account(mock, '100000');
    const journal = join(mkdtempSync(join(tmpdir(), 'sweep-resume-')), 'sweep.journal');
    const c = client(acct.apiKey);
    const options = { to, min: '10', funding: { privateKey: fund.privateKey }, journal, concurrency: 1 };
    // The plan's write, whole: stopped at the first progress event, before anything is spent.
    const first = await c.transfers.sweepRun(sources, { ...options, onEvent: (e) => e.event === 'progress' && first.stop() });
    await first.start();
    expect(ordersOf(mock, acct.accountId)).toEqual([]);
    const text = readFileSync(journal, 'utf8');
    const group = text.slice(0, text.indexOf('"state":"started"'));
    const lines = group.split('\n');
    // What a kill in the middle of that write leaves: its first half of lines and half a line.
    const half = Math.floor(lines.length / 2);
    const cut = `${lines.slice(0, half).join('\n')}\n${lines[half]!.slice(0, 40)}`;
    writeFileSync(journal, cut);

    const report = await c.transfers.sweep(sources, options);
    const { eligible } = expectSweptOnce(sources, to, acct.accountId);
    expect(report).toMatchObject({ complete: true, swept: eligible.length, failed: 0, pending: 0 });
    expect(report.rows.filter((r) => r.status === 'below_min').length).toBe(sources.length - eligible.length);
  });
});
