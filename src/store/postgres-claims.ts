/**
 * Row claims beside a PostgreSQL journal: the rows of a batch that several workers (processes,
 * hosts) drain together. Each row is claimed by one worker at a time in a transaction
 * (`FOR UPDATE SKIP LOCKED`: workers never wait on each other's rows) under a lease of the
 * database's clock, renewed while the worker lives, with a fencing token that grows at each claim.
 * A worker that dies leaves its rows to the next once their leases pass; a worker whose lease
 * passed cannot write its late records: {@link RowClaims.append} checks, in the journal write's own
 * transaction, that every row written about is still claimed by this worker with its token, and
 * marks a row done in that same transaction as its final record.
 * @module
 */
import { fencedError } from './errors.js';
import type { PostgresJournal } from './postgres.js';
import type { JournalRecord } from './types.js';

/** A row a record is about, and whether the record is the row's last (then the row is done). */
export interface ClaimedWrite {
  id: string;
  done: boolean;
}

/** The claims on the rows of one journal (see the module comment). */
export class RowClaims {
  readonly #journal: PostgresJournal;
  readonly #leaseMs: number;
  readonly #holder: string;
  /** Rows this worker holds: id to token. */
  readonly #held = new Map<string, string>();
  #timer: ReturnType<typeof setInterval> | undefined;

  /** Claims on `journal`'s rows, each held `leaseMs` without renewal (the store's lease by default). */
  constructor(journal: PostgresJournal, options: { leaseMs?: number | undefined } = {}) {
    this.#journal = journal;
    this.#leaseMs = options.leaseMs ?? journal.db.leaseMs;
    this.#holder = `${journal.db.me.id()}`;
  }

  get #sql() {
    const { pool, s } = this.#journal.db;
    return { pool, table: `${s}.row_claims` };
  }

  /** Put rows up for claiming (rows already there are left as they are). */
  async seed(ids: readonly string[]): Promise<void> {
    const { pool, table } = this.#sql;
    for (let i = 0; i < ids.length; i += 1_000) {
      await pool.query(`INSERT INTO ${table} (journal, row_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING`, [
        this.#journal.journal,
        ids.slice(i, i + 1_000),
      ]);
    }
  }

  /** Claim up to `n` open rows that no live lease holds; their ids. */
  async claim(n: number): Promise<string[]> {
    const { pool, table } = this.#sql;
    const { me } = this.#journal.db;
    const { rows } = await pool.query(
      `WITH c AS (
         SELECT row_id FROM ${table}
         WHERE journal = $1 AND state = 'open' AND (expires_at IS NULL OR expires_at <= now())
         ORDER BY row_id LIMIT $2 FOR UPDATE SKIP LOCKED)
       UPDATE ${table} p SET holder = $3, holder_pid = $4, holder_host = $5, token = p.token + 1, expires_at = now() + $6 * interval '1 millisecond'
       FROM c WHERE p.journal = $1 AND p.row_id = c.row_id
       RETURNING p.row_id, p.token::text AS token`,
      [this.#journal.journal, n, this.#holder, me.pid, me.host, this.#leaseMs],
    );
    for (const r of rows) this.#held.set(r.row_id as string, r.token as string);
    if (rows.length && !this.#timer) {
      this.#timer = setInterval(() => void this.#renew(), Math.max(50, Math.floor(this.#leaseMs / 3)));
      this.#timer.unref?.();
    }
    return rows.map((r) => r.row_id as string);
  }

  /** The rows not done yet (claimed or not). */
  async open(): Promise<number> {
    const { pool, table } = this.#sql;
    const { rows } = await pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE journal = $1 AND state = 'open'`, [this.#journal.journal]);
    return rows[0]!.n as number;
  }

  /** Whether this worker holds `id` (as far as it knows: the write decides). */
  holds(id: string): boolean {
    return this.#held.has(id);
  }

  /**
   * Append `records` to the journal, refused with JOURNAL_FENCED unless every row in `rows` is
   * still claimed by this worker with its token and its lease is live; rows with `done` are
   * marked done in the same transaction.
   */
  append(records: readonly JournalRecord[], rows: readonly ClaimedWrite[]): Promise<void> {
    if (!rows.length) return this.#journal.append(records);
    const table = this.#sql.table;
    return this.#journal
      .appendChecked(records, async (c) => {
        const ids = rows.map((r) => r.id);
        const { rows: found } = await c.query(
          `SELECT row_id, token::text AS token, state, expires_at > now() AS live FROM ${table} WHERE journal = $1 AND row_id = ANY($2::text[]) FOR UPDATE`,
          [this.#journal.journal, ids],
        );
        const byId = new Map(found.map((f) => [f.row_id as string, f]));
        for (const id of ids) {
          const mine = this.#held.get(id);
          const now = byId.get(id);
          if (!mine || !now || now.token !== mine || !now.live || now.state !== 'open') {
            this.#held.delete(id);
            throw fencedError(`${this.#journal.name} row ${id}`, mine ?? 'none', now && now.token !== mine ? (now.token as string) : undefined);
          }
        }
        const done = rows.filter((r) => r.done).map((r) => r.id);
        if (done.length)
          await c.query(`UPDATE ${table} SET state = 'done', expires_at = NULL WHERE journal = $1 AND row_id = ANY($2::text[])`, [this.#journal.journal, done]);
      })
      .then(() => {
        for (const r of rows) if (r.done) this.#held.delete(r.id);
      });
  }

  /** Give up `id` at once (a row left pending): another worker, or this one, may claim it again. */
  async release(id: string): Promise<void> {
    const token = this.#held.get(id);
    this.#held.delete(id);
    if (token === undefined) return;
    const { pool, table } = this.#sql;
    await pool
      .query(`UPDATE ${table} SET expires_at = now() WHERE journal = $1 AND row_id = $2 AND token = $3 AND state = 'open'`, [this.#journal.journal, id, token])
      .catch(() => {});
  }

  /** Push the leases of the rows held forward; a row whose lease passed (or was taken over) is dropped. */
  async #renew(): Promise<void> {
    if (!this.#held.size) return;
    const { pool, table } = this.#sql;
    const ids = [...this.#held.keys()];
    try {
      const { rows } = await pool.query(
        `UPDATE ${table} SET expires_at = now() + $4 * interval '1 millisecond'
         WHERE journal = $1 AND row_id = ANY($2::text[]) AND holder = $3 AND state = 'open' AND expires_at > now()
         RETURNING row_id, token::text AS token`,
        [this.#journal.journal, ids, this.#holder, this.#leaseMs],
      );
      const renewed = new Map(rows.map((r) => [r.row_id as string, r.token as string]));
      for (const id of ids) if (renewed.get(id) !== this.#held.get(id)) this.#held.delete(id);
    } catch {
      // The server is away for a moment: the next tick tries again (the leases may pass meanwhile).
    }
  }

  /** Stop renewing and give up the rows still held (another worker takes them at once). */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    for (const id of [...this.#held.keys()]) await this.release(id);
  }
}
