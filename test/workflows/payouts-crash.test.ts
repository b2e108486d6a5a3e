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
import { MemoryJournal, PayoutLedger } from '../../src/workflows/payouts/index.js';
import { account, paid, payouts, sender } from './payouts-helpers.js';

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
