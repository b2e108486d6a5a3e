/**
 * Payouts across workers on the PostgreSQL store, under chaos: 4 worker processes (each its own
 * Node process and client, bundled from the source with esbuild) run the same batch on one
 * database (`sharedPayoutJournal`), claiming rows with `FOR UPDATE SKIP LOCKED` under a short
 * lease with a fencing token. Workers are SIGKILLed at random points and replaced; the database
 * server is restarted once mid-batch (`pg_ctl -m immediate`, as a crash). The judge is the mock's
 * chain: every recipient paid exactly once, the right amount, nothing else from the sender; the
 * store agrees (one `confirmed` per row with the chain's transaction, every claim done); the
 * batch's rental was placed once (the mock's order log).
 *
 * Rows: the 1,000 by default, with 20 kills (54 s alone at load 4 on 2 cores, up to
 * 2.5 min beside other test files under load 9);
 * `PAYOUTS_PG_CHAOS_ROWS=200` runs a shorter one.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { postgresStore } from '../../src/store/postgres.js';
import { buildPayoutWorker, workerEnv } from '../helpers/payout-worker.js';
import { type PgServer, startPostgres } from '../helpers/postgres.js';
import { USDT, account, ordersOf, paid, payouts, sender } from './payouts-helpers.js';

const ROWS = Number(process.env.PAYOUTS_PG_CHAOS_ROWS ?? 1_000);
const SEED = Number(process.env.PAYOUTS_PG_CHAOS_SEED ?? 39039);
const WORKERS = 4;
const LEASE_MS = 1_500;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const dir = mkdtempSync(join(ROOT, '.tmp', 'payouts-pg-chaos-'));

const WORKER = buildPayoutWorker(dir);

/** mulberry32, for the kill points (the seed is printed on failure). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let pg: PgServer;
let mock: MockServer;
beforeAll(async () => {
  [pg, mock] = await Promise.all([startPostgres(), startMockServer({ seed: SEED, rateLimits: false, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } })]);
}, 120_000);
afterAll(async () => {
  await Promise.all([pg?.stop(), mock?.close()]);
}, 120_000);

interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  confirmed: number;
  stderr: string;
}

describe('payouts across workers on PostgreSQL, under chaos', { timeout: 15 * 60_000 }, () => {
  it(`${WORKERS} workers, ${ROWS} rows, random SIGKILLs and one database restart: every row paid exactly once, the store agrees, one rental`, async () => {
    const s = sender(mock, 39);
    const rows = payouts(mock, ROWS, 'pg-chaos');
    const acct = account(mock, '1000000');
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, `${s.privateKey}\n`, { mode: 0o600 });
    const rowsFile = join(dir, 'rows.json');
    writeFileSync(rowsFile, JSON.stringify(rows));
    const store = `${pg.url}?schema=payouts`;
    const name = 'payouts-chaos';
    const args = [WORKER, mock.url, keyFile, rowsFile, name, String(LEASE_MS)];
    const env = workerEnv(acct.apiKey, store);
    const random = rng(SEED);

    const running = new Set<ChildProcess>();
    const exits: Exit[] = [];
    let confirmedEvents = 0;
    let spawned = 0;
    let finished = false;
    const start = () => {
      spawned++;
      const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
      running.add(child);
      let confirmed = 0;
      let stderr = '';
      child.stdout!.on('data', (d: Buffer) => {
        const n = d
          .toString()
          .split('\n')
          .filter((l) => l.startsWith('confirmed ')).length;
        confirmed += n;
        confirmedEvents += n;
      });
      child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d).slice(-4_000)));
      child.on('close', (code, signal) => {
        running.delete(child);
        exits.push({ code, signal, confirmed, stderr });
        if (code !== 0 && signal === null && process.env.PAYOUTS_PG_CHAOS_DEBUG) console.log(`worker exit ${code}: ${stderr.slice(-1500)}`);
        if (code === 0) finished = true;
        // A worker that died (killed, or failed when the server went away) is replaced until one finishes.
        else if (!finished && spawned < 80) start();
      });
    };
    for (let i = 0; i < WORKERS; i++) start();

    // Chaos: SIGKILL a random worker at random points while rows are being paid, and restart
    // the server once, halfway. Each step waits for progress, so the faults fall mid-batch.
    const kills = Math.max(4, Math.round(ROWS / 50));
    const started = Date.now();
    const until = async (test: () => boolean, ms: number) => {
      for (const end = Date.now() + ms; !test() && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
    };
    let killed = 0;
    let restarted = false;
    for (let k = 0; k < kills && !finished; k++) {
      const target = Math.floor(((k + 1) * ROWS) / (kills + 2) + random() * (ROWS / (kills + 2)));
      await until(() => finished || confirmedEvents >= target, 120_000);
      if (!restarted && confirmedEvents >= ROWS / 2) {
        await pg.restart({ downMs: 500 });
        restarted = true;
      }
      const victims = [...running];
      const victim = victims[Math.floor(random() * victims.length)];
      if (victim && !finished) {
        victim.kill('SIGKILL');
        killed++;
      }
    }
    if (!restarted && !finished) {
      await pg.restart({ downMs: 500 });
      restarted = true;
    }
    await until(() => finished && running.size === 0, 10 * 60_000);
    // The others end once no row is open; any still running after the finish is stopped.
    for (const c of running) c.kill('SIGKILL');
    const summary = `seed ${SEED}: ${spawned} workers started, ${killed} killed, server restarted ${restarted}; exits ${exits.map((e) => e.signal ?? e.code).join(',')}`;
    expect(finished, `${summary}\n${exits.map((e) => e.stderr).join('\n---\n')}`).toBe(true);
    expect(restarted, summary).toBe(true);
    expect(killed, summary).toBeGreaterThanOrEqual(3);

    // The judge: the chain.
    const chain = paid(mock, s.address);
    for (const r of rows) {
      const got = chain.get(r.to);
      expect(got?.count, `${summary}: row ${r.id}`).toBe(1);
      expect(got?.atomic, `row ${r.id}`).toBe(BigInt(r.amount.replace('.', '')));
    }
    expect([...chain.values()].reduce((n, e) => n + e.count, 0)).toBe(ROWS);
    // The store agrees: one `confirmed` per row, with the transaction the chain holds; every claim done.
    const pgStore = postgresStore(store);
    const entries = (await (await pgStore.journal<{ type: string; id?: string; tx_id?: string; key?: string; state?: string }>(name)).read()) as {
      type: string;
      id?: string;
      tx_id?: string;
      key?: string;
      state?: string;
    }[];
    const confirmed = entries.filter((e) => e.type === 'confirmed');
    expect(confirmed.length, summary).toBe(ROWS);
    expect(new Set(confirmed.map((e) => e.id)).size).toBe(ROWS);
    for (const e of confirmed) {
      const tx = mock.state.chain.transactions.get(e.tx_id!);
      expect(tx?.transfer?.token.address).toBe(USDT);
      expect(tx?.transfer?.to).toBe(rows.find((r) => r.id === e.id)!.to);
    }
    const claims = await pgStore.withClient(
      async (c, schema) => (await c.query(`SELECT state, count(*)::int AS n FROM ${schema}.row_claims WHERE journal = $1 GROUP BY state`, [name])).rows,
    );
    expect(claims).toEqual([{ state: 'done', n: ROWS }]);
    // One rental: the orders the journal planned, each placed once on the service.
    const planned = new Set(entries.filter((e) => e.type === 'order' && !e.key!.includes(':topup:')).map((e) => e.key));
    const placed = ordersOf(mock, acct.accountId);
    const topups = new Set(entries.filter((e) => e.type === 'order' && e.key!.includes(':topup:')).map((e) => e.key));
    expect(placed.length, `${summary}: ${planned.size} planned, ${topups.size} top-ups`).toBe(planned.size + topups.size);
    await pgStore.close();
    console.log(`${summary}; ${entries.length} journal records; ${planned.size} orders planned, ${topups.size} top-ups; ${Date.now() - started} ms`);
  });
});
