/**
 * A rule's rental to an address TRON cannot delegate to (never activated, a contract) is refused
 * before anything is ordered, for both actions: `buy` through `client.chain.checkTarget`, `ensure`
 * through `chain.plan`; the decision is an error naming the code, and the service's order list
 * (the judge) has no order for it. Once the address is activated, the same rule acts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { virtualClock } from '../../../src/index.js';
import { MemoryJournal, RuleRunner, parseRules } from '../../../src/workflows/rules/index.js';
import { MINUTE, startWorld, testAddress } from './helpers.js';

let world: Awaited<ReturnType<typeof startWorld>>;
beforeAll(async () => {
  world = await startWorld(38);
});
afterAll(() => world.mock.close());

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const runner = (rules: unknown, journal = new MemoryJournal()) =>
  new RuleRunner({
    client: world.client(),
    rules: parseRules(JSON.stringify(rules)),
    clock: virtualClock(world.time),
    tickMs: MINUTE,
    nodeRequestsPerSecond: 5,
    journal,
    dryRun: false,
  });

describe('rules and a rental target TRON refuses', () => {
  it('buy and ensure to a never-activated address: decisions are TARGET_NOT_ACTIVATED errors, no order; activated, the buy acts', async () => {
    const address = testAddress(90);
    const rules = {
      rules: [
        { id: 'buy-ghost', trigger: { type: 'price_below', price_sun: 100_000 }, action: { type: 'buy', address, amount: 65_000, duration: '1h' } },
        { id: 'ensure-ghost', trigger: { type: 'schedule', cron: '* * * * *' }, action: { type: 'ensure', address, energy: 65_000, duration: '1h' } },
      ],
    };
    const decisions = await runner(rules).tick();
    const byRule = Object.fromEntries(decisions.map((d) => [d.rule, d]));
    expect(byRule['buy-ghost']).toMatchObject({ outcome: 'error' });
    expect(byRule['buy-ghost']!.reason).toMatch(/not activated on chain/);
    expect(byRule['ensure-ghost']).toMatchObject({ outcome: 'error' });
    expect(byRule['ensure-ghost']!.reason).toMatch(/not activated on chain/);
    expect((await world.allOrders()).filter((o) => o.target_address === address)).toEqual([]);
    world.activate(address);
    await world.time.advance(2 * MINUTE);
    const acted = (await runner(rules).tick()).find((d) => d.rule === 'buy-ghost');
    expect(acted).toMatchObject({ outcome: 'acted' });
    expect((await world.allOrders()).filter((o) => o.target_address === address)).toHaveLength(1);
  });

  it('a buy to a contract (the USDT token): TARGET_IS_CONTRACT, no order', async () => {
    const before = (await world.allOrders()).filter((o) => o.target_address === USDT).length;
    const [decision] = await runner({
      rules: [
        { id: 'buy-token', trigger: { type: 'price_below', price_sun: 100_000 }, action: { type: 'buy', address: USDT, amount: 65_000, duration: '1h' } },
      ],
    }).tick();
    expect(decision).toMatchObject({ rule: 'buy-token', outcome: 'error' });
    expect(decision!.reason).toMatch(/is a contract/);
    expect((await world.allOrders()).filter((o) => o.target_address === USDT)).toHaveLength(before);
  });
});
