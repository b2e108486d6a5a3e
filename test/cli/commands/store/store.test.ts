/**
 * `trx-rent store migrate [--dry-run]` and `trx-rent store status`, in-process against a real
 * PostgreSQL server (test/helpers/postgres.ts): the dry run lists the migrations and creates
 * nothing; migrate applies them once; status shows the journals, a shared batch's rows by state
 * and the open leases, as a table and as JSON; the password is never printed; no store is a
 * usage error naming TRX_RENT_STORE.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStore } from '../../../../src/store/postgres.js';
import { RowClaims } from '../../../../src/store/postgres-claims.js';
import type { PostgresJournal } from '../../../../src/store/postgres.js';
import { type PgServer, startPostgres } from '../../../helpers/postgres.js';
import { json, runCliInProcess } from '../../run.js';

let pg: PgServer;
beforeAll(async () => {
  pg = await startPostgres();
}, 120_000);
afterAll(async () => {
  await pg?.stop();
}, 120_000);

describe('trx-rent store', { timeout: 60_000 }, () => {
  it('migrate --dry-run lists and changes nothing; migrate applies once; status shows journals, batches and leases; the password never shows', async () => {
    const url = `${pg.url}?schema=cli`;
    const env = { TRX_RENT_STORE: url };
    const dry = await runCliInProcess(['store', 'migrate', '--dry-run', '--json'], { env });
    expect(dry.code, dry.stderr).toBe(0);
    expect(json(dry)).toMatchObject({ schema: 'cli', from: 0, to: 0, dryRun: true, pending: [{ version: 1 }, { version: 2 }] });
    const before = await runCliInProcess(['store', 'status', '--json'], { env });
    expect(json(before)).toMatchObject({ version: 0, journals: [], batches: [], leases: [] });
    const applied = await runCliInProcess(['store', 'migrate'], { env, isTTY: { stdout: true }, columns: 160 });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/at version 0, now 2; applied:\n {2}1 {2}journals/);
    const again = await runCliInProcess(['store', 'migrate', '--store', url], { env: {}, isTTY: { stdout: true }, columns: 160 });
    expect(again.stdout).toMatch(/at version 2, up to date/);

    // A journal held by a runner, and a shared batch of three rows: one done, one claimed, one open.
    const store = postgresStore(url);
    const held = await store.journal('rules-main');
    await held.hold();
    await held.append([{ n: 1 }, { n: 2 }]);
    const batch = (await store.journal('payouts-b1')) as PostgresJournal;
    const claims = new RowClaims(batch);
    await claims.seed(['r1', 'r2', 'r3']);
    expect(await claims.claim(2)).toEqual(['r1', 'r2']);
    await claims.append([{ type: 'confirmed', id: 'r1' }], [{ id: 'r1', done: true }]);

    const status = await runCliInProcess(['store', 'status', '--json'], { env });
    expect(status.code, status.stderr).toBe(0);
    const s = json(status);
    expect(s).toMatchObject({ schema: 'cli', version: 2, batches: [{ journal: 'payouts-b1', done: 1, claimed: 1, open: 1 }] });
    expect(s.journals).toEqual([
      expect.objectContaining({ journal: 'payouts-b1', records: 1 }),
      expect.objectContaining({ journal: 'rules-main', records: 2, holder: expect.objectContaining({ pid: process.pid, token: '1' }) }),
    ]);
    expect(s.leases.map((l: { kind: string; journal: string; row?: string }) => [l.kind, l.journal, l.row])).toEqual([
      ['row', 'payouts-b1', 'r2'],
      ['journal', 'rules-main', undefined],
    ]);
    const table = await runCliInProcess(['store', 'status'], { env, isTTY: { stdout: true }, columns: 160 });
    expect(table.stdout).toMatch(/payouts-b1\s+1\s+1\s+1/);
    expect(table.stdout).toMatch(/2 open leases/);
    for (const out of [dry, before, applied, again, status, table]) expect(out.stdout + out.stderr).not.toContain(pg.password);
    expect(table.stdout).toContain('trx:***@127.0.0.1');
    await claims.close();
    await held.close();
    await store.close();
  });

  it('import copies a file journal in order, once: a second import into the same name is refused', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const file = join(mkdtempSync(join(tmpdir(), 'store-import-')), 'payroll.csv.journal');
    const records = Array.from({ length: 1_203 }, (_, i) => ({ type: 'estimated', id: `r${i}`, energy: 64_285 + i }));
    writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''), { mode: 0o600 });
    const env = { TRX_RENT_STORE: `${pg.url}?schema=imported` };
    const first = await runCliInProcess(['store', 'import', file, '--json'], { env });
    expect(first.code, first.stderr).toBe(0);
    expect(json(first)).toMatchObject({ journal: 'payroll.csv', records: 1_203 });
    const store = postgresStore(`${pg.url}?schema=imported`);
    expect(await (await store.journal('payroll.csv')).read()).toEqual(records);
    const again = await runCliInProcess(['store', 'import', file, '--json'], { env });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/already has 1203 records in journal payroll.csv; nothing was imported/);
    await store.close();
  });

  it('without --store or TRX_RENT_STORE: a usage error naming both', async () => {
    const r = await runCliInProcess(['store', 'status'], { env: {} });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--store postgres:\/\/… or set TRX_RENT_STORE/);
  });
});
