/**
 * The spend caps of several MCP servers on one store (`trx-rent mcp --store postgres://…`): the
 * servers share the spend journal `mcp.spends`, and each one's caps count what all of them did.
 *
 * - **Reserve.** A spend's session-cap check, its reservation and its `spend` record (the server,
 *   what it holds per currency) happen in one section under the journal's lock, after reading
 *   every record the others wrote: two servers cannot both take the last of the cap.
 * - **Mirror.** Another server's `spend` is held here as a reservation (whatever the cap: it was
 *   checked where it was made) until its `settled` record, which counts what it names
 *   (`counted`). A server that starts counts every spend settled on the store before it: the
 *   allowance is the store's, across servers and restarts.
 * - **Liveness.** Each server holds the journal `mcp.server.<id>` while it runs (on PostgreSQL a
 *   lease renewed on the database's clock). An open spend whose server no longer holds its own
 *   journal was left by a server that died: the first server to take that hold adopts its open
 *   spends (and keeps the hold, so no other server adopts them too), looks them up like its own
 *   unknown outcomes, or counts one that has nothing to look up by (`lookup: false`) as spent.
 *   An x402 payment it adopts is returned like the others, for the guard to count against this
 *   server's x402 budget (`SpendRecords.carry`): the paid API keeps no idempotency.
 *
 * Every kind of record of the file journal goes here too: a keyed POST's request (create_order,
 * withdraw: replayed with its key by whichever server adopts it, or answers a retry on any
 * server), an x402 payment's quote, `answered`. Each spend this server writes is stamped with it.
 * @module
 */
import { randomUUID } from 'node:crypto';
import type { Journal, Store } from '../store/types.js';
import type { Reservation, SpendingCap } from '../utils/spending-cap.js';
import type { Currency, Journaled } from './outcome.js';
import { type SpendRequest, checkSessionCap, perCurrency } from './spend-caps.js';
import type { EffectsSnapshot } from './effects.js';
import { type OpenSpend, type SpendRecord, SpendJournal } from './spend-journal.js';

/** The spend journal servers on one store share. */
export const SHARED_SPENDS_JOURNAL = 'mcp.spends';
/** The transfer records of the servers on one store (send_token's signed transactions). */
export const SHARED_TRANSFERS_JOURNAL = 'mcp.transfers';

/** The journal a server holds while it runs (its liveness). */
const liveness = (server: string) => `mcp.server.${server}`;

/** Another server's open spend, held here until it settles. */
interface Mirrored {
  server: string;
  held: Map<Currency, Reservation>;
}

/** An adopted spend: what the guard holds it with until its lookup settles it. */
export interface Adopted {
  open: OpenSpend;
  held: Map<Currency, Reservation>;
  settled: Set<Currency>;
}

/** The caps shared by the servers on one store (see the module comment). */
export class SharedSpends {
  /** This server's id in the records. */
  readonly server: string;
  readonly journal: SpendJournal;
  readonly #store: Store;
  readonly #caps: Record<Currency, SpendingCap>;
  readonly #sessionAtomic: bigint;
  /** Keys this server settles itself (its own spends and those it adopted): their records are not mirrored. */
  readonly #local = new Set<string>();
  readonly #mirrored = new Map<string, Mirrored>();
  /** The journals held: this server's liveness, and those of the dead servers whose spends it adopted. */
  readonly #holds: Journal[] = [];

