// Payouts across workers on one PostgreSQL database: payout rows per second with 1, 2 and 4
// worker processes draining one batch (`sharedPayoutJournal`, rows claimed with FOR UPDATE SKIP
// LOCKED), side by side in one run. Each configuration is a fresh batch of ROWS USDT payouts
// from a fresh sender on a fresh mock (real HTTP on loopback, the account API and the simulated
// TRON node at one origin, its market held still so each run rents at the same prices; one
// rental per batch), all on one throwaway PostgreSQL server (test/helpers/postgres.ts: fsync
// off, commits synchronous). Each worker is its own Node process (test/helpers/payout-worker.ts,
// bundled from the source with esbuild; `sendMany` concurrency 4 per worker). Two figures per
// configuration: start to finish (first spawn to last exit: start-up and each worker's planning,
// which estimates every row on the node, included) and the sending alone (by the database's
// clock: the first approval written to the last confirmation). The chain is the judge of each
// run (one transfer per row); the orders placed and the TRX burnt for energy are shown beside.
// `node bench/run.mjs payouts-workers` runs this section alone; PAYOUTS_WORKERS_BENCH_ROWS sets
// the rows (default 300).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROWS = Number(process.env.PAYOUTS_WORKERS_BENCH_ROWS ?? 300);
const WORKERS = [1, 2, 4];

export async function run() {
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.tmp', 'bench-payouts-workers-'));
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `export { startPostgres } from ${JSON.stringify(join(ROOT, 'test/helpers/postgres.ts'))};
export { buildPayoutWorker, workerEnv } from ${JSON.stringify(join(ROOT, 'test/helpers/payout-worker.ts'))};
export { account, paid, payouts, sender } from ${JSON.stringify(join(ROOT, 'test/workflows/payouts-helpers.ts'))};
export { startMockServer } from ${JSON.stringify(join(ROOT, 'src/mock/index.ts'))};
export { postgresStore } from ${JSON.stringify(join(ROOT, 'src/store/postgres.ts'))};`,
  );
  const out = join(dir, 'bench.mjs');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'error', external: ['pg', 'tronweb', 'esbuild'] });
  const { startPostgres, buildPayoutWorker, workerEnv, account, paid, payouts, sender, startMockServer, postgresStore } = await import(out);
  const worker = buildPayoutWorker(dir);

  const pg = await startPostgres();
  try {
    const measured = [];
    const store = postgresStore(`${pg.url}?schema=bench_workers`);
    for (const [i, n] of WORKERS.entries()) {
      // A fresh mock per run, its market held still: each run rents from the same prices and stock.
      const mock = await startMockServer({
        seed: 3909,
        rateLimits: false,
        timings: { selectMs: 10, fillMs: 20, verifyMs: 30 },
        market: { drift: 0, offlineRate: 0 },
      });
      const s = sender(mock, 0x90 + i);
      const rows = payouts(mock, ROWS, `bench-workers-${n}`);
      const acct = account(mock, '1000000');
      const keyFile = join(dir, `key-${n}`);
      writeFileSync(keyFile, `${s.privateKey}\n`, { mode: 0o600 });
      const rowsFile = join(dir, `rows-${n}.json`);
      writeFileSync(rowsFile, JSON.stringify(rows));
      const args = [worker, mock.url, keyFile, rowsFile, `bench-${n}-workers`, '15000'];
      // The API key and the store's URL (its password) in the environment, never in argv.
      const env = workerEnv(acct.apiKey, `${pg.url}?schema=bench_workers`);
      const started = performance.now();
      const codes = await Promise.all(
        Array.from(
          { length: n },
          () =>
            new Promise((resolve) => {
              const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'], env });
              let stderr = '';
              child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2_000)));
              child.on('close', (code) => {
                if (code !== 0) console.error(`payouts-workers: a worker of ${n} exited ${code}: ${stderr}`);
                resolve(code);
              });
            }),
        ),
      );
      const ms = performance.now() - started;
      const chain = paid(mock, s.address);
      const once = rows.every((r) => chain.get(r.to)?.count === 1) && [...chain.values()].reduce((k, e) => k + e.count, 0) === ROWS;
      const sent = [...mock.state.chain.transactions.values()].filter((t) => t.transfer?.from === s.address);
      const burnt = sent.reduce((k, t) => k + (t.energyFeeSun ?? 0), 0);
      const orders = mock.state.orders.all(acct.accountId);
      const spent = `${orders.length} orders, ${burnt / 1e6} TRX burnt for energy`;
      if (!once) console.error(`payouts-workers: ${n} workers: the chain does not hold one transfer per row`);
      // The sending alone, by the database's clock: from the first approval written (planning
      // done: every worker estimates the batch's rows itself) to the last row confirmed.
      const [phase] = await store.withClient(
        async (c, schema) =>
          (
            await c.query(
              `SELECT extract(epoch FROM max(written_at) FILTER (WHERE record->>'type' = 'confirmed') - min(written_at) FILTER (WHERE record->>'type' = 'approved')) * 1000 AS ms
               FROM ${schema}.journal_records WHERE journal = $1`,
              [`bench-${n}-workers`],
            )
          ).rows,
      );
      measured.push({ n, ms, sendMs: Number(phase.ms), spent, ok: codes.every((c) => c === 0) && once });
      await mock.close();
    }
    await store.close();
    const one = measured[0].ms;
    const oneSend = measured[0].sendMs;
    return {
      title: `Payout rows per second, worker processes on one PostgreSQL database (${pg.source}, loopback; mock chain): ${ROWS} rows per run, concurrency 4 per worker`,
      rows: measured.flatMap(({ n, ms, sendMs, spent, ok }) => [
        {
          name: `${n} worker${n === 1 ? '' : 's'}: start to finish (${(ms / 1000).toFixed(1)} s, start-up and planning included; ${spent})`,
          value: ROWS / (ms / 1000),
          unit: 'rows/s',
          ...(n === 1 ? {} : { baseline: ROWS / (one / 1000), ratio: one / ms }),
          ok,
        },
        {
          name: `${n} worker${n === 1 ? '' : 's'}: sending alone (${(sendMs / 1000).toFixed(1)} s, first approval to last confirmation)`,
          value: ROWS / (sendMs / 1000),
          unit: 'rows/s',
          ...(n === 1 ? {} : { baseline: ROWS / (oneSend / 1000), ratio: oneSend / sendMs }),
        },
      ]),
    };
  } finally {
    await pg.stop();
  }
}
