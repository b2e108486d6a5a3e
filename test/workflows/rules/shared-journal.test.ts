/**
 * Two runners on one journal file share a rule's limits. A day on the mock's manual clock with
 * an address spending energy: runner A alone, then A and B together, then B alone after A
 * stopped (a failover). The service's order log is the judge: no rolling 24 h spends more than
 * the daily limit. The control run is the same day with B on a journal of its own: B does not
 * know what A spent, and the limit is exceeded, which is what sharing the file prevents.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { virtualClock } from '../../../src/index.js';
import { FileJournal, type Journal, MemoryJournal, RuleRunner, parseRules } from '../../../src/workflows/rules/index.js';
import { DAY, MINUTE, startWorld, testAddress } from './helpers.js';

const LIMIT_TRX = 120;

async function failoverDay(seed: number, journals: (address: string) => { a: Journal; b: Journal }) {
  const world = await startWorld(seed);
  try {
    const address = testAddress(40 + seed);
    world.activate(address);
    const rules = parseRules(
      JSON.stringify({
        rules: [
          {
            id: 'hot',
            trigger: { type: 'energy_below', address, energy: 40_000 },
            action: { type: 'ensure', energy: 200_000, duration: '2h' },
            limits: { max_spend_per_day: String(LIMIT_TRX), min_interval: '5m' },
          },
        ],
      }),
    );
    await world.control('/__mock/chain/usage', { address, energy_per_hour: 150_000, every_sec: 60, for_sec: 26 * 3600 });
    const { a: ja, b: jb } = journals(address);
    const runner = (journal: Journal, runnerId: string) =>
      new RuleRunner({
        client: world.client(),
        rules,
        journal,
        runnerId,
        dryRun: false,
        clock: virtualClock(world.time),
        tickMs: MINUTE,
        nodeRequestsPerSecond: 5,
      });
    const started = world.time.now();
    // A alone for 8 h; A and B together (each tick of either moves the shared clock) for about
    // 8 h; B alone, after A stopped, for the rest of the day.
    await runner(ja, 'A').run({ maxTicks: 8 * 60 });
    const a = runner(ja, 'A');
    const b = runner(jb, 'B');
    await Promise.all([a.run({ maxTicks: 4 * 60 }), b.run({ maxTicks: 4 * 60 })]);
    await runner(jb, 'B').run({ maxTicks: Math.ceil((started + DAY - world.time.now()) / MINUTE) + 1 });
    expect(world.time.now() - started).toBeGreaterThanOrEqual(DAY);
    const sdk = world.client();
    const listed = (await world.allOrders()).filter((o) => o.target_address === address);
    const orders = await Promise.all(listed.map((o) => sdk.orders.get(o.id)));
    const costs = orders.map((o) => ({ at: Date.parse(String(o.created_at)), cost: Number(o.total_cost_sun) }));
    const worst = Math.max(...costs.map((o) => costs.filter((c) => c.at > o.at - DAY && c.at <= o.at).reduce((s, c) => s + c.cost, 0)));
    return { worst, orders: orders.length, started, entries: [...(await ja.entries()), ...(jb === ja ? [] : await jb.entries())] };
  } finally {
    await world.mock.close();
  }
}

describe('two runners on one journal file', () => {
  it("count each other's spend: the daily limit holds across A, A+B and B after a failover", async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'rules-shared-')), 'rules.journal.jsonl');
    // Two FileJournal instances on one file, as two processes would have.
    const shared = await failoverDay(71, () => ({ a: new FileJournal(path), b: new FileJournal(path) }));
    expect(shared.worst).toBeLessThanOrEqual(LIMIT_TRX * 1_000_000);
    const byRunner = new Set(shared.entries.filter((e) => e.kind === 'done').map((e) => e.runner));
    expect(byRunner, 'both runners bought').toEqual(new Set(['A', 'B']));
    // B saw A's spend: the limit said no to B too.
    expect(shared.entries.some((e) => e.runner === 'B' && e.kind === 'suppressed' && e.reason === 'max_spend_per_day')).toBe(true);
    // One action per key in the file however many runners wrote an intent for it.
    const file = await new FileJournal(path).entries();
    const doneKeys = file.filter((e) => e.kind === 'done').map((e) => e.key);
    expect(new Set(doneKeys).size).toBe(shared.orders);

    // The control: B with a journal of its own spends past the limit after A stopped.
    const apart = await failoverDay(71, () => ({ a: new MemoryJournal(), b: new MemoryJournal() }));
    expect(apart.worst, 'separate journals let the pair overspend (the test can fail)').toBeGreaterThan(LIMIT_TRX * 1_000_000);
    console.log(
      `shared journal: ${shared.orders} orders, worst 24 h ${shared.worst / 1e6} TRX; apart: ${apart.orders} orders, worst 24 h ${apart.worst / 1e6} TRX (limit ${LIMIT_TRX})`,
    );
  }, 180_000);
});
