/**
 * Trigger windows and Idempotency-Keys on the mock's manual clock: a rule edited inside a window
 * (another target) gets its own order there, while the same rule gets one order per window
 * (across ticks, restarts on the journal, and a journal-less runner); a journal line keyed by rule
 * id and window alone still marks its window done; a `min_interval` under a minute is as many
 * windows as it says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { virtualClock } from '../../../src/index.js';
import { MemoryJournal, RuleRunner, idempotencyKey, levelWindow, parseRules } from '../../../src/workflows/rules/index.js';
import { windowOnlyKey } from '../../../src/workflows/rules/triggers.js';
import { MINUTE, startWorld, testAddress } from './helpers.js';

let world: Awaited<ReturnType<typeof startWorld>>;
beforeAll(async () => {
  world = await startWorld(38);
});
afterAll(() => world.mock.close());

const WINDOW = 10 * MINUTE;
/** Move the manual clock to 1 s past the start of the next 10-minute window. */
const toNextWindow = () => world.time.advance(Math.ceil(world.time.now() / WINDOW) * WINDOW - world.time.now() + 1000);

/** A rule that fires on every tick (any price is below 1 TRX per unit) and buys for `address`. */
const buyFor = (address: string, amount = 65_000) =>
  parseRules(
    JSON.stringify({
      rules: [{ id: 'stock', trigger: { type: 'price_below', price_sun: 1_000_000 }, action: { type: 'buy', address, amount, duration: '1h' } }],
    }),
  );

const runner = (rules: ReturnType<typeof parseRules>, journal: MemoryJournal, tickMs = MINUTE) =>
  new RuleRunner({ client: world.client(), rules, journal, dryRun: false, clock: virtualClock(world.time), tickMs, nodeRequestsPerSecond: 5 });

const ordersTo = async (address: string) => (await world.allOrders()).filter((o) => o.target_address === address);

describe('Idempotency-Keys hash what the rule does', () => {
  it('a target changed inside a window gets its order; an unchanged rule still gets one order per window', async () => {
    const [a, b] = [testAddress(380), testAddress(381)];
    world.activate(a, b);
    toNextWindow();
    const journal = new MemoryJournal();
    // Two ticks inside one window: one order for A.
    await runner(buyFor(a), journal).run({ maxTicks: 2 });
    expect(await ordersTo(a)).toHaveLength(1);
    // A runner without the journal (a restart that lost it) in the same window: the key gets the same order back.
    await runner(buyFor(a), new MemoryJournal()).run({ maxTicks: 1 });
    expect(await ordersTo(a)).toHaveLength(1);

    // The rule edited inside the same window (the address was wrong): B is served, on the same journal.
    const edited = buyFor(b);
    const before = levelWindow(edited.rules[0]!, world.time.now());
    const decisions = await runner(edited, journal).tick();
    expect(decisions).toEqual([expect.objectContaining({ rule: 'stock', outcome: 'acted', window: before })]);
    expect(await ordersTo(b)).toHaveLength(1);
    expect(await ordersTo(a)).toHaveLength(1);
    // Its key is not the old form's.
    const keys = (await journal.entries()).filter((e) => e.kind === 'intent').map((e) => e.key);
    expect(new Set(keys).size).toBe(2);
    expect(keys[1]).toBe(idempotencyKey(edited.rules[0]!, before));
    // The edited rule, seen again in the window (by a journal-less runner too), still has one order.
    await runner(edited, journal).run({ maxTicks: 2 });
    await runner(edited, new MemoryJournal()).run({ maxTicks: 1 });
    expect(levelWindow(edited.rules[0]!, world.time.now())).toBe(before);
    expect(await ordersTo(b)).toHaveLength(1);

    // The next window: one more order for B.
    toNextWindow();
    await runner(edited, journal).run({ maxTicks: 2 });
    expect(await ordersTo(b)).toHaveLength(2);
    expect(await ordersTo(a)).toHaveLength(1);
  }, 60_000);

  it('an edited amount is a new key; the same rule parsed from other spellings (1h, 3600) is the same key', () => {
    const window = 'price_below:2026-11-28T10:10Z';
    const a = buyFor(testAddress(382)).rules[0]!;
    expect(idempotencyKey(a, window)).toBe(idempotencyKey(buyFor(testAddress(382)).rules[0]!, window));
    expect(idempotencyKey(a, window)).not.toBe(idempotencyKey(buyFor(testAddress(382), 130_000).rules[0]!, window));
    const spelled = parseRules(
      JSON.stringify({
        rules: [
          {
            id: 'stock',
            trigger: { price_sun: 1_000_000, type: 'price_below', duration: 3600 },
            action: { duration: 3600, amount: 65_000, address: testAddress(382), type: 'buy' },
          },
        ],
      }),
    );
    expect(idempotencyKey(spelled.rules[0]!, window)).toBe(idempotencyKey(a, window));
    expect(idempotencyKey(a, window)).toMatch(/^rule-[0-9a-f]{46}$/);
  });

  it('a journal line keyed by rule id and window alone still marks that window done', async () => {
    const address = testAddress(383);
    world.activate(address);
    toNextWindow();
    const rules = buyFor(address);
    const window = levelWindow(rules.rules[0]!, world.time.now());
    const key = windowOnlyKey('stock', window);
    const journal = new MemoryJournal([
      { ts: world.time.now(), kind: 'intent', rule: 'stock', window, key, reserved_sun: 1 },
      { ts: world.time.now(), kind: 'done', rule: 'stock', window, key, cost_sun: 1, order_ids: ['ord_elsewhere'] },
    ]);
    const decisions = await runner(rules, journal).tick();
    expect(decisions).toEqual([expect.objectContaining({ outcome: 'suppressed', reason: 'window_done' })]);
    expect(await ordersTo(address)).toHaveLength(0);
  });
});

