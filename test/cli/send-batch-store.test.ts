/**
 * `trx-rent send usdt --batch FILE --store postgres://…`: two runs of the same command at once
 * (separate config directories, as two hosts), sharing the batch through the PostgreSQL store:
 * every row paid exactly once on the mock's chain, the batch's rental placed once (the mock's
 * order log), and the store's claims all done.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { postgresStore } from '../../src/store/postgres.js';
import { type PgServer, startPostgres } from '../helpers/postgres.js';
import { account, ordersOf, paid, payouts, sender } from '../workflows/payouts-helpers.js';
import { runCliInProcess } from './run.js';

let pg: PgServer;
let mock: MockServer;
beforeAll(async () => {
  [pg, mock] = await Promise.all([startPostgres(), startMockServer({ seed: 3939, rateLimits: false, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } })]);
}, 120_000);
afterAll(async () => {
  await Promise.all([pg?.stop(), mock?.close()]);
}, 120_000);

describe('send --batch --store', { timeout: 180_000 }, () => {
  it('two runs of one batch on one store: every row paid once, one rental, every claim done', async () => {
    const s = sender(mock, 0x3c);
    const rows = payouts(mock, 12, 'cli-store');
    const acct = account(mock, '100000');
    const dir = mkdtempSync(join(tmpdir(), 'batch-store-'));
    const csv = join(dir, 'payroll.csv');
    writeFileSync(csv, `to,amount,id\n${rows.map((r) => `${r.to},${r.amount},${r.id}`).join('\n')}\n`);
    const store = `${pg.url}?schema=batch_cli`;
    const run = (host: string) =>
      runCliInProcess(['send', 'usdt', '--batch', csv, '--store', store, '--lease', '5s', '--concurrency', '3', '--yes', '--json'], {
        env: { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: acct.apiKey, TRX_RENT_TRON_NODE: mock.url, TRX_RENT_PRIVATE_KEY: s.privateKey },
        configDir: mkdtempSync(join(tmpdir(), `${host}-`)),
        timeoutMs: 170_000,
      });
    const [a, b] = await Promise.all([run('host-a'), run('host-b')]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const chain = paid(mock, s.address);
    for (const r of rows) expect(chain.get(r.to)?.count, `row ${r.id}`).toBe(1);
    expect([...chain.values()].reduce((n, e) => n + e.count, 0)).toBe(rows.length);
    // One rental: each order the journal planned placed once on the service.
    const pgStore = postgresStore(store);
    const entries = (await (await pgStore.journal<{ type: string; key?: string }>('payouts:payroll.csv')).read()) as { type: string; key?: string }[];
    const keys = new Set(entries.filter((e) => e.type === 'order').map((e) => e.key));
    expect(keys.size).toBeGreaterThan(0);
    expect(ordersOf(mock, acct.accountId)).toHaveLength(keys.size);
    const claims = await pgStore.withClient(
      async (c, schema) => (await c.query(`SELECT state, count(*)::int AS n FROM ${schema}.row_claims GROUP BY state`)).rows,
    );
    expect(claims).toEqual([{ state: 'done', n: rows.length }]);
    for (const r of [a, b]) expect(r.stdout + r.stderr).not.toContain(pg.password);
    await pgStore.close();
  });
});
