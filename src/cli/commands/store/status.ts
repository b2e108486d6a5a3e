/**
 * `trx-rent store status`: what the PostgreSQL store holds, as a table or as JSON: its schema
 * version, each journal (records, last write, its holder's lease), each shared batch's rows by
 * state (open, claimed under a live lease, done), and the open leases. Read only; the URL's
 * password is never printed.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { ENV } from '../../settings.js';
import { requireStore } from '../../store-setting.js';

interface StatusOptions {
  store?: string;
}

/** Register `store status` under `store`. */
export function registerStoreStatus(store: Command): void {
  store
    .command('status')
    .description(
      "What the PostgreSQL store holds: schema version, journals (records, last write, holder), shared batches' rows by state (open, claimed, done) and open leases. Read only.",
    )
    .usage('[--store postgres://…] [--json]')
    .option('--store <url>', `the PostgreSQL store: postgres://user:password@host:5432/db?schema=trx_rent (env ${ENV.store})`)
    .action(action<[], StatusOptions>(runStatus));
}

async function runStatus(ctx: Context, { opts }: { opts: StatusOptions }) {
  const { url } = requireStore(ctx, opts.store);
  const { postgresStore } = await import('../../../store/postgres.js');
  const store = postgresStore(url);
  try {
    const { from: version } = await store.migrate({ dryRun: true });
    const status = await store.withClient(async (c, s) => {
      if (version === 0) return { journals: [], batches: [], leases: [] };
      const journals = (
        await c.query(
          `SELECT r.journal, count(*)::int AS records, max(r.written_at) AS last_write, l.holder_host, l.holder_pid, l.token::text AS token, l.expires_at > now() AS held
           FROM ${s}.journal_records r LEFT JOIN ${s}.journal_leases l ON l.journal = r.journal GROUP BY r.journal, l.holder_host, l.holder_pid, l.token, l.expires_at ORDER BY r.journal`,
        )
      ).rows;
      const batches = (
        await c.query(
          `SELECT journal, count(*) FILTER (WHERE state = 'done')::int AS done,
             count(*) FILTER (WHERE state = 'open' AND expires_at > now())::int AS claimed,
             count(*) FILTER (WHERE state = 'open' AND (expires_at IS NULL OR expires_at <= now()))::int AS open
           FROM ${s}.row_claims GROUP BY journal ORDER BY journal`,
        )
      ).rows;
      const leases = (
        await c.query(
          `SELECT 'journal' AS kind, journal, NULL AS row_id, holder_host, holder_pid, token::text AS token, expires_at FROM ${s}.journal_leases WHERE expires_at > now()
           UNION ALL SELECT 'row', journal, row_id, holder_host, holder_pid, token::text, expires_at FROM ${s}.row_claims WHERE state = 'open' AND expires_at > now()
           ORDER BY 2, 3`,
        )
      ).rows;
      return {
        journals: journals.map((j) => ({
          journal: j.journal as string,
          records: j.records as number,
          last_write: (j.last_write as Date).toISOString(),
          ...(j.held ? { holder: { host: j.holder_host, pid: j.holder_pid, token: j.token } } : {}),
        })),
        batches: batches.map((b) => ({ journal: b.journal as string, done: b.done as number, claimed: b.claimed as number, open: b.open as number })),
        leases: leases.map((l) => ({
          kind: l.kind as string,
          journal: l.journal as string,
          ...(l.row_id ? { row: l.row_id as string } : {}),
          host: l.holder_host,
          pid: l.holder_pid,
          token: l.token,
          expires_at: (l.expires_at as Date).toISOString(),
        })),
      };
    });
    ctx.out.result({ where: store.where, schema: store.schema, version, ...status }, () => {
      const lines = [`${store.where}: schema ${store.schema} at version ${version}${version === 0 ? ' (no tables yet: trx-rent store migrate)' : ''}`];
      if (status.journals.length) {
        lines.push('', 'JOURNAL'.padEnd(40) + 'RECORDS'.padStart(9) + '  LAST WRITE                HOLDER');
        for (const j of status.journals)
          lines.push(
            `${j.journal.padEnd(40)}${String(j.records).padStart(9)}  ${j.last_write.padEnd(26)}${j.holder ? `${j.holder.host} pid ${j.holder.pid} (token ${j.holder.token})` : '-'}`,
          );
      }
      if (status.batches.length) {
        lines.push('', 'SHARED BATCH'.padEnd(40) + 'DONE'.padStart(8) + 'CLAIMED'.padStart(9) + 'OPEN'.padStart(8));
        for (const b of status.batches)
          lines.push(`${b.journal.padEnd(40)}${String(b.done).padStart(8)}${String(b.claimed).padStart(9)}${String(b.open).padStart(8)}`);
      }
      lines.push('', `${status.leases.length} open lease${status.leases.length === 1 ? '' : 's'}`);
      for (const l of status.leases)
        lines.push(`  ${l.kind} ${l.journal}${l.row ? ` row ${l.row}` : ''}: ${l.host} pid ${l.pid}, token ${l.token}, until ${l.expires_at}`);
      return `${lines.join('\n')}\n`;
    });
  } finally {
    await store.close();
  }
}
