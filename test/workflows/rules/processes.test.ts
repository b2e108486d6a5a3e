/**
 * Rules across processes and hosts: two `trx-rent rules run --execute` processes (separate
 * config directories) on one rules journal share the rule's limits exactly. Each counts the
 * limits and writes its intent under the journal's lock (a file lock; on PostgreSQL an advisory
 * lock per journal, inside the transaction that records it), so the pair spends no more than the
 * daily limit and places at most one order per trigger window; a standby started after the pair
 * stopped takes over the same journal without a second order for a window already bought. The
 * same run with a journal per process, for contrast, spends past the limit. The mock's order log
 * is the judge. The PostgreSQL run is against a real, throwaway server (test/helpers/postgres.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../../src/index.js';
import { type MockServer, startMockServer } from '../../../src/mock/index.js';
import { openStore } from '../../../src/store/open.js';
import { type RulesJournalEntry, readJournalFile, storeRulesJournal } from '../../../src/workflows/rules/index.js';
import { runCli, tempDir } from '../../cli/helpers.js';
import { type PgServer, startPostgres } from '../../helpers/postgres.js';
import { testAddress } from './helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 93, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
});
afterAll(() => mock?.close());

/** The rules file: buy 65,000 energy for `address` whenever the price is below 1 TRX, at most once per 2 s window, within `limitSun` a day. */
function rulesFile(dir: string, address: string, limitSun: number): string {
  const path = join(dir, `rules-${address}.json`);
  const rule = {
    id: 'pair',
    trigger: { type: 'price_below', price_sun: 1_000_000 },
    action: { type: 'buy', address, amount: 65_000, duration: '1h' },
    limits: { max_spend_per_day: (limitSun / 1e6).toFixed(6), min_interval: '2s' },
  };
  writeFileSync(path, JSON.stringify({ rules: [rule] }));
  return path;
}

/** Where a runner keeps its journal: a file (`--journal`), or a store (`TRX_RENT_STORE`: its URL's password never in argv). */
type Where = { journal: string } | { store: string };

/** One runner process with its own config directory. */
function runner(file: string, where: Where, ticks: number) {
  const env = {
    TRX_RENT_BASE_URL: mock.url,
    TRX_RENT_API_KEY: mock.apiKey,
    TRX_RENT_TRON_NODE: mock.url,
    ...('store' in where ? { TRX_RENT_STORE: where.store } : {}),
  };
  const args = 'journal' in where ? ['--journal', where.journal] : [];
  return runCli(['rules', 'run', file, '--execute', '--json', '--tick', '1s', '--max-ticks', String(ticks), ...args], {
    env,
    configDir: tempDir(),
    timeoutMs: 120_000,
  });
}

async function ordersOf(address: string) {
  const sdk = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey });
  const page = await sdk.orders.list({ limit: 100 });
  return Promise.all(page.orders.filter((o) => o.target_address === address).map((o) => sdk.orders.get(o.id)));
}

/** Room for three orders and a half at the price now. */
async function limitNow(): Promise<number> {
  const preview = await new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey }).orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 });
  const cost = Math.ceil(Number(preview.best!.price_sun) * 65_000);
  return 3 * cost + Math.floor(cost / 2);
}

/** A pair of runner processes at once, then a standby, each on its journal; what the service charged for the address. */
async function day(address: string, limitSun: number, journals: { a: Where; b: Where; standby: Where }) {
  mock.state.chain.activate(address);
  const file = rulesFile(mkdtempSync(join(tmpdir(), 'rules-procs-')), address, limitSun);
  const pair = await Promise.all([runner(file, journals.a, 6), runner(file, journals.b, 6)]);
  for (const r of pair) expect(r.code, r.stderr).toBe(0);
  const standby = await runner(file, journals.standby, 10);
  expect(standby.code, standby.stderr).toBe(0);
  const orders = await ordersOf(address);
  return { orders, spent: orders.reduce((n, o) => n + Number(o.total_cost_sun), 0) };
}

