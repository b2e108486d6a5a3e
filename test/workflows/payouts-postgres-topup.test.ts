/**
 * Payouts across workers when the rental runs short: three worker processes on one PostgreSQL
 * batch, and once the batch's rental is delegated another spender on the wallet uses 40 % of
 * it, so the energy runs out before the end and the workers must top up. They count the energy
 * they sign against together (in the journal, `shared-energy.ts`), so no row burns TRX for
 * energy another worker's row is using, and they top up one at a time (inside the journal's exclusive
 * section, after reading the node again: a worker that finds another's top-up delegated orders
 * nothing), each top-up sized by the rows not final in the journal and keyed after the top-ups
 * it holds, so no two workers send one key with two bodies. Judged by the chain (every row paid
 * once) and the mock's order log (each order the journal planned placed once, every top-up key
 * once).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { postgresStore } from '../../src/store/postgres.js';
import { buildPayoutWorker, workerEnv } from '../helpers/payout-worker.js';
import { type PgServer, startPostgres } from '../helpers/postgres.js';
import { account, ordersOf, paid, payouts, sender } from './payouts-helpers.js';

const ROWS = 45;
const WORKERS = 3;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(ROOT, '.tmp', 'payouts-pg-topup-'));
const WORKER = buildPayoutWorker(dir);

let pg: PgServer;
let mock: MockServer;
beforeAll(async () => {
  [pg, mock] = await Promise.all([
    startPostgres(),
    startMockServer({ seed: 3911, rateLimits: false, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 }, market: { drift: 0, offlineRate: 0 } }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([pg?.stop(), mock?.close()]);
}, 120_000);

describe('payouts across workers when the rental runs short', { timeout: 5 * 60_000 }, () => {
  it('three workers top up one at a time: every row paid once, each top-up key placed once', async () => {
    const chain = mock.state.chain;
    const s = sender(mock, 53);
    const rows = payouts(mock, ROWS, 'pg-topup');
    const acct = account(mock, '1000000');
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, `${s.privateKey}\n`, { mode: 0o600 });
    const rowsFile = join(dir, 'rows.json');
    writeFileSync(rowsFile, JSON.stringify(rows));
    const url = `${pg.url}?schema=topup`;
    const name = 'payouts-topup';
    const args = [WORKER, mock.url, keyFile, rowsFile, name, '15000'];

    const exits: Array<{ code: number | null; stderr: string }> = [];
    const workers = Array.from(
      { length: WORKERS },
      () =>
        new Promise<void>((resolve) => {
          // A budget for the top-ups: 40 % of the rental is gone, so they cost more than the plan's margin.
          const env = workerEnv(acct.apiKey, url, { TRX_RENT_TEST_MAX_COST_SUN: String(2_000_000_000) });
          const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env });
          let stderr = '';
          child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d).slice(-4_000)));
          child.on('close', (code) => {
            exits.push({ code, stderr });
            resolve();
          });
        }),
    );
    // Once the rental is delegated, another spender on the wallet uses 40 % of the energy (more
    // than the rows in flight at that moment can need of the rest).
    for (let i = 0; i < 2_400 && chain.availableEnergy(s.address) === 0; i++) await new Promise((r) => setTimeout(r, 10));
    const rented = chain.availableEnergy(s.address);
    expect(rented).toBeGreaterThan(0);
    chain.spendEnergy(s.address, Math.floor(rented * 0.4));
    await Promise.all(workers);

    const summary = exits.map((e) => `${e.code}: ${e.stderr.slice(-600)}`).join('\n---\n');
    expect(
      exits.map((e) => e.code),
      summary,
    ).toEqual(Array(WORKERS).fill(0));
    const got = paid(mock, s.address);
    for (const r of rows) expect(got.get(r.to)?.count, `row ${r.id}\n${summary}`).toBe(1);
    expect([...got.values()].reduce((n, e) => n + e.count, 0)).toBe(ROWS);

    const store = postgresStore(url);
    const entries = (await (await store.journal<{ type: string; key?: string; state?: string }>(name)).read()) as Array<{
      type: string;
      key?: string;
      state?: string;
    }>;
    await store.close();
    const keys = new Set(entries.filter((e) => e.type === 'order').map((e) => e.key!));
    const topups = [...keys].filter((k) => k.includes(':topup:'));
    // The energy ran short: the workers topped up, and every order key the journal holds was placed once.
    expect(topups.length, summary).toBeGreaterThan(0);
    expect(ordersOf(mock, acct.accountId)).toHaveLength(keys.size);
    expect(entries.filter((e) => e.type === 'confirmed')).toHaveLength(ROWS);
    // The workers counted the energy together (in the journal): no row signed against energy
    // another's row was using, so none burnt TRX for it.
    const burnt = [...chain.transactions.values()].filter((t) => t.transfer?.from === s.address && (t.energyFeeSun ?? 0) > 0);
    expect(burnt.map((t) => t.energyFeeSun)).toEqual([]);
  });
});