describe('windows as fine as min_interval', () => {
  it('level windows are named to the second when the slot is not whole minutes, to the minute otherwise', () => {
    const at = Date.UTC(2026, 10, 28, 10, 10, 0);
    const rule = (limits: Record<string, unknown>) =>
      parseRules(JSON.stringify({ rules: [{ id: 'r', trigger: { type: 'price_below', price_sun: 50 }, action: { type: 'notify' }, limits }] })).rules[0]!;
    const fine = rule({ min_interval: '20s' });
    expect([0, 20_000, 40_000, 59_999].map((d) => levelWindow(fine, at + d))).toEqual([
      'price_below:2026-11-28T10:10:00Z',
      'price_below:2026-11-28T10:10:20Z',
      'price_below:2026-11-28T10:10:40Z',
      'price_below:2026-11-28T10:10:40Z',
    ]);
    expect(levelWindow(rule({}), at + 5 * MINUTE)).toBe('price_below:2026-11-28T10:10Z');
    expect(levelWindow(rule({ min_interval: '90s' }), at)).toBe('price_below:2026-11-28T10:09:00Z');
  });

  it('a rule with min_interval 20s acts three times a minute on 10 s ticks', async () => {
    const rules = parseRules(
      JSON.stringify({
        rules: [{ id: 'often', trigger: { type: 'price_below', price_sun: 1_000_000 }, action: { type: 'notify' }, limits: { min_interval: '20s' } }],
      }),
    );
    world.time.advance(Math.ceil(world.time.now() / MINUTE) * MINUTE - world.time.now());
    const journal = new MemoryJournal();
    await runner(rules, journal, 10_000).run({ maxTicks: 6 });
    const done = (await journal.entries()).filter((e) => e.kind === 'done');
    expect(done.map((e) => e.window)).toEqual([expect.stringMatching(/:00Z$/), expect.stringMatching(/:20Z$/), expect.stringMatching(/:40Z$/)]);
  });
});
