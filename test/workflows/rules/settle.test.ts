/**
 * Rules settle before they count: an order whose answer is lost (the mock's chaos `drop`: the
 * service places it, the connection closes unanswered) is an unknown outcome, counted at its
 * reservation; the next tick looks it up by its Idempotency-Key (the journaled request, sent
 * again with the key, returns the order the service placed) and journals its real cost before
 * the limits count it. The judge is the mock's order log: the lost order is counted once, at its
 * cost; the rule acts again within the day, and never past its limit. A runner that dies between
 * placing an order and journaling its answer leaves it to a standby on the same journal, which
 * buys nothing again for that window and settles the order by its key once its fill time passed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { virtualClock } from '../../../src/index.js';
import { memoryStore } from '../../../src/store/memory.js';
import {
  MemoryJournal,
  RuleRunner,
  type RulesClient,
  type RulesJournal,
  actionsOf,
  parseRules,
  storeRulesJournal,
} from '../../../src/workflows/rules/index.js';
import { MINUTE, startWorld, testAddress } from './helpers.js';

let world: Awaited<ReturnType<typeof startWorld>>;
beforeAll(async () => {
  world = await startWorld(91);
});
afterAll(() => world.mock.close());

describe('an unknown outcome', () => {
  it('is settled by its Idempotency-Key before the limits count it: a lost answer is counted once, at its cost', async () => {
    const address = testAddress(91);
    world.activate(address);
    const sdk = world.client();
    const preview = await sdk.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 });
    const cost = Math.ceil(Number(preview.best!.price_sun) * 65_000);
    // Room for two orders and a half: a third never fits.
    const limitSun = 2 * cost + Math.floor(cost / 2);
    const rules = parseRules(
      JSON.stringify({
        rules: [
          {
            id: 'lossy-buy',
            trigger: { type: 'price_below', price_sun: 1_000_000 },
            action: { type: 'buy', address, amount: 65_000, duration: '1h' },
            limits: { max_spend_per_day: (limitSun / 1e6).toFixed(6), min_interval: '20m' },
          },
        ],
      }),
    );
    // The first order's answer is lost after the service placed it.
    world.mock.chaos.setRules([{ route: 'POST /api/v1/orders', kind: 'drop', times: 1 }]);
    const journal = new MemoryJournal();
    const runner = () =>
      new RuleRunner({ client: world.client(), rules, journal, dryRun: false, clock: virtualClock(world.time), tickMs: MINUTE, nodeRequestsPerSecond: 5 });
    await runner().run({ maxTicks: 1 });
    expect(world.mock.chaos.log.filter((h) => h.kind === 'drop')).toHaveLength(1);
    let actions = actionsOf(await journal.entries(), 'lossy-buy');
    // Unknown: counted at its reservation (the whole day's limit, the cap it was given).
    expect(actions.map((a) => [a.outcome, a.spent_sun])).toEqual([['unknown', limitSun]]);
    expect((await world.allOrders()).filter((o) => o.target_address === address)).toHaveLength(1);

    await runner().run({ maxTicks: 3 * 60 });
    const orders = await Promise.all((await world.allOrders()).filter((o) => o.target_address === address).map((o) => sdk.orders.get(o.id)));
    actions = actionsOf(await journal.entries(), 'lossy-buy');
    // Settled by key: the service's order, at its real cost; the rule then acted once more, and no more.
    expect(orders).toHaveLength(2);
    expect(actions.map((a) => a.outcome)).toEqual(['done', 'done']);
    expect(actions.map((a) => a.order_ids[0]).sort()).toEqual(orders.map((o) => o.id).sort());
    for (const a of actions) expect(a.spent_sun).toBe(Number(orders.find((o) => o.id === a.order_ids[0])!.total_cost_sun));
    const settled = (await journal.entries()).find((e) => e.kind === 'done' && e.reason === 'settled by its Idempotency-Key');
    expect(settled?.key).toBe(actions[0]!.key);
    expect(orders.reduce((n, o) => n + Number(o.total_cost_sun), 0)).toBeLessThanOrEqual(limitSun);
    expect((await journal.entries()).some((e) => e.kind === 'suppressed' && e.reason === 'max_spend_per_day')).toBe(true);
  });

  it('left by a runner that died mid-action is taken over by a standby: no second order for the window, settled by key', async () => {
    const address = testAddress(92);
    world.activate(address);
    const rules = parseRules(
      JSON.stringify({
        rules: [
          {
            id: 'takeover',
            trigger: { type: 'price_below', price_sun: 1_000_000 },
            action: { type: 'buy', address, amount: 65_000, duration: '1h' },
            limits: { max_spend_per_day: '100', min_interval: '10m' },
          },
        ],
      }),
    );
    const store = memoryStore();
    // Runner A dies once its order is placed: nothing after that reaches the journal.
    const dead = storeRulesJournal(store);
    let died = false;
    const dying: RulesJournal = {
      name: dead.name,
      index: dead.index,
      sync: () => dead.sync(),
      entries: () => dead.entries(),
      exclusive: (fn, o) => dead.exclusive(fn, o),
      close: () => dead.close(),
      append: async (...entries) => {
        if (died) throw new Error('process killed');
        return dead.append(...entries);
      },
    };
    const base = world.client();
    const client: RulesClient = {
      orders: {
        ...base.orders,
        preview: base.orders.preview.bind(base.orders),
        get: base.orders.get.bind(base.orders),
        list: base.orders.list.bind(base.orders),
        waitFor: base.orders.waitFor.bind(base.orders),
        create: (async (body: never, options: never) => {
          const order = await base.orders.create(body, options);
          died = true;
          return order;
        }) as never,
      },
      chain: base.chain,
    };
    const make = (journal: RulesJournal, c: RulesClient, id: string) =>
      new RuleRunner({ client: c, rules, journal, runnerId: id, dryRun: false, clock: virtualClock(world.time), tickMs: MINUTE, nodeRequestsPerSecond: 5 });
    await make(dying, client, 'A').run({ maxTicks: 1 });
    expect(died).toBe(true);
    const a = actionsOf(await storeRulesJournal(store).entries(), 'takeover');
    expect(a.map((x) => [x.outcome, x.runner, x.orders.length])).toEqual([['unknown', 'A', 1]]);
    // The standby, on the same journal, in the same window and after it.
    const standby = storeRulesJournal(store);
    await make(standby, world.client(), 'B').run({ maxTicks: 15 });
    const orders = (await world.allOrders()).filter((o) => o.target_address === address);
    const actions = actionsOf(await standby.entries(), 'takeover');
    // A's window: one order (A's), settled by B by its key; B's own order only in the next window.
    expect(actions[0]).toMatchObject({ runner: 'A', outcome: 'done', window: a[0]!.window });
    expect(actions[0]!.order_ids).toEqual([orders.sort((x, y) => Date.parse(String(x.created_at)) - Date.parse(String(y.created_at)))[0]!.id]);
    expect((await standby.entries()).find((e) => e.kind === 'done' && e.key === a[0]!.key)).toMatchObject({
      runner: 'B',
      reason: 'settled by its Idempotency-Key',
    });
    expect(new Set(actions.map((x) => x.window)).size).toBe(actions.length);
    expect(orders).toHaveLength(actions.length);
    expect(actions.length).toBe(2);
  });
});
