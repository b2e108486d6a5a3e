/**
 * Rules across processes: two `trx-rent rules run --execute` processes (separate config
 * directories) on one rules journal share the rule's limits exactly. Each counts the limits
 * and writes its intent under the journal's lock, so the pair spends no more than the daily
 * limit and places at most one order per trigger window; a standby started after the first
 * stopped takes over the same journal without a second order for a window already bought.
 * The same run on a journal per process, for contrast, spends past the limit. The mock's order log is
 * the judge.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../../src/index.js';
import { type MockServer, startMockServer } from '../../../src/mock/index.js';
import { readJournalFile } from '../../../src/workflows/rules/index.js';
import { runCli, tempDir } from '../../cli/helpers.js';
import { testAddress } from './helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 93, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
});
afterAll(() => mock?.close());

/** The rules file: buy 65,000 energy for `address` whenever the price is below 1 TRX, at most once per 2 s window, within `limitSun` a day. */
function rulesFile(dir: string, address: string, limitSun: number): string {
  const path = join(dir, 'rules.json');
  const rule = { id: 'pair', trigger: { type: 'price_below', price_sun: 1_000_000 }, action: { type: 'buy', address, amount: 65_000, duration: '1h' }, limits: { max_spend_per_day: (limitSun / 1e6).toFixed(6), min_interval: '2s' } };
  writeFileSync(path, JSON.stringify({ rules: [rule] }));
  return path;
}

/** One runner process: its own config directory; `journal` its journal file. */
function runner(file: string, journal: string, ticks: number) {
  const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey, TRX_RENT_TRON_NODE: mock.url };
  return runCli(['rules', 'run', file, '--execute', '--json', '--tick', '1s', '--max-ticks', String(ticks), '--journal', journal], { env, configDir: tempDir(), timeoutMs: 120_000 });
}

async function ordersOf(address: string) {
  const sdk = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey });
  const page = await sdk.orders.list({ limit: 100 });
  return Promise.all(page.orders.filter((o) => o.target_address === address).map((o) => sdk.orders.get(o.id)));
}

async function costOfOne(): Promise<number> {
  const preview = await new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey }).orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 });
  return Math.ceil(Number(preview.best!.price_sun) * 65_000);
}

describe('two rules runner processes', { timeout: 240_000 }, () => {
  it('on one journal file spend within the daily limit, one order per window, and a standby takes over; on two files they overspend', async () => {
    const cost = await costOfOne();
    // Room for three orders and a half.
    const limitSun = 3 * cost + Math.floor(cost / 2);

    const dir = mkdtempSync(join(tmpdir(), 'rules-procs-'));
    const address = testAddress(93);
    mock.state.chain.activate(address);
    const file = rulesFile(dir, address, limitSun);
    const shared = join(dir, 'shared.journal.jsonl');
    const [a, b] = await Promise.all([runner(file, shared, 6), runner(file, shared, 6)]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    // A standby on the same journal after both stopped: the limit is spent, it buys nothing more.
    const standby = await runner(file, shared, 6);
    expect(standby.code, standby.stderr).toBe(0);
    const orders = await ordersOf(address);
    const spent = orders.reduce((n, o) => n + Number(o.total_cost_sun), 0);
    const entries = await readJournalFile(shared);
    const done = entries.filter((e) => e.kind === 'done');
    const intents = entries.filter((e) => e.kind === 'intent');
    expect(spent).toBeLessThanOrEqual(limitSun);
    expect(orders.length).toBeGreaterThanOrEqual(2);
    // One intent per window, one order per intent, whoever wrote it.
    expect(new Set(intents.map((e) => e.window)).size).toBe(intents.length);
    expect(done.map((e) => e.order_ids![0]).sort()).toEqual(orders.map((o) => o.id).sort());
    // Both processes counted: one acted, the other was held back by what the first spent (or acted too).
    expect(new Set(entries.filter((e) => e.kind === 'intent' || e.kind === 'suppressed').map((e) => e.runner)).size).toBeGreaterThanOrEqual(2);
    expect(entries.some((e) => e.kind === 'suppressed' && e.reason === 'max_spend_per_day')).toBe(true);

    // The contrast: the same pair and standby on journal files of their own, each counting only
    // its own spend (the pair, acting in the same windows with the same keys, share orders by
    // key; the standby, in later windows, spends a limit of its own).
    const address2 = testAddress(94);
    mock.state.chain.activate(address2);
    const file2 = rulesFile(dir, address2, limitSun);
    const [c, d] = await Promise.all([runner(file2, join(dir, 'c.journal.jsonl'), 6), runner(file2, join(dir, 'd.journal.jsonl'), 6)]);
    expect(c.code, c.stderr).toBe(0);
    expect(d.code, d.stderr).toBe(0);
    const alone = await runner(file2, join(dir, 'e.journal.jsonl'), 6);
    expect(alone.code, alone.stderr).toBe(0);
    const apart = await ordersOf(address2);
    const spentApart = apart.reduce((n, o) => n + Number(o.total_cost_sun), 0);
    expect(spentApart, 'two journals let the pair overspend (the test can fail)').toBeGreaterThan(limitSun);
    console.log(`one journal: ${orders.length} orders, ${spent / 1e6} TRX; two journals: ${apart.length} orders, ${spentApart / 1e6} TRX (limit ${limitSun / 1e6} TRX)`);
  });
});
