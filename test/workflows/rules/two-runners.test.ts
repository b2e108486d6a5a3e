/**
 * Two runners on the same rules, each restarted without its journal at random points, and some
 * of their actions "crashing" after the order was placed (the answer lost): the service's order
 * log and its Idempotency-Keys are the judge. No trigger window of a rule gets two orders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError, virtualClock } from '../../../src/index.js';
import { MemoryJournal, RuleRunner, type RulesClient, idempotencyKey, levelWindow, parseRules } from '../../../src/workflows/rules/index.js';
import { HOUR, MINUTE, startWorld, testAddress } from './helpers.js';

let world: Awaited<ReturnType<typeof startWorld>>;
beforeAll(async () => {
  world = await startWorld(34);
});
afterAll(() => world.mock.close());

/** A seeded generator, so a failure replays. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

describe('two runners, journal-less restarts', () => {
  it('never places two orders for one trigger window', async () => {
    const addresses = [testAddress(11), testAddress(12), testAddress(13)];
    world.activate(...addresses);
    const rules = parseRules(
      JSON.stringify({
        rules: addresses.map((address, i) => ({
          id: `wallet-${i}`,
          trigger: { type: 'energy_below', address, energy: 50_000 },
          action: { type: 'ensure', energy: 150_000, duration: '2h' },
          limits: { min_interval: '10m' },
        })),
      }),
    );
    for (const address of addresses) await world.control('/__mock/chain/usage', { address, energy_per_hour: 200_000, every_sec: 60 });
    const random = rng(7);
    let crashes = 0;
    let restarts = 0;
    const base = world.client();
    // A client whose ensure sometimes loses its answer after the order was placed (a crash mid-step).
    const flaky: RulesClient = {
      orders: base.orders,
      chain: {
        read: (a, o) => base.resources.read(a, o),
        plan: (p) => base.resources.plan(p),
        ensure: async (p) => {
          const result = await base.resources.ensure(p);
          if (random() < 0.3) {
            crashes++;
            throw new ConnectionError('answer lost (simulated crash)');
          }
          return result;
        },
      },
    };
    const started = world.time.now();
    const lane = async () => {
      for (let n = 0; n < 100 && world.time.now() - started < 8 * HOUR; n++) {
        restarts++;
        // A fresh runner with an empty journal each time: nothing remembered but the keys on the service.
        const runner = new RuleRunner({
          client: flaky,
          rules,
          journal: new MemoryJournal(),
          dryRun: false,
          clock: virtualClock(world.time),
          tickMs: MINUTE,
          nodeRequestsPerSecond: 5,
        });
        await runner.run({ maxTicks: 1 + Math.floor(random() * 40) });
      }
    };
    await Promise.all([lane(), lane()]);

    // The judge: every order on the service, and the key each one was created with.
    const keyOf = new Map<string, string>();
    for (const [id, entry] of world.mock.state.idempotency.dump()) {
      const body = entry.response && (JSON.parse(entry.response.body) as { id?: string });
      if (body?.id) keyOf.set(body.id, id.split('\u0000')[1]!);
    }
    const orders = (await world.allOrders()).filter((o) => addresses.includes(o.target_address));
    expect(orders.length).toBeGreaterThan(6);
    expect(crashes).toBeGreaterThan(0);
    const windows = new Set<string>();
    for (const order of orders) {
      const key = keyOf.get(order.id);
      expect(key, `order ${order.id} was created with a rule's key`).toBeDefined();
      const rule = rules.rules[addresses.indexOf(order.target_address)]!;
      // The window the key names: the slot the order was created in, or the one before.
      const at = Date.parse(String(order.created_at));
      const window = [at, at - 10 * MINUTE].map((t) => levelWindow(rule, t)).find((w) => idempotencyKey(rule, w) === key);
      expect(window, `order ${order.id}'s key names a window of its rule`).toBeDefined();
      const id = `${rule.id} ${window}`;
      expect(windows.has(id), `two orders for ${id}`).toBe(false);
      windows.add(id);
    }
    console.log(`two runners: ${orders.length} orders in ${windows.size} windows, ${restarts} restarts, ${crashes} crashes after ordering`);
  }, 120_000);
});
