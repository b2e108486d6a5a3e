/**
 * `RuleRunner.plan()` on the mock: every rule gets a decision, and a quiet one says why (the
 * energy, bandwidth or price it saw against its level, when the schedule fires next, that no
 * rental is ending); an ensure with nothing missing says what the address has. And `dryRun` is
 * a required choice, in the types and at run time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { virtualClock } from '../../../src/index.js';
import { MemoryJournal, RuleRunner, type RuleRunnerOptions, parseRules } from '../../../src/workflows/rules/index.js';
import { MINUTE, startWorld, testAddress } from './helpers.js';

let world: Awaited<ReturnType<typeof startWorld>>;
beforeAll(async () => {
  world = await startWorld(39);
});
afterAll(() => world.mock.close());

describe('a plan says why a rule is quiet', () => {
  it('energy against its level, the price against its level, the next cron minute, no rental ending; ensure with enough', async () => {
    const [rich, poor] = [testAddress(390), testAddress(391)];
    world.activate(rich, poor);
    const sdk = world.client();
    const rented = await sdk.orders.waitFor(
      (await sdk.orders.create({ resource_type: 'ENERGY', amount: 80_000, duration_sec: 3600, target_address: rich })).id,
      { timeoutMs: 5 * MINUTE },
    );
    const energy = (await sdk.resources.read(rich)).energy;
    expect(energy).toBeGreaterThanOrEqual(65_000);
    const rules = parseRules(
      JSON.stringify({
        rules: [
          { id: 'hot', trigger: { type: 'energy_below', address: rich, energy: 65_000 }, action: { type: 'ensure', energy: 100_000 } },
          { id: 'bw', trigger: { type: 'bandwidth_below', address: rich, bandwidth: 1 }, action: { type: 'notify' } },
          { id: 'cheap', trigger: { type: 'price_below', price_sun: 1 }, action: { type: 'buy', address: poor, amount: 65_000 } },
          { id: 'nightly', trigger: { type: 'schedule', cron: '0 3 * * *' }, action: { type: 'notify' } },
          { id: 'renew', trigger: { type: 'delegation_expiring', address: poor, minutes_before: 10 }, action: { type: 'buy', amount: 65_000 } },
          // Fires (energy below 200,000) but ensure finds the address has what it wants.
          { id: 'enough', trigger: { type: 'energy_below', address: rich, energy: 200_000 }, action: { type: 'ensure', energy: 32_000 } },
        ],
      }),
    );
    const runner = new RuleRunner({
      client: sdk,
      rules,
      journal: new MemoryJournal(),
      dryRun: true,
      clock: virtualClock(world.time),
      nodeRequestsPerSecond: 5,
    });
    const decisions = await runner.plan();
    const of = (id: string) => decisions.filter((d) => d.rule === id);
    const grouped = energy.toLocaleString('en-US');
    expect(of('hot')).toEqual([
      expect.objectContaining({ outcome: 'nothing', reason: `energy ${grouped} ≥ level 65,000: nothing to do`, detail: { energy, level: 65_000 } }),
    ]);
    expect(of('bw')).toEqual([expect.objectContaining({ outcome: 'nothing', reason: expect.stringMatching(/^bandwidth [\d,]+ ≥ level 1: nothing to do$/) })]);
    expect(of('cheap')).toEqual([
      expect.objectContaining({ outcome: 'nothing', reason: expect.stringMatching(/^price [\d,.]+ SUN ≥ level 1 SUN: nothing to do$/) }),
    ]);
    const next = of('nightly')[0]!;
    expect(next).toMatchObject({
      outcome: 'nothing',
      reason: expect.stringMatching(/^schedule "0 3 \* \* \*" \(UTC\) not due: next at \d{4}-\d\d-\d\dT03:00Z$/),
    });
    expect(Date.parse(String(next.detail!.next_at))).toBeGreaterThan(world.time.now());
    expect(of('renew')).toEqual([expect.objectContaining({ outcome: 'nothing', reason: `no energy rental to ${poor} ends within 10 min: nothing to do` })]);
    expect(of('enough')).toEqual([expect.objectContaining({ outcome: 'nothing', summary: `${rich} has energy ${grouped} ≥ 32,000 wanted: nothing to buy` })]);
    // A run's ticks report only what fired: no decision for the quiet ones.
    const ticked = await new RuleRunner({
      client: sdk,
      rules,
      journal: new MemoryJournal(),
      dryRun: true,
      clock: virtualClock(world.time),
      nodeRequestsPerSecond: 5,
    }).tick();
    expect(ticked.filter((d) => ['hot', 'bw', 'cheap', 'nightly', 'renew'].includes(d.rule))).toEqual([]);
    expect(rented.status).toBe('FILLED');
  }, 60_000);
});

describe('dryRun is an explicit choice', () => {
  it('is required by the types and refused when missing at run time', () => {
    const rules = parseRules(JSON.stringify({ rules: [{ id: 'n', trigger: { type: 'schedule', cron: '0 3 * * *' }, action: { type: 'notify' } }] }));
    // @ts-expect-error dryRun is required: false spends, true decides only
    const options: RuleRunnerOptions = { client: world.client(), rules };
    expect(() => new RuleRunner(options)).toThrow(/dryRun is required/);
    expect(new RuleRunner({ ...options, dryRun: true }).dryRun).toBe(true);
    expect(new RuleRunner({ ...options, dryRun: false }).dryRun).toBe(false);
  });
});
