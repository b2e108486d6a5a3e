/**
 * Journals in PostgreSQL, for several processes on several hosts sharing one database (Node
 * only; `pg` is an optional peer, imported on the first query). The store's tables live in a
 * schema the user names (`postgres-migrations.ts` creates and migrates them on first use, under
 * an advisory lock). A journal is the rows of `journal_records` with its name, numbered 1, 2, …:
 *
 * - **Lock.** Every write takes the journal's advisory lock (the two-key form: the schema's hash
 *   and the journal's) for its transaction; {@link PostgresJournal.exclusive} takes it for the
 *   session around the caller's function, on one connection that every read and append of the
 *   section uses, so what `read()` returns inside is everything there is, across processes and
 *   hosts. The lock goes with the connection: a holder that dies or loses the server holds
 *   nothing, and its section's next write fails.
 * - **Hold.** {@link PostgresJournal.hold} is a lease row (`journal_leases`) rather than a lock
 *   kept open: it names the holder, ends at a time of the database's clock (the holders' clocks
 *   do not matter) unless renewed, and carries a fencing token that grows by one at each
 *   takeover. Every append checks, inside its transaction, that the lease is still the holder's
 *   and live; a holder that stalled past its lease (another took over, or not) has its late
 *   write refused with JOURNAL_FENCED. Others' writes and sections wait or are refused
 *   (JOURNAL_LOCKED) while a live lease is someone else's.
 * - **Where.** The store's `where` is its URL with the password masked; credentials are only
 *   ever handed to `pg`.
 * @module
 */
import { TrxRentError } from '../errors/index.js';
import { corruptError, fencedError, lockedError } from './errors.js';
import { type MigrationReport, migrate, quoteIdent } from './postgres-migrations.js';
import { type PgClient, type PgPool, type PgQueryable, checkout, newPool, waitForAdvisoryLock } from './postgres-pg.js';
import { DEFAULT_LEASE_MS, parsePostgresUrl } from './postgres-url.js';
import { sleep, whoAmI } from './postgres-who.js';
import type { Journal, JournalRecord, Store } from './types.js';
import type { Db, LeaseRow, PostgresStoreOptions } from './postgres-types.js';

export type { PostgresStoreOptions } from './postgres-types.js';

/** How long an exclusive section waits for another holder by default, ms (as the file store). */
const DEFAULT_WAIT_MS = 30_000;

/** A journal in PostgreSQL. Open it with `postgresStore(url).journal(name)`. */
export class PostgresJournal<R extends JournalRecord = JournalRecord> implements Journal<R> {
  readonly name: string;
  /** The journal's name in the store (its rows' `journal`). */
  readonly journal: string;
  readonly #db: Db;
  readonly #id: string;
  /** The last record number this instance has read. */
  #seq = 0;
  /** The connection an exclusive section holds the lock on; every query of this instance uses it meanwhile. */
  #pinned: PgClient | undefined;
  /** The hold: its fencing token and the renewal timer. */
  #lease: { token: string; timer: ReturnType<typeof setInterval>; lost: boolean } | undefined;
  /** This instance's queries one at a time (a connection runs one transaction at a time). */
  #ops: Promise<unknown> = Promise.resolve();
  /** In-process turn for exclusive sections. */
  #turn: Promise<void> = Promise.resolve();
  #closed = false;

  /** @internal Made by {@link PostgresStore.journal}. */
  constructor(db: Db, journal: string) {
    this.#db = db;
    this.journal = journal;
    this.name = `${db.where} journal ${journal}`;
    this.#id = db.me.id();
  }

  /** The store's pool and settings, for an extension beside the journal (row claims). @internal */
  get db(): { pool: PgPool; s: string; leaseMs: number; me: { pid: number; host: string; id(): string } } {
    return this.#db;
  }

  /** The fencing token of this instance's hold, while it holds the journal. */
  get token(): string | undefined {
    return this.#lease?.token;
  }

