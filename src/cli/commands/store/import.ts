/**
 * `trx-rent store import FILE [--name NAME]`: copy a file journal (a payout batch's
 * `payouts.csv.journal`, the config directory's `transfers/transfers.journal`) into the
 * PostgreSQL store, record for record, in order: the move from the file store to a shared
 * database. Refused when the store's journal of that name already holds records (nothing is
 * merged) or when the file's lock is held (a runner is using it).
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { CliError } from '../../errors.js';
import { ENV } from '../../settings.js';
import { requireStore } from '../../store-setting.js';

interface ImportOptions {
  store?: string;
  name?: string;
}

/** Register `store import` under `store`. */
export function registerStoreImport(store: Command): void {
  store
    .command('import')
    .description(
      "Copy a file journal (a batch's payouts.csv.journal, the config directory's transfers/transfers.journal) into the PostgreSQL store, in order. " +
        'The journal is named --name (default: the file name without .journal; a batch run with --store uses payouts:<batch file>). Refused when that journal already has records.',
    )
    .usage('FILE [--name NAME] [--store postgres://…] [--json]')
    .argument('<file>', 'the journal file')
    .option('--name <name>', "the journal's name in the store")
    .option('--store <url>', `the PostgreSQL store (env ${ENV.store})`)
    .action(action<[string], ImportOptions>(runImport));
}

async function runImport(ctx: Context, { args: [file], opts }: { args: [string]; opts: ImportOptions }) {
  const { url } = requireStore(ctx, opts.store);
  const { basename } = await import('node:path');
  const name = opts.name ?? basename(file).replace(/\.journal$/, '');
  const [{ openJournalFile }, { postgresStore }] = await Promise.all([import('../../../store/file.js'), import('../../../store/postgres.js')]);
  const source = await openJournalFile(file);
  const store = postgresStore(url);
  try {
    // The file's lock for the copy: no runner appends meanwhile.
    await source.hold();
    const records = await source.read();
    const target = await store.journal(name);
    const copied = await target.exclusive(async () => {
      const there = await target.read();
      if (there.length) {
        throw new CliError('JOURNAL_EXISTS', `${store.where} already has ${there.length} records in journal ${name}; nothing was imported`, {
          hint: 'import under another --name',
        });
      }
      for (let i = 0; i < records.length; i += 500) await target.append(records.slice(i, i + 500));
      return records.length;
    });
    await target.close();
    ctx.out.result(
      { where: store.where, journal: name, file: source.path, records: copied },
      () => `Imported ${copied} records from ${source.path} into ${store.where} journal ${name}\n`,
    );
  } finally {
    await source.close();
    await store.close();
  }
}
