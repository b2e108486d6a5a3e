/**
 * Thousands of payouts at speed on the mock's manual clock (the SDK on `virtualClock` over it),
 * under the mock's own fault injection (`mock.chaos`, aimed at routes): broadcast answers lost
 * after the transaction was accepted, 5xx, connections reset before the request arrives, and
 * requests held past the client's timeout (done after it gave up). The judge is the mock's chain
 * (every USDT transfer from the sender) and its order log, never the SDK's report.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent, virtualClock } from '../../src/index.js';
import { type MockServer, createManualClock, startMockServer } from '../../src/mock/index.js';
import { MemoryJournal } from '../../src/workflows/payouts/journal.js';
import { account, ordersOf, paid, payouts, sender } from './payouts-helpers.js';

const ROWS = 2_000;
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 2000, clock: createManualClock(Date.UTC(2026, 10, 28)), rateLimits: false });
});
afterAll(async () => {
  await mock.close();
});

describe('payouts at scale on the mock clock', { timeout: 300_000 }, () => {
  it(`pays ${ROWS} rows exactly once through lost answers, 5xx, resets and timeouts, in a handful of orders`, async () => {
    const s = sender(mock, 21, 100_000_000n);
    const rows = payouts(mock, ROWS, 'scale');
    const acct = account(mock, '10000000');
    const client = new TrxRent({
      baseUrl: mock.url,
      apiKey: acct.apiKey,
      tronNode: mock.url,
      clock: virtualClock(mock.state.clock),
      timeoutMs: 4_000,
      maxRetries: 3,
    });
    mock.chaos.setRules([
      { route: 'POST /api/v1/broadcast', kind: 'drop', probability: 0.03 },
      { route: 'POST /api/v1/broadcast', kind: 'reset', probability: 0.02 },
      { route: 'POST /api/v1/broadcast', kind: 500, probability: 0.02 },
      { route: 'POST /api/v1/broadcast', kind: 'slow', holdMs: 5_000, times: 4 }, // past the client's timeout: done after it gave up
      { route: 'POST /wallet/gettransactioninfobyid', kind: 503, probability: 0.02 },
      { route: 'POST /wallet/getaccountresource', kind: 'drop', times: 2 },
    ]);
    const journal = new MemoryJournal();
    const started = Date.now();
    const mockStart = mock.state.now();
    const report = await client.transfers.sendMany(rows, { signer: { privateKey: s.privateKey }, journal, concurrency: 16, expirationMs: 300_000 });
    const ms = Date.now() - started;
    mock.chaos.setRules([]);
    const faults = mock.chaos.log.reduce<Record<string, number>>((n, h) => ({ ...n, [`${h.kind}`]: (n[`${h.kind}`] ?? 0) + 1 }), {});
    // Every kind of fault met the batch, the timeouts included.
    expect(Object.keys(faults).sort()).toEqual(['500', '503', 'drop', 'reset', 'slow']);
    // The chain: every row paid exactly once, the right amount; nothing lost.
    const chain = paid(mock, s.address);
    const wrong = rows.filter((r) => chain.get(r.to)?.count !== 1);
    expect(wrong.map((r) => r.id)).toEqual([]);
    expect(report.confirmed).toBe(ROWS);
    // The journal agrees: one signed record per row, each confirmed.
    const entries = journal.entries();
    expect(new Set(entries.filter((e) => e.type === 'confirmed').map((e) => (e.type === 'confirmed' ? e.id : ''))).size).toBe(ROWS);
    // One rental for the batch: a handful of energy orders, never per row (~200M energy is more
    // than any provider has at once, so it is shared out largest first, plus top-ups).
    const orders = ordersOf(mock, acct.accountId);
    expect(orders.filter((o) => o.resource_type === 'ENERGY').length).toBeLessThanOrEqual(ROWS / 100);
    // The rows' energy came from the rental: the chain burnt no TRX for any row's energy.
    const sent = [...mock.state.chain.transactions.values()].filter((t) => t.transfer?.from === s.address);
    expect(sent.filter((t) => (t.energyFeeSun ?? 0) > 0).map((t) => `${t.txid} burnt ${t.energyFeeSun}`)).toEqual([]);
    console.log(
      `${ROWS} rows on the mock clock: ${ms} ms wall, ${((mock.state.now() - mockStart) / 1000).toFixed(0)} s of mock time, ${orders.length} orders, faults ${JSON.stringify(faults)}`,
    );
  });
});
