import { LIMITS } from '../../schemas/common.js';

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

interface Entry {
  fingerprint: string;
  createdAt: number;
  response: StoredResponse | null; // null while in flight
}

export type BeginResult =
  | { kind: 'new' }
  | { kind: 'replay'; response: StoredResponse }
  | { kind: 'conflict'; reason: 'different_parameters' | 'in_flight' };

export class IdempotencyStore {
  readonly #entries = new Map<string, Entry>();
  #lastSweep = 0;

  constructor(
    private readonly now: () => number,
    readonly ttlMs: number = LIMITS.IDEMPOTENCY_TTL_MS,
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
    this.#entries.set(id, { fingerprint, createdAt: this.now(), response: null });
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

  #sweep(): void {
    const now = this.now();
    if (now - this.#lastSweep < 60_000 && this.#entries.size < 50_000) return;
    this.#lastSweep = now;
    for (const [id, entry] of this.#entries) if (entry.response && now - entry.createdAt >= this.ttlMs) this.#entries.delete(id);
  }
}

