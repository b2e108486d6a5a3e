import { LIMITS } from '../../schemas/common.js';
import { Fifo } from '../shared/fifo.js';

/**
 * Idempotency for POST /orders and POST /withdraw, as the live service documents it: a key
 * (up to 64 characters) is kept 24 h per account; the same key with the same request returns
 * the stored response (a first 201 replays as 200); the same key with a different request, or
 * while the first request with it is still being processed, is 409 DUPLICATE_REQUEST.
 * Only successful responses are stored: a request that failed (validation, balance, price)
 * frees its key, so fixing the cause and retrying with the same key works.
 */
export interface StoredResponse {
  status: number;
  /** The bare JSON body as first sent (the envelope, if any, is applied when served). */
  body: string;
}

/** One stored key: the request's fingerprint, when it was first used, its response. */
export interface Entry {
  fingerprint: string;
  createdAt: number;
  response: StoredResponse | null; // null while in flight
}

export type BeginResult = { kind: 'new' } | { kind: 'replay'; response: StoredResponse } | { kind: 'conflict'; reason: 'different_parameters' | 'in_flight' };

/**
 * The store keeps keys in a Map and, beside it, a FIFO of entries in creation order, so the
 * oldest entry is always at the front. Expiry and the retention limit only ever look at the
 * front: each request does O(1) amortised work (every entry is removed at most once), however
 * many keys there are.
 */
export class IdempotencyStore {
  readonly #entries = new Map<string, Entry>();
  /** Entries in creation order (stale ones, replaced or abandoned since, are skipped). */
  readonly #order = new Fifo<[string, Entry]>();

  constructor(
    private readonly now: () => number,
    readonly ttlMs: number = LIMITS.IDEMPOTENCY_TTL_MS,
    /** Most keys kept; past it the oldest are forgotten first (see RETENTION_DEFAULTS). */
    readonly maxKeys: number = Infinity,
  ) {}

  begin(scope: string, key: string, fingerprint: string): BeginResult {
    this.#sweep();
    const id = `${scope}\u0000${key}`;
    const entry = this.#entries.get(id);
    if (entry && this.now() - entry.createdAt < this.ttlMs) {
      if (entry.fingerprint !== fingerprint) return { kind: 'conflict', reason: 'different_parameters' };
      if (!entry.response) return { kind: 'conflict', reason: 'in_flight' };
      return { kind: 'replay', response: entry.response };
    }
    const created: Entry = { fingerprint, createdAt: this.now(), response: null };
    this.#entries.set(id, created);
    this.#order.push([id, created]);
    this.#trim();
    return { kind: 'new' };
  }

  complete(scope: string, key: string, response: StoredResponse): void {
    const entry = this.#entries.get(`${scope}\u0000${key}`);
    if (entry) entry.response = response;
  }

  abandon(scope: string, key: string): void {
    const id = `${scope}\u0000${key}`;
    if (this.#entries.get(id)?.response === null) this.#entries.delete(id);
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Every stored key (for saving the state), oldest first. */
  dump(): Array<[string, Entry]> {
    return [...this.#entries];
  }

  /** Put back keys saved with {@link dump}. */
  load(entries: ReadonlyArray<[string, Entry]>): void {
    this.#entries.clear();
    this.#order.clear();
    for (const [id, entry] of entries) {
      if (!entry.response) continue;
      this.#entries.set(id, entry);
      this.#order.push([id, entry]);
    }
    this.#trim();
  }

  /** The oldest entry still current (stale queue items are dropped on the way). */
  #oldest(): [string, Entry] | undefined {
    for (let item = this.#order.peek(); item; item = this.#order.peek()) {
      if (this.#entries.get(item[0]) === item[1]) return item;
      this.#order.shift();
    }
    return undefined;
  }

  /** Drop expired keys from the front (the oldest); stops at the first live one. */
  #sweep(): void {
    const now = this.now();
    for (let item = this.#oldest(); item && now - item[1].createdAt >= this.ttlMs; item = this.#oldest()) {
      this.#entries.delete(item[0]);
      this.#order.shift();
    }
  }

  /** Past the retention limit, forget the oldest keys. */
  #trim(): void {
    while (this.#entries.size > this.maxKeys) {
      const item = this.#oldest();
      if (!item) return;
      this.#entries.delete(item[0]);
      this.#order.shift();
    }
  }
}