/** What a shared journal must show: within the limit, one intent per window and one order per intent, both processes counted. */
function expectShared(entries: readonly RulesJournalEntry[], run: Awaited<ReturnType<typeof day>>, limitSun: number) {
  expect(run.spent).toBeLessThanOrEqual(limitSun);
  expect(run.orders.length).toBeGreaterThanOrEqual(2);
  const intents = entries.filter((e) => e.kind === 'intent');
  expect(new Set(intents.map((e) => e.window)).size).toBe(intents.length);
  expect(
    entries
      .filter((e) => e.kind === 'done')
      .map((e) => e.order_ids![0])
      .sort(),
  ).toEqual(run.orders.map((o) => o.id).sort());
  // Both processes counted: one acted, the other was held back by what the first spent (or acted too).
  expect(new Set(entries.filter((e) => e.kind === 'intent' || e.kind === 'suppressed').map((e) => e.runner)).size).toBeGreaterThanOrEqual(2);
  expect(entries.some((e) => e.kind === 'suppressed' && e.reason === 'max_spend_per_day')).toBe(true);
}

describe('two rules runner processes', { timeout: 300_000 }, () => {
  let apart: { spent: number; orders: number; limitSun: number } | undefined;

  it('on a journal each (the contrast): the pair and a standby spend past the daily limit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rules-procs-'));
    const limitSun = await limitNow();
    const run = await day(testAddress(94), limitSun, {
      a: { journal: join(dir, 'a.jsonl') },
      b: { journal: join(dir, 'b.jsonl') },
      standby: { journal: join(dir, 'c.jsonl') },
    });
    expect(run.spent, 'a journal each lets them overspend (the test can fail)').toBeGreaterThan(limitSun);
    apart = { spent: run.spent, orders: run.orders.length, limitSun };
  });

  it('on one journal file: within the daily limit, one order per window; the standby buys nothing twice', async () => {
    const shared = join(mkdtempSync(join(tmpdir(), 'rules-procs-')), 'shared.journal.jsonl');
    const limitSun = await limitNow();
    const run = await day(testAddress(93), limitSun, { a: { journal: shared }, b: { journal: shared }, standby: { journal: shared } });
    expectShared(await readJournalFile(shared), run, limitSun);
    console.log(
      `one journal file: ${run.orders.length} orders, ${run.spent / 1e6} TRX (limit ${limitSun / 1e6} TRX); a journal each: ${apart?.orders} orders, ${(apart?.spent ?? 0) / 1e6} TRX`,
    );
  });

  describe('on one PostgreSQL database (two hosts)', () => {
    let pg: PgServer;
    beforeAll(async () => {
      pg = await startPostgres();
    }, 120_000);
    afterAll(() => pg?.stop());

    it('share windows and limits: within the daily limit, one order per window; the standby takes over without a second order', async () => {
      const limitSun = await limitNow();
      const store = { store: pg.url };
      const run = await day(testAddress(95), limitSun, { a: store, b: store, standby: store });
      expect(run.orders.length).toBeGreaterThan(0);
      const db = await openStore(pg.url);
      const journal = storeRulesJournal(db);
      try {
        expectShared(await journal.entries(), run, limitSun);
      } finally {
        await journal.close();
        await db.close();
      }
      // rules log reads the same journal from the database; the URL's password is never printed.
      const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey, TRX_RENT_STORE: pg.url };
      const log = await runCli(['rules', 'log', '--json', '--rule', 'pair', '--limit', '1000'], { env, configDir: tempDir() });
      expect(log.code, log.stderr).toBe(0);
      expect((JSON.parse(log.stdout) as unknown[]).length).toBeGreaterThan(run.orders.length);
      expect(log.stderr).toContain('Journal: rules in the postgres store');
      expect(log.stdout + log.stderr).not.toContain(pg.password);
      const both = await runCli(['rules', 'log', '--journal', 'x.jsonl'], { env, configDir: tempDir() });
      expect(both.code).toBe(2);
      expect(both.stderr).toMatch(/--journal .* or --store \(here TRX_RENT_STORE\)/);
      console.log(
        `one database: ${run.orders.length} orders, ${run.spent / 1e6} TRX (limit ${limitSun / 1e6} TRX); a journal each: ${apart?.orders} orders, ${(apart?.spent ?? 0) / 1e6} TRX`,
      );
    });
  });
});
