/**
 * `trx-rent store migrate [--dry-run]`: create or bring up to date the PostgreSQL store's tables
 * in its schema (under the migration lock, so workers starting together migrate once); with
 * `--dry-run`, list what would be applied and change nothing.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { ENV } from '../../settings.js';
import { requireStore } from '../../store-setting.js';

interface MigrateOptions {
  store?: string;
  dryRun?: boolean;
}

/** Register `store migrate` under `store`. */
export function registerStoreMigrate(store: Command): void {
  store
    .command('migrate')
    .description(
      "Create or update the PostgreSQL store's tables in its schema (versioned migrations, under a lock); --dry-run lists what would be applied and changes nothing.",
    )
    .usage('[--store postgres://…] [--dry-run] [--json]')
    .option('--store <url>', `the PostgreSQL store: postgres://user:password@host:5432/db?schema=trx_rent (env ${ENV.store})`)
    .option('--dry-run', 'only list the migrations that would be applied')
    .action(action<[], MigrateOptions>(runMigrate));
}

async function runMigrate(ctx: Context, { opts }: { opts: MigrateOptions }) {
  const { url } = requireStore(ctx, opts.store);
  const { postgresStore } = await import('../../../store/postgres.js');
  const store = postgresStore(url);
  try {
    const report = await store.migrate({ dryRun: opts.dryRun });
    ctx.out.result({ where: store.where, ...report }, () => {
      const head = `${store.where}: schema ${report.schema} at version ${report.from}`;
      if (!report.pending.length) return `${head}, up to date\n`;
      const list = report.pending.map((m) => `  ${m.version}  ${m.name}`).join('\n');
      return report.dryRun ? `${head}; would apply:\n${list}\n` : `${head}, now ${report.to}; applied:\n${list}\n`;
    });
  } finally {
    await store.close();
  }
}
