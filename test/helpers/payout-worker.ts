/**
 * A payout worker as its own Node process, for the tests and the bench that run several on one
 * PostgreSQL batch: a script bundled from the source with esbuild (`pg` and tronweb left to
 * node_modules) that opens `sharedPayoutJournal(STORE_URL, NAME)` and runs `sendMany` over the
 * rows in ROWS_FILE with the key in KEY_FILE, printing `confirmed <id>` per row it confirmed and
 * a JSON summary last; exit 0 when the batch is complete, 3 when it stopped short.
 *
 * argv: `BASE_URL KEY_FILE ROWS_FILE NAME LEASE_MS`; the API key and the store's URL (its password
 * in it) come in the environment, never in argv: `TRX_RENT_TEST_API_KEY`, `TRX_RENT_TEST_STORE`
 * ({@link workerEnv}). The environment's
 * `TRX_RENT_TEST_CLOCK_SKEW_MS` shifts the worker's wall clock by that many ms, as a host whose
 * clock is off would be: `Date.now()` and `new Date()` of the whole process (so the SDK's clock,
 * the transactions' timestamps, the journal's times and anything else that reads the time), while
 * timers keep running at the real pace (they are monotonic on a real host too).
 * `TRX_RENT_TEST_MAX_COST_SUN` sets the batch's `maxCostSun` (its budget for rentals);
 * `TRX_RENT_TEST_ALLOW_INSECURE_HTTP=1` lets the client send its key over plain http to an
 * address that is not loopback (a veth pair between namespaces on this machine).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The worker's environment: this process's, with the API key and the store's URL (and `more`). */
export function workerEnv(apiKey: string, store: string, more: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, TRX_RENT_TEST_API_KEY: apiKey, TRX_RENT_TEST_STORE: store, ...more };
}

/** Write and bundle the worker into `dir`; the script's path (run it with `node`). */
export function buildPayoutWorker(dir: string): string {
  const source = join(dir, 'payout-worker.ts');
  const out = join(dir, 'payout-worker.mjs');
  writeFileSync(
    source,
    `import { readFileSync } from 'node:fs';
import { TrxRent } from ${JSON.stringify(join(ROOT, 'src/index.ts'))};
import { sharedPayoutJournal } from ${JSON.stringify(join(ROOT, 'src/workflows/payouts/shared-journal.ts'))};
const [baseUrl, keyFile, rowsFile, name, lease] = process.argv.slice(2);
const apiKey = process.env.TRX_RENT_TEST_API_KEY;
const url = process.env.TRX_RENT_TEST_STORE;
const skew = Number(process.env.TRX_RENT_TEST_CLOCK_SKEW_MS ?? 0);
if (skew) {
  const RealDate = Date;
  const now = () => RealDate.now() + skew;
  class SkewedDate extends RealDate {
    constructor(...args) {
      if (args.length) super(...args);
      else super(now());
    }
    static now() {
      return now();
    }
  }
  globalThis.Date = SkewedDate;
}
const allowInsecureHttp = process.env.TRX_RENT_TEST_ALLOW_INSECURE_HTTP === '1';
const client = new TrxRent({ baseUrl, apiKey, tronNode: baseUrl, allowInsecureHttp, retry: { baseDelayMs: 5, maxDelayMs: 100 } });
const journal = await sharedPayoutJournal(url, name, { leaseMs: Number(lease) });
const rows = JSON.parse(readFileSync(rowsFile, 'utf8'));
let report;
try {
  report = await client.transfers.sendMany(rows, {
    signer: { privateKey: readFileSync(keyFile, 'utf8').trim() },
    journal,
    concurrency: 4,
    rowTimeoutMs: 60_000,
    maxCostSun: process.env.TRX_RENT_TEST_MAX_COST_SUN ? Number(process.env.TRX_RENT_TEST_MAX_COST_SUN) : undefined,
    onEvent: (e) => { if (e.event === 'confirmed') console.log('confirmed ' + e.id); },
  });
} catch (e) {
  const chain = [];
  for (let c = e; c && chain.length < 4; c = c.cause) chain.push({ code: c.code, message: c.message, details: c.details });
  console.error(JSON.stringify({ error: chain }, (_k, v) => (typeof v === 'bigint' ? String(v) : v)));
  process.exit(1);
}
console.log(JSON.stringify({ complete: report.complete, confirmed: report.confirmed }));
process.exit(report.complete ? 0 : 3);
`,
  );
  buildSync({ entryPoints: [source], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'error', external: ['tronweb', 'pg'] });
  return out;
}
