/**
 * A crash of the runner between any two steps, in-process: the journal stops being writable after
 * its k-th entry (what a crash leaves: everything before is durable, no step after a failed write
 * is taken), then a new run resumes from what was written. For every k from the first entry to
 * the last of a full run, every row is paid exactly once (the mock's chain is the judge).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { MemoryJournal as StoreJournal } from '../../src/store/memory.js';
import type { JournalRecord } from '../../src/store/types.js';
import { MemoryJournal, PayoutLedger, type PayoutJournalEntry } from '../../src/workflows/payouts/index.js';
import { account, ordersOf, paid, payouts, sender } from './payouts-helpers.js';

/** A journal whose writes fail from the (k+1)-th record on, as if the process died there (what was written before stays). */
class CrashingJournal extends StoreJournal {
  #left: number;
  constructor(k: number) {
    super('crash');
    this.#left = k;
  }
  override async append(records: readonly JournalRecord[]): Promise<void> {
    for (const r of records) {
      if (this.#left-- <= 0) throw Object.assign(new Error('crash (simulated)'), { code: 'CRASH' });
      await super.append([r]);
    }
  }
}
const crashAfter = (k: number) => new PayoutLedger(new CrashingJournal(k));

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 3234, rateLimits: false, timings: { selectMs: 5, fillMs: 10, verifyMs: 15 } });
});
afterAll(async () => {
  await mock.close();
});

describe('a crash between any two steps', { timeout: 90_000 }, () => {
  it('resumes from the journal and pays every row exactly once, whichever step it died after', async () => {
    const acct = account(mock, '1000000');
    const client = new TrxRent({ baseUrl: mock.url, apiKey: acct.apiKey, tronNode: mock.url, maxRetries: 2 });
    // A full run's length, to know the crash points.
    const ref = sender(mock, 100);
    const full = new MemoryJournal();
    await client.transfers.sendMany(payouts(mock, 3, 'crash-ref'), { signer: { privateKey: ref.privateKey }, journal: full, concurrency: 2 });
    const steps = full.entries().length;
    expect(steps).toBeGreaterThan(10);
    for (let k = 1; k < steps; k++) {
      const s = sender(mock, 100 + k);
      const rows = payouts(mock, 3, `crash-${k}`);
      const options = { signer: { privateKey: s.privateKey }, concurrency: 2 };
      const crashed = crashAfter(k);
      const outcome = await client.transfers.sendMany(rows, { ...options, journal: crashed }).then(
        () => 'finished',
        (e: { code?: string }) => e.code,
      );
      expect(outcome, `k=${k}`).toBe('CRASH');
      const resumed = await client.transfers.sendMany(rows, { ...options, journal: new MemoryJournal(crashed.entries()) });
      expect(resumed.complete, `k=${k}`).toBe(true);
      const chain = paid(mock, s.address);
      for (const r of rows) expect(chain.get(r.to)?.count, `k=${k} row ${r.id}`).toBe(1);
    }
  });
});

const isOrder = (e: PayoutJournalEntry): e is Extract<PayoutJournalEntry, { type: 'order' }> => e.type === 'order';

/** A journal that dies at the first write after a top-up's order filled on the service (its cost not written down yet). */
class DiesAfterTopUp extends StoreJournal {
  constructor() {
    super('topup-crash');
  }
  override async append(records: readonly JournalRecord[]): Promise<void> {
    for (const r of records) {
      if (r.type === 'order' && r.state === 'filled' && String(r.key).includes(':topup:'))
        throw Object.assign(new Error('crash (simulated)'), { code: 'CRASH' });
      await super.append([r]);
    }
  }
}

describe('a crash between a top-up order and its journaled fill', { timeout: 90_000 }, () => {
  it('the resume sends the journaled request again with its key: one order, its cost counted, every row paid once', async () => {
    const acct = account(mock, '1000000');
    const client = new TrxRent({ baseUrl: mock.url, apiKey: acct.apiKey, tronNode: mock.url, maxRetries: 2 });
    const s = sender(mock, 77);
    const rows = payouts(mock, 6, 'topup-crash');
    // Force a top-up as a provider reclaiming a delegation would: once the first row has landed,
    // 70 % of the batch's energy is taken back, so the rows after it find their energy short.
    let taken = 0;
    const reclaim = setInterval(() => {
      if (taken || paid(mock, s.address).size === 0) return;
      const filled = ordersOf(mock, acct.accountId).find((o) => o.resource_type === 'ENERGY' && o.target_address === s.address && o.status === 'FILLED');
      if (!filled) return;
      taken = Math.floor(Number(filled.amount) * 0.7);
      mock.state.chain.undelegateResource(s.address, 'ENERGY', taken);
    }, 2);
    try {
      const options = { signer: { privateKey: s.privateKey }, concurrency: 1, maxCostSun: 500_000_000 };
      const dying = new PayoutLedger(new DiesAfterTopUp());
      const outcome = await client.transfers.sendMany(rows, { ...options, journal: dying }).then(
        () => 'finished',
        (e: { code?: string }) => e.code,
      );
      expect(outcome).toBe('CRASH');
      expect(taken).toBeGreaterThan(0);
      const placing = dying
        .entries()
        .filter(isOrder)
        .filter((e) => e.key.includes(':topup:'));
      expect(placing).toEqual([expect.objectContaining({ state: 'placing', max_price_sun: expect.any(Number) })]);
      const before = ordersOf(mock, acct.accountId).filter((o) => o.target_address === s.address);
      const resumedJournal = new MemoryJournal(dying.entries());
      const resumed = await client.transfers.sendMany(rows, { ...options, journal: resumedJournal });
      expect(resumed.complete).toBe(true);
      for (const r of rows) expect(paid(mock, s.address).get(r.to)?.count, r.id).toBe(1);
      // The service's order log is the judge: the top-up the crash left is the same order after
      // the resume (its key answered it again), not a second one for the same need.
      const entries = resumedJournal.entries().filter(isOrder);
      const topUp = entries.filter((e) => e.key === placing[0]!.key && e.state === 'filled');
      expect(topUp).toHaveLength(1);
      expect(before.map((o) => o.id)).toContain(topUp[0]!.order_id);
      const after = ordersOf(mock, acct.accountId).filter((o) => o.target_address === s.address);
      // What the journal counts as spent is what the service charged, every order included.
      const charged = after.filter((o) => o.status === 'FILLED').reduce((n, o) => n + Number(o.total_cost_sun), 0);
      const filled = new Map(entries.filter((e) => e.state === 'filled').map((e) => [e.key, Number(e.cost_sun)]));
      expect([...filled.values()].reduce((n, c) => n + c, 0)).toBe(charged);
    } finally {
      clearInterval(reclaim);
    }
  });
});
