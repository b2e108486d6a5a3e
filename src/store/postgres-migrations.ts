/**
 * The PostgreSQL store's tables, as numbered migrations applied in order inside one transaction
 * under an advisory lock (so two processes starting together migrate once), each recorded in
 * `<schema>.schema_migrations`. A database migrated by a newer version (a number this one does
 * not know) is refused rather than written with an older idea of its tables.
 * @module
 */
import { TrxRentError } from '../errors/index.js';
import type { PgQueryable } from './postgres-pg.js';

/** One migration: its number, a name for `trx-rent store migrate`, and its statements (`%s` is the quoted schema). */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: readonly string[];
}

/** Every migration this version knows, oldest first. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'journals: records and leases',
    sql: [
      // One row per record: a journal's records are numbered 1, 2, … under the journal's lock, so
      // a reader resumes after the last number it read. `json` keeps the record's text as written.
      `CREATE TABLE %s.journal_records (
        journal text NOT NULL,
        seq bigint NOT NULL,
        record json NOT NULL,
        written_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (journal, seq)
      )`,
      // One runner's hold on a journal: the token grows by one each time another takes it over
      // (the fencing token), and the lease ends at expires_at unless renewed (database time).
      `CREATE TABLE %s.journal_leases (
        journal text PRIMARY KEY,
        holder text NOT NULL,
        holder_pid integer,
        holder_host text,
        token bigint NOT NULL,
        expires_at timestamptz NOT NULL
      )`,
    ],
  },
  {
    version: 2,
    name: 'row claims: one worker per row under a lease with a fencing token',
    sql: [
      // One row of a shared batch (its journal's name and the row's id): open until its final
      // record is written (in the same transaction), claimed by one worker at a time until
      // expires_at (database time); token grows by one at each claim.
      `CREATE TABLE %s.row_claims (
        journal text NOT NULL,
        row_id text NOT NULL,
        state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'done')),
        holder text,
        holder_pid integer,
        holder_host text,
        token bigint NOT NULL DEFAULT 0,
        expires_at timestamptz,
        PRIMARY KEY (journal, row_id)
      )`,
      `CREATE INDEX row_claims_open ON %s.row_claims (journal, expires_at) WHERE state = 'open'`,
    ],
  },
];

/** The newest schema version this library writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** `"name"`: a schema name (already checked to be a plain identifier) quoted for SQL. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** What {@link migrate} found and did. */
export interface MigrationReport {
  schema: string;
  /** The version before (0: no tables yet). */
  from: number;
  /** The version after (the same as `from` on a dry run). */
  to: number;
  /** The migrations applied, or on a dry run the ones that would be. */
  pending: { version: number; name: string }[];
  dryRun: boolean;
}

/** The migration lock's key: one per schema (the 64-bit key space; journals use the two-key one). */
const LOCK = `SELECT pg_advisory_xact_lock(hashtext('trx-rent:migrate:' || $1::text)::bigint)`;

/**
 * Bring `schema` to {@link SCHEMA_VERSION} on `client` (a dedicated connection), in one
 * transaction under the migration lock; with `dryRun`, report what would be applied and change
 * nothing.
 */
export async function migrate(client: PgQueryable, schema: string, options: { dryRun?: boolean | undefined } = {}): Promise<MigrationReport> {
  const s = quoteIdent(schema);
  await client.query('BEGIN');
  try {
    await client.query(LOCK, [schema]);
    const exists = (await client.query(`SELECT to_regclass($1) IS NOT NULL AS present`, [`${s}.schema_migrations`])).rows[0]?.present === true;
    const applied = exists ? new Set((await client.query(`SELECT version FROM ${s}.schema_migrations`)).rows.map((r) => Number(r.version))) : new Set<number>();
    const from = Math.max(0, ...applied);
    if (from > SCHEMA_VERSION) {
      throw new TrxRentError({
        code: 'STORE_TOO_NEW',
        message: `The schema ${schema} is at version ${from}; this trx-rent knows versions up to ${SCHEMA_VERSION}. Upgrade trx-rent before using this database.`,
        details: { field: 'store' },
      });
    }
    const pending = MIGRATIONS.filter((m) => !applied.has(m.version));
    if (!options.dryRun) {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${s}.schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
      );
      for (const m of pending) {
        for (const statement of m.sql) await client.query(statement.replaceAll('%s', s));
        await client.query(`INSERT INTO ${s}.schema_migrations (version, name) VALUES ($1, $2)`, [m.version, m.name]);
      }
    }
    await client.query(options.dryRun ? 'ROLLBACK' : 'COMMIT');
    return {
      schema,
      from,
      to: options.dryRun ? from : Math.max(from, ...pending.map((m) => m.version)),
      pending: pending.map((m) => ({ version: m.version, name: m.name })),
      dryRun: options.dryRun === true,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
