// The payout journal's resume cost: a 10,000-row batch's journal (estimates, records, finals) read
// and indexed by the one journal primitive (src/store + the payout view, bundled from the source
// with esbuild), against the per-row scan the runner did before (every row asked the whole
// journal whether it was final: quadratic), both on the same file in this run.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'trx-rent-bench-journal-'));
  const entry = join(dir, 'entry.ts');
  writeFileSync(entry, `export { openPayoutJournal } from ${JSON.stringify(join(ROOT, 'src/workflows/payouts/journal.ts'))};`);
  const out = join(dir, 'journal.mjs');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'error' });
  const { openPayoutJournal } = await import(out);
  const rows = 10_000;
  const lines = [JSON.stringify({ type: 'batch', key: 'pb-bench', from: 'T'.repeat(34), rows_hash: '0'.repeat(64), rows, margin_pct: 10, at: 1 })];
  for (let i = 0; i < rows; i++) lines.push(JSON.stringify({ type: 'estimated', id: `r${i}`, energy: 65_000, bandwidth: 345, holder: true }));
  for (let i = 0; i < rows; i++) {
    const tx = i.toString(16).padStart(64, '0');
    lines.push(
      JSON.stringify({
        type: 'record',
        record: {
          key: `pb-bench:r${i}`,
          tx_id: tx,
          signed: { txID: tx, raw_data: {}, raw_data_hex: 'ab'.repeat(160), signature: ['cd'.repeat(65)] },
          expiration: 2,
          from: 'T',
          to: 'T',
          contract: 'T',
          amount_atomic: '1',
          created_at: 1,
          broadcast_at: 1,
        },
      }),
    );
    if (i % 2 === 0) lines.push(JSON.stringify({ type: 'confirmed', id: `r${i}`, tx_id: tx, block: 1, energy_used: 65_000, fee_sun: 0, at: 3 }));
  }
  const path = join(dir, 'batch.journal');
  writeFileSync(path, `${lines.join('\n')}\n`);

  // After: read and index once, then each row's state is a lookup.
  let t = performance.now();
  const journal = await openPayoutJournal(path);
  let open = 0;
  for (let i = 0; i < rows; i++) if (!journal.index.finals.has(`r${i}`)) open++;
  const after = performance.now() - t;
  const entries = journal.entries();
  await journal.close();

  // Before: the same entries, and each row scanning all of them for its final line.
  t = performance.now();
  let openBefore = 0;
  for (let i = 0; i < rows; i++) if (!entries.some((e) => (e.type === 'confirmed' || e.type === 'failed') && e.id === `r${i}`)) openBefore++;
  const before = performance.now() - t;
  if (open !== openBefore) throw new Error(`the index and the scan disagree: ${open} against ${openBefore}`);
  return {
    title: `Resume cost: a ${rows.toLocaleString('en')}-row payout journal (${lines.length.toLocaleString('en')} lines)`,
    rows: [
      { name: "read + index + every row's state (the one primitive)", value: after, unit: 'ms' },
      { name: 'every row scanning the journal (before)', value: before, unit: 'ms' },
      { name: 'speed-up', value: before / after, unit: 'x', target: 'linear: the index reads each line once', ok: after < before },
    ],
  };
}
