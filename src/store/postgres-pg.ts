/**
 * The part of `pg` (the optional peer, loaded through `src/peers` on the first query) that the
 * PostgreSQL store uses: a pool of connections, each answering queries in order. Declared here so
 * the library's types need no `@types/pg`.
 * @module
 */
import { loadPg } from '../peers/index.js';

/** A query's answer: its rows (column name to value) and how many rows it touched. */
export interface PgResult {
  // biome-ignore lint/suspicious/noExplicitAny: a row's columns are what the query selects
  rows: Record<string, any>[];
  rowCount: number | null;
}

/** Anything that runs a query: a pool or one connection. */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<PgResult>;
}

/** One connection taken from the pool; `release(error)` destroys it instead of returning it. */
export interface PgClient extends PgQueryable {
  release(destroy?: Error | boolean): void;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** A pool of connections. */
export interface PgPool extends PgQueryable {
  connect(): Promise<PgClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** What the store passes to `new pg.Pool`. */
export interface PgPoolConfig {
  connectionString: string;
  max: number;
  application_name: string;
  connectionTimeoutMillis: number;
  idleTimeoutMillis: number;
}

/** `new pg.Pool(config)`, importing `pg` first (MissingPeerDependencyError naming `npm install pg@…` when absent). */
export async function newPool(config: PgPoolConfig): Promise<PgPool> {
  const mod = (await loadPg()) as { Pool?: new (c: PgPoolConfig) => PgPool; default?: { Pool: new (c: PgPoolConfig) => PgPool } };
  const Pool = mod.Pool ?? mod.default?.Pool;
  if (!Pool) throw new TypeError('the pg module has no Pool export');
  const pool = new Pool(config);
  // An idle connection the server closed (a restart) is dropped from the pool; the next query opens another.
  pool.on('error', () => {});
  return pool;
}

const listened = new WeakSet<PgClient>();

/**
 * A connection from `pool`. A connection the server closes while it is taken (a restart) fails
 * its next query; the error it also emits is not left unhandled (that would end the process).
 */
export async function checkout(pool: PgPool): Promise<PgClient> {
  const client = await pool.connect();
  if (!listened.has(client)) {
    listened.add(client);
    client.on('error', () => {});
  }
  return client;
}

/** SQLSTATE of a lock wait that ran past `lock_timeout`. */
const LOCK_NOT_AVAILABLE = '55P03';

/** `value` as an SQL string literal (standard_conforming_strings: only `'` is special). */
function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/**
 * Wait up to `ms` in the server's queue for the two-key session advisory lock `keys` (hashed
 * with `hashtext`) on `client`; false when the wait ran out. The lock is the session's: it
 * outlives the transaction that only bounds the wait. One round trip (the statements sent
 * together, the keys as literals), a second only when the wait ran out.
 */
export async function waitForAdvisoryLock(client: PgQueryable, keys: [string, string], ms: number): Promise<boolean> {
  try {
    await client.query(
      `BEGIN; SET LOCAL lock_timeout = ${Math.max(1, Math.floor(ms))}; SELECT pg_advisory_lock(hashtext(${literal(keys[0])}), hashtext(${literal(keys[1])})); COMMIT`,
    );
    return true;
  } catch (error) {
    await client.query('ROLLBACK');
    if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) return false;
    throw error;
  }
}
