/**
 * Payouts across workers whose clocks disagree by a minute: two worker processes on one
 * PostgreSQL batch, one with its wall clock 60 s ahead (test/helpers/payout-worker.ts,
 * `TRX_RENT_TEST_CLOCK_SKEW_MS`: `Date.now()` and `new Date()` of the whole process, so the SDK's
 * clock, its transactions' timestamps and its journal times). The other is SIGKILLed mid-batch and replaced, so rows change hands between
 * the two clocks. What decides who holds a row is the database's clock: every lease the store
 * writes (row claims, journal holds) ends at `now()` of the server plus the lease, whoever writes
 * it; a transaction's expiration counts from the chain's block time, and a row is signed again
 * only once the solidified block has passed it. Judged by the chain: every row paid exactly once;
 * the store agrees; the leases seen while the batch ran never reached past the server's
 * `now() + lease` (a lease on the skewed worker's clock would be 60 s longer); and the journal
 * shows the skew was real (the skewed worker's times run a minute ahead of the server's).
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
import { account, paid, payouts, sender } from './payouts-helpers.js';

const ROWS = 60;
const LEASE_MS = 1_500;
const SKEW_MS = 60_000;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(ROOT, '.tmp', 'payouts-pg-skew-'));
const WORKER = buildPayoutWorker(dir);

let pg: PgServer;
let mock: MockServer;
beforeAll(async () => {
  [pg, mock] = await Promise.all([startPostgres(), startMockServer({ seed: 3907, rateLimits: false, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } })]);
}, 120_000);
afterAll(async () => {
  await Promise.all([pg?.stop(), mock?.close()]);
}, 120_000);

describe('payouts across workers whose clocks disagree by a minute', { timeout: 5 * 60_000 }, () => {
  it('one worker 60 s ahead, the other killed and replaced: every row paid once, leases on the database clock', async () => {
    const s = sender(mock, 47);
    const rows = payouts(mock, ROWS, 'pg-skew');
    const acct = account(mock, '1000000');
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, `${s.privateKey}\n`, { mode: 0o600 });
    const rowsFile = join(dir, 'rows.json');
    writeFileSync(rowsFile, JSON.stringify(rows));
    const url = `${pg.url}?schema=skew`;
    const name = 'payouts-skew';
    const args = [WORKER, mock.url, keyFile, rowsFile, name, String(LEASE_MS)];

    const confirmedBy = { ahead: 0, plain: 0 };
    const exits: Array<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> = [];
    const start = (skew: number) => {
      const child = spawn(process.execPath, args, {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: workerEnv(acct.apiKey, url, { TRX_RENT_TEST_CLOCK_SKEW_MS: String(skew) }),
      });
      let stderr = '';
      child.stdout!.on('data', (d: Buffer) => {
        const n = d
          .toString()
          .split('\n')
          .filter((l) => l.startsWith('confirmed ')).length;
        confirmedBy[skew ? 'ahead' : 'plain'] += n;
      });
      child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d).slice(-4_000)));
      const exited = new Promise<void>((resolve) =>
        child.on('close', (code, signal) => {
          exits.push({ code, signal, stderr });
          resolve();
        }),
      );
      return { child, exited };
    };

    // The leases as the database holds them, sampled while the batch runs.
    const store = postgresStore(url);
    await store.migrate();
    let maxAheadMs = 0;
    let sampledLive = 0;
    let sampling = true;
    const sampler = (async () => {
      for (let i = 0; sampling && i < 6_000; i++) {
        try {
          const [row] = await store.withClient(
            async (c, schema) =>
              (
                await c.query(
                  `SELECT count(*) FILTER (WHERE expires_at > now())::int AS live,
                     coalesce(max(extract(epoch FROM expires_at - now()) * 1000), 0)::float8 AS ahead
                   FROM ${schema}.row_claims WHERE journal = $1 AND state = 'open'`,
                  [name],
                )
              ).rows,
          );
          if (row!.live > 0) sampledLive++;
          maxAheadMs = Math.max(maxAheadMs, row!.ahead as number);
        } catch {
          // the tables appear with the first worker
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    const plain = start(0);
    const ahead = start(SKEW_MS);
    // Mid-batch, the plain worker dies; its rows pass to the skewed one, then to a plain one again.
    for (let i = 0; i < 2_400 && confirmedBy.plain + confirmedBy.ahead < ROWS / 3; i++) await new Promise((r) => setTimeout(r, 50));
    plain.child.kill('SIGKILL');
    await plain.exited;
    const again = start(0);
    await Promise.all([ahead.exited, again.exited]);
    sampling = false;
    await sampler;

    const summary = `exits ${exits.map((e) => e.signal ?? e.code).join(',')}; confirmed: ahead ${confirmedBy.ahead}, plain ${confirmedBy.plain}`;
    expect(exits.filter((e) => e.code === 0).length, `${summary}\n${exits.map((e) => e.stderr).join('\n---\n')}`).toBe(2);
    expect(confirmedBy.ahead, summary).toBeGreaterThan(0);
    expect(confirmedBy.plain, summary).toBeGreaterThan(0);

    // The chain: one transfer per row, the right amount, nothing else.
    const chain = paid(mock, s.address);
    for (const r of rows) {
      expect(chain.get(r.to)?.count, `${summary}: row ${r.id}`).toBe(1);
      expect(chain.get(r.to)?.atomic).toBe(BigInt(r.amount.replace('.', '')));
    }
    expect([...chain.values()].reduce((n, e) => n + e.count, 0)).toBe(ROWS);

    // The store agrees, and shows whose clock wrote what.
    const [facts] = await store.withClient(
      async (c, schema) =>
        (
          await c.query(
            `SELECT count(*) FILTER (WHERE record->>'type' = 'confirmed')::int AS confirmed,
               count(DISTINCT record->>'id') FILTER (WHERE record->>'type' = 'confirmed')::int AS rows,
               count(*) FILTER (WHERE record->>'type' = 'confirmed' AND (record->>'at')::float8 - extract(epoch FROM written_at) * 1000 > $2 - 10000)::int AS ahead,
               count(*) FILTER (WHERE record->>'type' = 'confirmed' AND abs((record->>'at')::float8 - extract(epoch FROM written_at) * 1000) < 10000)::int AS plain,
               (SELECT count(*)::int FROM ${schema}.row_claims WHERE journal = $1 AND state = 'done') AS done
             FROM ${schema}.journal_records WHERE journal = $1`,
            [name, SKEW_MS],
          )
        ).rows,
    );
    expect(facts).toEqual({ confirmed: ROWS, rows: ROWS, ahead: expect.any(Number), plain: expect.any(Number), done: ROWS });
    // The skew was real: the skewed worker's journal times are a minute ahead of the server's.
    expect(facts!.ahead).toBeGreaterThan(0);
    expect(facts!.plain).toBeGreaterThan(0);
    expect(facts!.ahead + facts!.plain).toBe(ROWS);
    // Leases were live while sampled, and none reached past the server's now() + lease.
    expect(sampledLive).toBeGreaterThan(0);
    expect(maxAheadMs).toBeLessThanOrEqual(LEASE_MS);
    await store.close();
  });
});