  /** Run `fn` after this instance's queries before it, on the section's connection or a pooled one. */
  #op<T>(fn: (c: PgQueryable) => Promise<T>, transaction = false): Promise<T> {
    const run = async () => {
      if (this.#closed) throw new Error(`${this.name} is closed`);
      const pinned = this.#pinned;
      const client = pinned ?? (await checkout(this.#db.pool));
      let broken: Error | undefined;
      try {
        if (!transaction) return await fn(client);
        await client.query('BEGIN');
        try {
          const out = await fn(client);
          await client.query('COMMIT');
          return out;
        } catch (error) {
          await client.query('ROLLBACK').catch((e: Error) => (broken = e));
          throw error;
        }
      } catch (error) {
        // A refusal of ours left the connection sound; anything else may have broken it.
        if (!(error instanceof TrxRentError)) broken ??= error as Error;
        throw error;
      } finally {
        if (!pinned) (client as PgClient).release(broken);
      }
    };
    return this.#queue(run);
  }

  /** The journal's two lock keys, as SQL arguments $1 (schema) and $2 (journal) of `pg_*advisory*`. */
  #lockArgs(): [string, string] {
    return [this.#db.schema, this.journal];
  }

  async read(): Promise<R[]> {
    return this.#op((c) => this.#readOn(c));
  }

  async #readOn(c: PgQueryable): Promise<R[]> {
    const { rows } = await c.query(`SELECT seq, record FROM ${this.#db.s}.journal_records WHERE journal = $1 AND seq > $2 ORDER BY seq`, [
      this.journal,
      this.#seq,
    ]);
    const out: R[] = [];
    for (const row of rows) {
      const seq = Number(row.seq);
      if (seq !== this.#seq + 1) throw corruptError(this.name, this.#seq + 1, `record ${this.#seq + 1} is missing (the next is ${seq})`);
      const value = row.record as unknown;
      if (value === null || typeof value !== 'object' || Array.isArray(value)) throw corruptError(this.name, seq, 'not a record');
      out.push(value as R);
      this.#seq = seq;
    }
    return out;
  }

  /** The journal's lease as it stands (inside the caller's transaction). */
  async #leaseOn(c: PgQueryable): Promise<LeaseRow | undefined> {
    const { rows } = await c.query(
      `SELECT holder, holder_pid, holder_host, token::text AS token, expires_at > now() AS live FROM ${this.#db.s}.journal_leases WHERE journal = $1`,
      [this.journal],
    );
    return rows[0] as LeaseRow | undefined;
  }

  /** Inside a write's transaction, under the lock: refuse when the hold is not ours (fenced) or another's is live (locked). */
  async #checkLease(c: PgQueryable): Promise<void> {
    const row = await this.#leaseOn(c);
    if (this.#lease) {
      if (!row || row.token !== this.#lease.token || !row.live) {
        this.#lease.lost = true;
        throw fencedError(this.name, this.#lease.token, row && row.token !== this.#lease.token ? row.token : undefined);
      }
      return;
    }
    if (row?.live) throw lockedError(this.name, { pid: row.holder_pid, host: row.holder_host }, `${this.#db.s}.journal_leases`);
  }

  append(records: readonly R[]): Promise<void> {
    return this.appendChecked(records);
  }

  /**
   * {@link append}, with `check` run first inside the same transaction, under the journal's lock:
   * it throws to refuse the write (a claim's fencing token that is no longer current), or writes
   * beside the records (a claim marked done with its row's final record), all or nothing.
   */
  appendChecked(records: readonly R[], check?: (client: PgQueryable, schema: string) => Promise<void>): Promise<void> {
    if (!records.length) return Promise.resolve();
    const texts = records.map((r) => JSON.stringify(r));
    return this.#op(async (c) => {
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', this.#lockArgs());
      await this.#checkLease(c);
      if (check) await check(c, this.#db.s);
      const { rows } = await c.query(`SELECT coalesce(max(seq), 0)::text AS last FROM ${this.#db.s}.journal_records WHERE journal = $1`, [this.journal]);
      await c.query(
        `INSERT INTO ${this.#db.s}.journal_records (journal, seq, record) SELECT $1, $2::bigint + n, r::json FROM unnest($3::text[]) WITH ORDINALITY AS x(r, n)`,
        [this.journal, rows[0]!.last, texts],
      );
    }, true);
  }

