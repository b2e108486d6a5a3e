// `npm run bench`: every figure is measured side by side in this one run, on loopback only.
// Each section module exports `run()` -> { title, rows: [{ name, value, unit, baseline?, ratio?, target? }] }.
import { mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';

const sections = [
  'sdk',
  'webhooks',
  'mock',
  'mock-processes',
  'mock-soak',
  'cli',
  'memory',
  'rules',
  'payouts',
  'sweep',
  'journal',
  'store',
  'payouts-workers',
  'import',
  'footprint',
  'install',
];
const only = process.argv.slice(2);
const results = [];
for (const name of sections) {
  if (only.length && !only.includes(name)) continue;
  const file = new URL(`./${name}.mjs`, import.meta.url);
  if (!existsSync(file)) continue;
  const mod = await import(file.href);
  const section = await mod.run();
  results.push({ section: name, ...section });
  printSection(section);
}
await mkdir(new URL('./results/', import.meta.url), { recursive: true });
const out = new URL('./results/latest.json', import.meta.url);
await writeFile(out, JSON.stringify({ node: process.version, date: new Date().toISOString(), results }, null, 2));
console.log(`\nResults written to ${out.pathname}`);

function printSection({ title, rows }) {
  console.log(`\n## ${title}`);
  const table = rows.map((r) => ({
    measure: r.name,
    value: `${fmt(r.value)} ${r.unit ?? ''}`.trim(),
    baseline: r.baseline === undefined ? '' : `${fmt(r.baseline)} ${r.unit ?? ''}`.trim(),
    ratio: r.ratio === undefined ? '' : `${r.ratio.toFixed(2)}x`,
    target: r.target ?? '',
    ok: r.ok === undefined ? '' : r.ok ? 'yes' : 'NO',
  }));
  console.table(table);
}

function fmt(v) {
  if (typeof v !== 'number') return String(v);
  return v >= 100 ? v.toFixed(0) : v >= 1 ? v.toFixed(2) : v.toFixed(4);
}
