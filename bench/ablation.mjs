// What each part of the SDK's GET costs, by taking it out: `node bench/ablation.mjs [runs]`.
// Not part of `npm run bench` (it builds src/ three ways and takes about a minute); the README's
// Performance notes quote it.
//
// It builds src/ with tsup into bench/results/ablation/: as it is ("sdk"), with the deadline
// queue replaced by a no-op ("no-deadline", bench/ablation/no-deadline.ts), and a one-function GET
// that does the SDK's essential work ("minimal", bench/ablation/minimal-get.ts). Each variant is
// then alternated call by call with the SDK against the bench server in another process
// (lib.mjs `alternate`, 11 rounds of 300 calls), `runs` times; a ratio below 1 is what that part
// costs the SDK. Raw fetch is in the list as the ratio's usual reference.
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { alternate, median } from './lib.mjs';

const KEY = `sk_live_${'0'.repeat(64)}`;
const runs = Number(process.argv[2] ?? 6);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const outDir = here('./results/ablation');

const common = { format: ['esm'], platform: 'node', target: 'node20', outDir, config: false, silent: true, dts: false, splitting: false, sourcemap: false };
await build({ ...common, clean: true, entry: { sdk: here('../src/index.ts'), minimal: here('./ablation/minimal-get.ts') } });
const noDeadline = {
  name: 'no-deadline',
  setup(b) {
    b.onResolve({ filter: /^\.\/deadline\.js$/ }, (args) => (args.importer.endsWith('transport.ts') ? { path: here('./ablation/no-deadline.ts') } : undefined));
  },
};
await build({ ...common, entry: { 'no-deadline': here('../src/index.ts') }, esbuildPlugins: [noDeadline] });

const child = fork(here('./sdk-server.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const base = await new Promise((resolve) => child.once('message', ({ port }) => resolve(`http://127.0.0.1:${port}`)));
try {
  const url = `${base}/api/v1/prices`;
  const client = async (file) => {
    const { TrxRent } = await import(`${outDir}/${file}.js`);
    const c = new TrxRent({ baseUrl: base, apiKey: KEY });
    return () => c.prices.list();
  };
  const sdk = await client('sdk');
  const variants = {
    'no-deadline': await client('no-deadline'),
    minimal: (await import(`${outDir}/minimal.js`)).minimalGet(base, KEY),
    'raw fetch': async () => JSON.parse(await (await fetch(url, { headers: { accept: 'application/json', 'x-api-key': KEY } })).text()),
  };
  // Every variant must answer what the SDK answers.
  const expected = JSON.stringify(await sdk());
  for (const [name, fn] of Object.entries(variants)) {
    if (JSON.stringify(await fn()) !== expected) throw new Error(`${name} answers differently from the SDK`);
  }
  const rows = [];
  for (const [name, fn] of Object.entries(variants)) {
    const ratios = [];
    for (let i = 0; i < runs; i++) {
      const r = await alternate({ sdk, other: fn }, { rounds: 11, n: 300, warmup: i ? 300 : 2000 });
      ratios.push(r.other / r.sdk);
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    rows.push({ variant: name, 'vs sdk (median)': `${median(ratios).toFixed(4)}x`, range: `${sorted[0].toFixed(4)}x-${sorted.at(-1).toFixed(4)}x`, runs });
  }
  console.log(`GET /api/v1/prices, each variant alternated with the SDK (${process.version})`);
  console.table(rows);
} finally {
  child.disconnect();
}