  async exclusive<T>(fn: () => Promise<T>, options: { signal?: AbortSignal | undefined; waitMs?: number | undefined } = {}): Promise<T> {
    if (this.#lease) return fn();
    const before = this.#turn;
    let release!: () => void;
    this.#turn = before.then(() => new Promise<void>((resolve) => (release = resolve)));
    await before;
    try {
      // Taken in this instance's turn of queries: the queries before it end first (a write of
      // ours waiting for the lock on another connection while we held it would never end), and
      // every query after it, until the section ends, runs on the section's connection.
      const client = await this.#queue(async () => (this.#pinned = await this.#lock(options.waitMs ?? DEFAULT_WAIT_MS, options.signal)));
      try {
        return await fn();
      } finally {
        // Every write begun in the section ends before the lock is let go.
        await this.#queue(async () => {
          this.#pinned = undefined;
          let broken: Error | undefined;
          await client.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', this.#lockArgs()).catch((e: Error) => (broken = e));
          client.release(broken);
        });
      }
    } finally {
      release();
    }
  }

  /** Run `fn` in this instance's turn of queries (after every query queued before it). */
  #queue<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#ops.then(fn, fn);
    this.#ops = next.catch(() => {});
    return next;
  }

  /**
   * Take the journal's session lock on a connection of its own, waiting up to `waitMs` (and for
   * another's live lease to end). The wait for the lock is the server's own queue (a blocking
   * `pg_advisory_lock` under `lock_timeout`, in slices of at most a second so an abort is heard):
   * the next waiter gets it the moment it is let go, however many processes contend.
   */
  async #lock(waitMs: number, signal?: AbortSignal): Promise<PgClient> {
    const deadline = Date.now() + waitMs;
    let pause = 20;
    for (;;) {
      signal?.throwIfAborted();
      const client = await checkout(this.#db.pool);
      let held: LeaseRow | undefined;
      try {
        if (await waitForAdvisoryLock(client, this.#lockArgs(), Math.max(1, Math.min(1_000, deadline - Date.now())))) {
          const row = await this.#leaseOn(client);
          if (!row?.live) return client;
          held = row;
          await client.query('SELECT pg_advisory_unlock(hashtext($1), hashtext($2))', this.#lockArgs());
        }
        client.release();
      } catch (error) {
        client.release(error as Error);
        throw error;
      }
      if (Date.now() >= deadline) {
        throw lockedError(
          this.name,
          held ? { pid: held.holder_pid, host: held.holder_host } : undefined,
          `the advisory lock of ${this.journal} in ${this.#db.s}`,
        );
      }
      // Another's live lease (a hold) is not a queue: look again after a pause.
      if (held) {
        await sleep(Math.min(pause, Math.max(1, deadline - Date.now())), signal);
        pause = Math.min(pause * 2, 500);
      }
    }
  }

  async hold(): Promise<void> {
    if (this.#lease) return;
    const { leaseMs, me } = this.#db;
    const token = await this.#op(async (c) => {
      await c.query(`SET LOCAL lock_timeout = ${DEFAULT_WAIT_MS}`);
      await c.query('SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))', this.#lockArgs());
      const { rows } = await c.query(
        `INSERT INTO ${this.#db.s}.journal_leases AS l (journal, holder, holder_pid, holder_host, token, expires_at)
         VALUES ($1, $2, $3, $4, 1, now() + $5 * interval '1 millisecond')
         ON CONFLICT (journal) DO UPDATE SET holder = EXCLUDED.holder, holder_pid = EXCLUDED.holder_pid, holder_host = EXCLUDED.holder_host,
           token = l.token + 1, expires_at = EXCLUDED.expires_at
         WHERE l.expires_at <= now()
         RETURNING token::text AS token`,
        [this.journal, this.#id, me.pid, me.host, leaseMs],
      );
      if (rows[0]) return rows[0].token as string;
      const row = await this.#leaseOn(c);
      throw lockedError(this.name, row ? { pid: row.holder_pid, host: row.holder_host } : undefined, `${this.#db.s}.journal_leases`);
    }, true);
    const lease = { token, lost: false, timer: setInterval(() => void this.#renew(), Math.max(50, Math.floor(leaseMs / 3))) };
    lease.timer.unref?.();
    this.#lease = lease;
  }

  /** Push the lease's end forward while it is still ours and live; once lost, stop (appends are refused). */
  async #renew(): Promise<void> {
    const lease = this.#lease;
    if (!lease || lease.lost) return;
    try {
      const { rowCount } = await this.#db.pool.query(
        `UPDATE ${this.#db.s}.journal_leases SET expires_at = now() + $3 * interval '1 millisecond' WHERE journal = $1 AND token = $2 AND expires_at > now()`,
        [this.journal, lease.token, this.#db.leaseMs],
      );
      if (rowCount === 0) {
        lease.lost = true;
        clearInterval(lease.timer);
      }
    } catch {
      // The server is away for a moment: try again at the next tick (the lease may pass meanwhile).
    }
  }

  size(): number {
    return this.#seq;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    await this.#ops;
    const lease = this.#lease;
    this.#lease = undefined;
    if (lease) {
      clearInterval(lease.timer);
      await this.#db.pool.query(`DELETE FROM ${this.#db.s}.journal_leases WHERE journal = $1 AND token = $2`, [this.journal, lease.token]).catch(() => {});
    }
    this.#closed = true;
  }
}

/** A store of journals in one PostgreSQL database's schema (see the module comment). Make one with {@link postgresStore}. */
export class PostgresStore implements Store {
  readonly kind = 'postgres';
  /** The URL with its password masked (and the schema named). */
  readonly where: string;
  /** The schema the tables live in. */
  readonly schema: string;
  /** How long a hold lasts without renewal, ms. */
  readonly leaseMs: number;
  readonly #connectionString: string;
  readonly #poolSize: number;
  #db: Promise<Db> | undefined;
  #migrated: Promise<MigrationReport> | undefined;

  constructor(url: string, options: PostgresStoreOptions = {}) {
    const address = parsePostgresUrl(url, options.schema);
    this.where = address.where;
    this.schema = address.schema;
    this.#connectionString = address.connectionString;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    if (!Number.isSafeInteger(this.leaseMs) || this.leaseMs < 100)
      throw new RangeError(`leaseMs must be a whole number of milliseconds, at least 100 (got ${options.leaseMs})`);
    this.#poolSize = options.poolSize ?? 5;
  }

  /** The pool and settings, made on first use (importing `pg`). */
  #open(): Promise<Db> {
    this.#db ??= Promise.all([
      newPool({
        connectionString: this.#connectionString,
        max: this.#poolSize,
        application_name: 'trx-rent',
        connectionTimeoutMillis: 10_000,
        idleTimeoutMillis: 10_000,
      }),
      whoAmI(),
    ]).then(([pool, me]) => ({ pool, schema: this.schema, s: quoteIdent(this.schema), where: this.where, leaseMs: this.leaseMs, me }));
    this.#db.catch(() => (this.#db = undefined));
    return this.#db;
  }

  /** Run `fn` on one connection of the pool (released after, destroyed when it broke). */
  async withClient<T>(fn: (client: PgClient, schema: string) => Promise<T>): Promise<T> {
    const db = await this.#open();
    const client = await checkout(db.pool);
    try {
      const out = await fn(client, db.s);
      client.release();
      return out;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  }

  /** Create or bring the store's tables up to date (under the migration lock); with `dryRun`, only report what would be applied. */
  migrate(options: { dryRun?: boolean | undefined } = {}): Promise<MigrationReport> {
    if (options.dryRun) return this.withClient((c) => migrate(c, this.schema, { dryRun: true }));
    this.#migrated ??= this.withClient((c) => migrate(c, this.schema));
    this.#migrated.catch(() => (this.#migrated = undefined));
    return this.#migrated;
  }

  async journal<R extends JournalRecord = JournalRecord>(name: string): Promise<Journal<R>> {
    if (typeof name !== 'string' || name === '' || name.length > 200)
      throw new RangeError(`a journal name is 1 to 200 characters (got ${JSON.stringify(name)})`);
    await this.migrate();
    return new PostgresJournal<R>(await this.#open(), name);
  }

  async close(): Promise<void> {
    const db = this.#db;
    this.#db = undefined;
    this.#migrated = undefined;
    if (db) await (await db).pool.end();
  }
}

/**
 * A store in the PostgreSQL database at `url` (`postgres://user:password@host:5432/db?schema=trx_rent`).
 * Nothing connects until a journal is opened; the tables are created or migrated then.
 */
export function postgresStore(url: string, options?: PostgresStoreOptions): PostgresStore {
  return new PostgresStore(url, options);
}
