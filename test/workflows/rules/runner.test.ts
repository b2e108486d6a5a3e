/**
 * The runner's triggers, limits and notifications on the mock's manual clock: schedule + notify
 * (webhook signed like the service's, checked with our verifier; NDJSON lines), price_below + buy
 * under max_runs_per_day, delegation_expiring renews once per rental, an action whose outcome is
 * unknown counts as spent, and stop() lets the step in flight finish.
 */
import { createServer } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionError, virtualClock } from '../../../src/index.js';
import { constructWebhookEvent } from '../../../src/webhooks/index.js';
import { MemoryJournal, RuleRunner, type RulesClient, limitState, parseRules } from '../../../src/workflows/rules/index.js';
import { HOUR, MINUTE, startWorld, testAddress } from './helpers.js';

let world: Awaited<ReturnType<typeof startWorld>>;
beforeAll(async () => {
  world = await startWorld(36);
});
afterAll(() => world.mock.close());

const runner = (rules: unknown, extra: Partial<ConstructorParameters<typeof RuleRunner>[0]> = {}) =>
  new RuleRunner({
    client: world.client(),
    rules: parseRules(JSON.stringify(rules)),
    dryRun: false,
    clock: virtualClock(world.time),
    tickMs: MINUTE,
    nodeRequestsPerSecond: 5,
    ...extra,
  });

