import { createRng, type Rng } from '../state/rng.js';

/**
 * Seeded fault injection. For each API request (never /__mock/ helpers) one draw decides
 * whether to inject a fault and which: with the same seed and the same sequence of requests,
 * the same requests fail the same way.
 *  - 429: RATE_LIMITED with Retry-After: 1, before anything happens;
 *  - 500: INTERNAL_ERROR, before anything happens;
 *  - 503: MAINTENANCE, before anything happens;
 *  - slow: the response is held back `slowMs` (real time) before the request is processed;
 *  - drop: the request is processed and committed, then the connection is destroyed without
 *    a response (in-process: a network error), to exercise idempotent retries.
 * A request can force one with the header `X-Mock-Chaos: 429|500|503|slow|drop` (any rate).
 */
export type ChaosKind = 429 | 500 | 503 | 'slow' | 'drop';

/** Options of seeded fault injection. */
export interface ChaosOptions {
  /** Probability in [0, 1] that a request gets a fault. */
  rate: number;
  /** Default: the state's seed. */
  seed?: number;
  /** Which faults to draw from (uniformly). Default all five. */
  kinds?: ReadonlyArray<ChaosKind | '429' | '500' | '503'>;
  /** Delay of a slow response, in ms. Default 2 000. */
  slowMs?: number;
}

/** Every fault chaos can inject. */
export const CHAOS_KINDS: readonly ChaosKind[] = [429, 500, 503, 'slow', 'drop'];

export class Chaos {
  readonly #rng: Rng;
  readonly #kinds: ChaosKind[];
  readonly rate: number;
  readonly slowMs: number;

  constructor(options: ChaosOptions | false | undefined, defaultSeed: number) {
    const o = options || { rate: 0 };
    if (!(o.rate >= 0 && o.rate <= 1)) throw new RangeError(`chaos.rate must be within [0, 1], got ${o.rate}`);
    this.rate = o.rate;
    this.slowMs = o.slowMs ?? 2_000;
    this.#rng = createRng((o.seed ?? defaultSeed) ^ 0x5eed);
    this.#kinds = (o.kinds ?? CHAOS_KINDS).map(parseKind).filter((k): k is ChaosKind => k !== undefined);
    if (this.#kinds.length === 0) throw new RangeError('chaos.kinds is empty');
  }

  /** The fault for this request, if any. Consumes draws only when chaos is on. */
  draw(forced: string | null): ChaosKind | undefined {
    if (forced) return parseKind(forced.trim());
    if (this.rate <= 0) return undefined;
    const hit = this.#rng.next() < this.rate;
    const pick = this.#kinds[this.#rng.int(this.#kinds.length)];
    return hit ? pick : undefined;
  }
}

function parseKind(value: ChaosKind | string): ChaosKind | undefined {
  if (value === 429 || value === '429') return 429;
  if (value === 500 || value === '500') return 500;
  if (value === 503 || value === '503') return 503;
  if (value === 'slow' || value === 'drop') return value;
  return undefined;
}
