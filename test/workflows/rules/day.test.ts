/**
 * A day on the mock's manual clock: an address spends 150 000 energy an hour; an energy_below +
 * ensure rule with a daily limit keeps it topped up. The mock's order log and its usage counters
 * are the judge: the address never runs dry while the budget lasts, no rolling 24 h spends more
 * than the limit, and the journal accounts for every order (ids and costs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryJournal, RuleRunner, actionsOf, parseRules } from '../../../src/workflows/rules/index.js';
import { DAY, HOUR, MINUTE, startWorld, testAddress } from './helpers.js';

let world: Awaited<ReturnType<typeof startWorld>>;
beforeAll(async () => {
  world = await startWorld(33);
});
afterAll(() => world.mock.close());

describe('a day of energy_below + ensure with a daily limit', () => {
  it('keeps the address topped up while the budget lasts, never past the limit, every order journaled', async () => {
    const address = testAddress(1);
    world.activate(address);
    const limitTrx = 120;
    const rules = parseRules(
      JSON.stringify({
        rules: [
          {
            id: 'hot-wallet',
            trigger: { type: 'energy_below', address, energy: 40_000 },
            action: { type: 'ensure', energy: 200_000, duration: '2h' },
            limits: { max_spend_per_day: String(limitTrx), min_interval: '5m' },
          },
        ],
      }),
    );
    const started = world.time.now();
    await world.control('/__mock/chain/usage', { address, energy_per_hour: 150_000, every_sec: 60, for_sec: 26 * 3600 });
    const journal = new MemoryJournal();
    const runner = new RuleRunner({
      client: world.client(),
      rules,
      journal,
      dryRun: false,
      clock: (await import('../../../src/index.js')).virtualClock(world.time),
      tickMs: MINUTE,
      nodeRequestsPerSecond: 5,
    });
    const real = performance.now();
    // Bounded: one tick per minute of mock time, for a day.
    await runner.run({ maxTicks: 24 * 60 });
    expect(world.time.now() - started).toBeGreaterThanOrEqual(DAY);
    const realMs = performance.now() - real;

    // The judge: the service's orders for the address, with their costs.
    const sdk = world.client();
    const listed = (await world.allOrders()).filter((o) => o.target_address === address);
    const orders = await Promise.all(listed.map((o) => sdk.orders.get(o.id)));
    expect(orders.length).toBeGreaterThan(5);
    expect(orders.every((o) => o.status === 'FILLED')).toBe(true);
    const costs = orders.map((o) => ({ at: Date.parse(String(o.created_at)), cost: Number(o.total_cost_sun) }));

    // 1. The limit holds in every rolling 24 h (each order's own window is the worst case).
    for (const o of costs) {
      const inWindow = costs.filter((c) => c.at > o.at - DAY && c.at <= o.at).reduce((s, c) => s + c.cost, 0);
      expect(inWindow).toBeLessThanOrEqual(limitTrx * 1_000_000);
    }
    // 2. The journal accounts for every order: same ids, same costs.
    const actions = actionsOf(await journal.entries(), 'hot-wallet');
    const journaled = actions.flatMap((a) => a.order_ids);
    expect(new Set(journaled)).toEqual(new Set(orders.map((o) => o.id)));
    expect(journaled.length).toBe(orders.length);
    expect(actions.every((a) => a.outcome === 'done')).toBe(true);
    expect(actions.reduce((s, a) => s + a.spent_sun, 0)).toBe(costs.reduce((s, c) => s + c.cost, 0));

    // 3. Never dry while the budget lasted: the first dry minute comes after the limit first said no.
    const usage = await world.control(`/__mock/chain/usage/${address}`);
    const firstLimit = (await journal.entries()).find((e) => e.kind === 'suppressed' && e.reason === 'max_spend_per_day');
    expect(firstLimit, 'the budget ran out during the day (the test exercises the limit)').toBeDefined();
    expect(usage.first_dry_at === null || Number(usage.first_dry_at) >= firstLimit!.ts - 2 * MINUTE).toBe(true);
    // Before the limit bit, the address spent only rented energy.
    expect(Number(usage.energy_from_delegation)).toBeGreaterThan(150_000 * ((firstLimit!.ts - started) / HOUR) * 0.9);
    console.log(
      `day test: ${orders.length} orders, ${costs.reduce((s, c) => s + c.cost, 0) / 1e6} TRX, limit first at +${((firstLimit!.ts - started) / HOUR).toFixed(1)} h, ` +
        `dry steps ${String(usage.dry_steps)}, ${runner.stats.node_reads} node reads, ${Math.round(realMs)} ms real`,
    );
  }, 120_000);
});