describe('RuleRunner', () => {
  it('schedule + notify: a signed webhook per cron minute (our verifier accepts it) and NDJSON lines', async () => {
    const received: Array<{ body: string; signature: string | undefined }> = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        received.push({ body, signature: req.headers['x-service-signature'] as string | undefined });
        res.end('ok');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
    const lines: string[] = [];
    const r = runner(
      {
        notify: { webhook: { url, secret_env: 'HOOK_SECRET' } },
        rules: [{ id: 'half-hourly', trigger: { type: 'schedule', cron: '*/30 * * * *' }, action: { type: 'notify', message: 'check' } }],
      },
      { notify: { writeLine: (l) => lines.push(l), env: { HOOK_SECRET: 'whsec_test' } } },
    );
    const start = Math.ceil(world.time.now() / HOUR) * HOUR;
    world.time.advance(start - world.time.now() + 1_000);
    await r.run({ maxTicks: 120 });
    server.close();
    // Ticks at :00:01 … +2 h: fires at 00:00 (first tick looks one tick back), 00:30, 01:00, 01:30.
    expect(received.length).toBe(4);
    expect(lines.length).toBe(4);
    for (const d of received) {
      const event = await constructWebhookEvent(d.body, d.signature, 'whsec_test', { now: world.time.now(), toleranceSec: 3 * 3600 });
      expect(event.event as string).toBe('rule.action');
      expect((event.data as unknown as { rule: string }).rule).toBe('half-hourly');
    }
    await expect(constructWebhookEvent(received[0]!.body, received[0]!.signature, 'wrong', { skipTimestampCheck: true })).rejects.toThrow(/does not match/);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      event: 'rule.action',
      data: { rule: 'half-hourly', message: 'check', window: expect.stringMatching(/^cron:/) },
    });
  });

  it('price_below + buy: acts at most max_runs_per_day times, at least min_interval apart', async () => {
    const address = testAddress(40);
    world.activate(address);
    const journal = new MemoryJournal();
    const r = runner(
      {
        rules: [
          {
            id: 'cheap',
            trigger: { type: 'price_below', price_sun: 100_000 },
            action: { type: 'buy', address, amount: 65_000, duration: '1h' },
            limits: { max_runs_per_day: 2, min_interval: '20m' },
          },
        ],
      },
      { journal },
    );
    await r.run({ maxTicks: 90 });
    const orders = (await world.allOrders()).filter((o) => o.target_address === address);
    expect(orders).toHaveLength(2);
    const [a, b] = orders.map((o) => Date.parse(String(o.created_at))).sort();
    expect(b! - a!).toBeGreaterThanOrEqual(20 * MINUTE);
    expect((await journal.entries()).some((e) => e.kind === 'suppressed' && e.reason === 'max_runs_per_day')).toBe(true);
  });

  it('delegation_expiring renews each rental once, in its last minutes', async () => {
    const address = testAddress(41);
    world.activate(address);
    const sdk = world.client();
    const first = await sdk.orders.waitFor(
      (await sdk.orders.create({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: address })).id,
      { timeoutMs: 5 * MINUTE },
    );
    const ends = Date.parse(String(first.filled_at)) + 3600_000;
    const r = runner({
      rules: [{ id: 'renew', trigger: { type: 'delegation_expiring', address, minutes_before: 10 }, action: { type: 'buy', amount: 65_000, duration: '1h' } }],
    });
    await r.run({ maxTicks: 65 });
    const renewals = (await world.allOrders()).filter((o) => o.target_address === address && o.id !== first.id);
    // One renewal of the first rental (the renewal's own end is past the run).
    expect(renewals).toHaveLength(1);
    const at = Date.parse(String(renewals[0]!.created_at));
    expect(at).toBeGreaterThanOrEqual(ends - 10 * MINUTE);
    expect(at).toBeLessThan(ends);
  });

  it('an action whose outcome is unknown counts as spent (its cap) until settled by its key, then at its real cost', async () => {
    const address = testAddress(42);
    world.activate(address);
    const base = world.client();
    const lost: RulesClient = {
      orders: base.orders,
      chain: {
        read: (a, o) => base.resources.read(a, o),
        plan: (p) => base.resources.plan(p),
        ensure: async (p) => {
          await base.resources.ensure(p);
          throw new ConnectionError('answer lost');
        },
      },
    };
    const journal = new MemoryJournal();
    const file = {
      rules: [
        {
          id: 'lossy',
          trigger: { type: 'energy_below', address, energy: 50_000 },
          action: { type: 'ensure', energy: 100_000 },
          limits: { max_spend_per_day: '30' },
        },
      ],
    };
    const r = runner(file, { client: lost, journal });
    await r.run({ maxTicks: 1 });
    const rule = parseRules(JSON.stringify(file)).rules[0]!;
    const state = limitState(await journal.entries(), rule, world.time.now());
    expect((await journal.entries()).filter((e) => e.kind === 'unknown')).toHaveLength(1);
    // The whole remaining budget was the cap handed to ensure: it counts until the outcome is known.
    expect(state.spent_24h_sun).toBe(30_000_000);
    expect(state.remaining_sun).toBe(0);
    // The order was journaled (key and request) before it was placed: the next tick looks it up by
    // its key (the same request with the same key returns the order the service placed) and
    // journals its real cost, before anything counts.
    const ordering = (await journal.entries()).filter((e) => e.kind === 'ordering');
    expect(ordering).toHaveLength(1);
    await runner(file, { client: lost, journal }).run({ maxTicks: 1 });
    const order = (await world.allOrders()).filter((o) => o.target_address === address);
    expect(order).toHaveLength(1);
    const full = await base.orders.get(order[0]!.id);
    const done = (await journal.entries()).find((e) => e.kind === 'done');
    expect(done).toMatchObject({ order_ids: [full.id], cost_sun: Number(full.total_cost_sun), reason: 'settled by its Idempotency-Key' });
    expect(limitState(await journal.entries(), rule, world.time.now()).spent_24h_sun).toBe(Number(full.total_cost_sun));
  });

  it('stop() lets the step in flight finish and journal its outcome, then stops', async () => {
    const address = testAddress(43);
    world.activate(address);
    const base = world.client();
    let r!: RuleRunner;
    let stopped: Promise<void> | undefined;
    const client: RulesClient = {
      orders: base.orders,
      chain: {
        read: (a, o) => base.resources.read(a, o),
        plan: (p) => base.resources.plan(p),
        ensure: async (p) => {
          stopped = r.stop(); // SIGTERM arrives while the order is on its way
          return base.resources.ensure(p);
        },
      },
    };
    const journal = new MemoryJournal();
    r = runner(
      { rules: [{ id: 'term', trigger: { type: 'energy_below', address, energy: 50_000 }, action: { type: 'ensure', energy: 100_000 } }] },
      { client, journal },
    );
    await r.run({ maxTicks: 100 });
    await stopped;
    expect((await journal.entries()).map((e) => e.kind)).toEqual(['trigger', 'intent', 'ordering', 'done']);
    expect(r.stats.ticks).toBe(1);
    expect((await world.allOrders()).filter((o) => o.target_address === address)).toHaveLength(1);
  });
});
