/**
 * The PostgreSQL store's shapes: its options, what its journals share, a lease row.
 * Types only.
 * @module
 */
import type { PgPool } from './postgres-pg.js';
import type { Me } from './postgres-who.js';
import type { StoreOptions } from './types.js';

/** Options of `postgresStore(url, options)`. */
export interface PostgresStoreOptions extends StoreOptions {
  /** The schema for the store's tables (else the URL's `?schema=`, else `trx_rent`). */
  schema?: string | undefined;
  /** How long a hold lasts without renewal, ms (renewed every third of it while the holder runs). @default 15000 */
  leaseMs?: number | undefined;
  /** Connections this process opens at most. @default 5 */
  poolSize?: number | undefined;
}

/** What the journals of one store share: the pool, the schema and the settings. */
export interface Db {
  pool: PgPool;
  schema: string;
  /** The quoted schema, for SQL. */
  s: string;
  where: string;
  leaseMs: number;
  me: Me;
}

/** A lease row as read inside a transaction. */
export interface LeaseRow {
  holder: string;
  holder_pid: number | null;
  holder_host: string | null;
  token: string;
  live: boolean;
}
