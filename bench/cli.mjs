// CLI start-up: `trx-rent --version` against `node -e 0`, and `trx-rent prices --json` against a
// plain fetch script hitting the same loopback mock. Runs are interleaved (the four commands
// take turns, in rotating order) so every side sees the same machine state; medians of wall time.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './lib.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = fileURLToPath(new URL('../bin/trx-rent.js', import.meta.url));
const RUNS = Number(process.env.BENCH_CLI_RUNS ?? 20);

function wall(args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${err}`));
      else resolve({ ms, out });
    });
  });
}

export async function run() {
  const { startMockServer } = await import('../dist/mock/index.js');
  const mock = await startMockServer({ port: 0, rateLimits: false });
  const env = { ...process.env, NO_COLOR: '1', TRX_RENT_CONFIG_DIR: fileURLToPath(new URL('./results/.cli-config/', import.meta.url)) };
  for (const k of ['TRX_RENT_API_KEY', 'TRX_RENT_BASE_URL', 'TRX_RENT_PROFILE']) delete env[k];
  const pricesUrl = `${mock.url}/api/v1/prices`;
  const fetchScript = 'fetch(process.argv[1]).then((r) => r.text()).then((t) => process.stdout.write(t))';
  const cases = {
    nodeBaseline: ['-e', '0'],
    version: [BIN, '--version'],
    fetchBaseline: ['-e', fetchScript, pricesUrl],
    prices: [BIN, 'prices', '--json', '--base-url', mock.url],
  };
  const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  try {
    // Warm the file cache and check that both sides print the same providers.
    const viaCli = JSON.parse((await wall(cases.prices, env)).out);
    const viaFetch = JSON.parse((await wall(cases.fetchBaseline, env)).out);
    if (viaCli.length !== viaFetch.length) throw new Error('prices --json and the fetch script disagree');
    await wall(cases.version, env);
    const names = Object.keys(cases);
    for (let i = 0; i < RUNS; i++) {
      const order = names.map((_, j) => names[(i + j) % names.length]);
      for (const name of order) times[name].push((await wall(cases[name], env)).ms);
    }
  } finally {
    await mock.close();
  }
  const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  const versionRatio = m.version / m.nodeBaseline;
  const pricesRatio = m.prices / m.fetchBaseline;
  return {
    title: `CLI start-up (median wall time of ${RUNS} interleaved runs each)`,
    rows: [
      { name: 'node -e 0', value: m.nodeBaseline, unit: 'ms' },
      { name: 'trx-rent --version', value: m.version, unit: 'ms', baseline: m.nodeBaseline, ratio: versionRatio, target: '<= 1.5x', ok: versionRatio <= 1.5 },
      { name: 'plain fetch script (GET /api/v1/prices)', value: m.fetchBaseline, unit: 'ms' },
      { name: 'trx-rent prices --json', value: m.prices, unit: 'ms', baseline: m.fetchBaseline, ratio: pricesRatio, target: '<= 2.0x', ok: pricesRatio <= 2.0 },
    ],
  };
}