  private constructor(store: Store, journal: Journal, caps: Record<Currency, SpendingCap>, sessionAtomic: bigint, server: string) {
    this.#store = store;
    this.#caps = caps;
    this.#sessionAtomic = sessionAtomic;
    this.server = server;
    this.journal = new SpendJournal(journal, { onRecord: (r) => this.#fold(r), owner: { server, own: (key) => this.#local.add(key) } });
  }

  /** Join the servers on `store`: hold this server's liveness journal and read every spend recorded there. */
  static async open(store: Store, caps: Record<Currency, SpendingCap>, sessionAtomic: bigint): Promise<SharedSpends> {
    const server = randomUUID();
    const live = await store.journal(liveness(server));
    await live.hold();
    const shared = new SharedSpends(store, await store.journal(SHARED_SPENDS_JOURNAL), caps, sessionAtomic, server);
    shared.#holds.push(live);
    await shared.journal.sync();
    return shared;
  }

  /** Fold one record another server wrote into the caps (this server's own are applied where they happen). */
  #fold(r: SpendRecord): void {
    if (this.#local.has(r.key)) return;
    if (r.type === 'spend') {
      const held = new Map<Currency, Reservation>();
      for (const [currency, atomic] of Object.entries(r.held ?? {}) as Array<[Currency, string]>) {
        const cap = this.#caps[currency];
        if (cap) held.set(currency, cap.reserve(BigInt(atomic), { force: true })!);
      }
      this.#mirrored.set(r.key, { server: r.server ?? '', held });
    } else if (r.type === 'settled') {
      const mirrored = this.#mirrored.get(r.key);
      this.#mirrored.delete(r.key);
      for (const reservation of mirrored?.held.values() ?? []) reservation.release();
      for (const [currency, atomic] of Object.entries(r.counted ?? {}) as Array<[Currency, string]>) this.#caps[currency]?.record(BigInt(atomic));
    }
  }

  /**
   * Under the journal's lock, after reading the others' records: the session cap of every line
   * checked (SESSION_LIMIT when the servers together are past it), each currency reserved, and
   * the spend written with its server, at `at` (ms), with what the journal keeps of it
   * (`journaled`: none, nothing to look it up by). A journal that cannot be written reserves nothing.
   */
  reserve(request: SpendRequest, key: string, journaled: Journaled | undefined, at: number): Promise<Map<Currency, Reservation>> {
    return this.journal.exclusive(async () => {
      await this.journal.sync();
      for (const line of request.lines) checkSessionCap(request, line, this.#caps[line.currency], this.#sessionAtomic);
      const held = new Map<Currency, Reservation>();
      for (const [currency, atomic] of perCurrency(request)) held.set(currency, this.#caps[currency].reserve(atomic)!);
      this.#local.add(key);
      try {
        await this.journal.opened({
          key,
          server: this.server,
          ...(journaled ? {} : { lookup: false as const }),
          tool: request.tool,
          summary: request.summary,
          held: Object.fromEntries([...held].map(([c, r]) => [c, r.amount])),
          at,
          token: journaled?.token,
          effects: journaled?.effects?.snapshot() as EffectsSnapshot | undefined,
          request: journaled?.request,
        });
      } catch (error) {
        for (const reservation of held.values()) reservation.release();
        this.#local.delete(key);
        throw error;
      }
      return held;
    });
  }

  /**
   * The open spends of servers that died, adopted by this one (each dead server's liveness
   * journal is held from now on, so no other server adopts them too). A spend with nothing to
   * look it up by is counted as spent at what it held, and settled, here; the others are returned
   * for the guard to look up.
   */
  async adopt(log: (line: string) => void): Promise<Adopted[]> {
    await this.journal.sync();
    const byServer = new Map<string, string[]>();
    for (const [key, m] of this.#mirrored) byServer.set(m.server, [...(byServer.get(m.server) ?? []), key]);
    if (!byServer.size) return [];
    const open = new Map((await this.journal.unsettled()).map((s) => [s.key, s]));
    const out: Adopted[] = [];
    for (const [server, keys] of byServer) {
      if (!/^[A-Za-z0-9-]{1,64}$/.test(server)) continue; // a record without a server of this kind: not ours to decide
      const probe = await this.#store.journal(liveness(server));
      try {
        await probe.hold();
      } catch (error) {
        await probe.close();
        if ((error as { code?: string }).code === 'JOURNAL_LOCKED') continue; // alive, or adopted by another server
        throw error;
      }
      this.#holds.push(probe);
      for (const key of keys) {
        const mirrored = this.#mirrored.get(key);
        const spend = open.get(key);
        this.#mirrored.delete(key);
        if (!mirrored || !spend) continue;
        this.#local.add(key);
        if (spend.lookup === false) {
          const counted = new Map<Currency, bigint>();
          for (const [currency, reservation] of mirrored.held) {
            counted.set(currency, reservation.amount);
            reservation.commit();
          }
          await this.journal.settled(key, { verdict: 'spent', answered: false, counted });
          log(`counted ${spend.tool} (left open by a server that stopped; nothing to look it up by): ${spend.summary}`);
        } else out.push({ open: spend, held: mirrored.held, settled: new Set() });
      }
    }
    return out;
  }

  /** Let go of the holds (this server's liveness, and the adopted servers'). */
  async close(): Promise<void> {
    for (const hold of this.#holds.splice(0)) await hold.close().catch(() => {});
  }
}
