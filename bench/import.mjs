// Import time of `trx-rent` vs importing ky and zod alone, each in a fresh node process.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './lib.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const time = (code) => {
  const t = process.hrtime.bigint();
  execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: 'ignore' });
  return Number(process.hrtime.bigint() - t) / 1e6;
};

export async function run() {
  const cases = {
    bare: 'void 0',
    kyZod: "await import('ky'); await import('zod');",
    trxRent: "await import('trx-rent');",
    webhooks: "await import('trx-rent/webhooks');",
  };
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (let i = 0; i < 12; i++) for (const [k, code] of Object.entries(cases)) samples[k].push(time(code));
  const m = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, median(v)]));
  const net = (k) => Math.max(0.01, m[k] - m.bare);
  return {
    title: 'Import time (fresh process, median of 12; net = minus bare node start)',
    rows: [
      { name: 'node start (no import)', value: m.bare, unit: 'ms' },
      { name: "import 'ky' + 'zod' (net)", value: net('kyZod'), unit: 'ms' },
      { name: "import 'trx-rent' (net)", value: net('trxRent'), unit: 'ms', baseline: net('kyZod'), ratio: net('trxRent') / net('kyZod') },
      { name: "import 'trx-rent/webhooks' (net)", value: net('webhooks'), unit: 'ms' },
    ],
  };
}
