import { createRng, type Rng } from '../state/rng.js';

/**
 * Seeded fault injection, on the account API and the simulated TRON node alike (never on the
 * /__mock/ helpers). Per request: a forced fault (the `X-Mock-Chaos` header) wins, then the
 * first targeted rule that matches and draws (see {@link ChaosRule}), then one draw at `rate`.
 * With the same seed and the same sequence of requests, the same requests fail the same way.
 *  - 429: RATE_LIMITED with Retry-After: 1, before anything happens;
 *  - 500: INTERNAL_ERROR, before anything happens;
 *  - 503: MAINTENANCE, before anything happens;
 *  - slow: the request is held back `slowMs` (real time) before it is processed: a caller whose
 *    timeout is shorter gives up, and the work is still done after it (a timeout with an effect);
 *  - drop: the request is processed and committed, then the connection is destroyed without
 *    a response (in-process: a network error): an answer lost after the effect;
 *  - reset: the connection is destroyed before anything happens (a request lost on the way;
 *    only by rule or header, never drawn at `rate`).
 * A request can force one with the header `X-Mock-Chaos: 429|500|503|slow|drop|reset` (any rate).
 */
export type ChaosKind = 429 | 500 | 503 | 'slow' | 'drop' | 'reset';

/**
 * A fault aimed at some requests, e.g. "drop the answer of the next three broadcasts":
 * `{ route: 'POST /wallet/broadcasttransaction', kind: 'drop', times: 3 }`.
 */
export interface ChaosRule {
  /** `METHOD /path`; a path ending in `*` matches that prefix (`GET /wallet/*`); the method may be `*`. */
  route: string;
  kind: ChaosKind | '429' | '500' | '503';
  /** Chance per matching request, drawn from the seeded generator. @default 1 */
  probability?: number;
  /** Stop after this many faults. @default unlimited */
  times?: number;
  /** For `slow`: how long to hold the request, real ms. @default the options' `slowMs` */
  holdMs?: number;
}

/** A fault that was injected, as {@link Chaos.log} keeps it. */
export interface ChaosHit {
  method: string;
  path: string;
  kind: ChaosKind;
  /** Which rule injected it (its index), or `rate` / `header`. */
  by: number | 'rate' | 'header';
}

/** Options of seeded fault injection. */
export interface ChaosOptions {
  /** Probability in [0, 1] that a request gets a fault. */
  rate: number;
  /** Default: the state's seed. */
  seed?: number;
  /** Which faults to draw from at `rate` (uniformly). Default the five of {@link CHAOS_KINDS}. */
  kinds?: ReadonlyArray<ChaosKind | '429' | '500' | '503'>;
  /** Delay of a slow response, in ms. Default 2 000. */
  slowMs?: number;
  /** Faults aimed at some routes, tried in order before the `rate` draw; change them later with `setRules`. */
  rules?: readonly ChaosRule[];
}

/** The faults drawn at `rate` by default (`reset` is only injected by rule or header). */
export const CHAOS_KINDS: readonly ChaosKind[] = [429, 500, 503, 'slow', 'drop'];

/** A rule compiled: its matcher, kind and how many faults it has left. */
interface LiveRule {
  index: number;
  method: string;
  path: string;
  prefix: boolean;
  kind: ChaosKind;
  probability: number;
  left: number;
  holdMs: number | undefined;
}

/** The mock's fault injection: `mock.chaos` (e.g. `mock.chaos.setRules([...])` mid-test, `mock.chaos.log`). */
export class Chaos {
  readonly #rng: Rng;
  readonly #kinds: ChaosKind[];
  #rules: LiveRule[] = [];
  readonly rate: number;
  readonly slowMs: number;
  /** Every fault injected, oldest first (the last 10 000). */
  readonly log: ChaosHit[] = [];

  constructor(options: ChaosOptions | false | undefined, defaultSeed: number) {
    const o = options || { rate: 0 };
    if (!(o.rate >= 0 && o.rate <= 1)) throw new RangeError(`chaos.rate must be within [0, 1], got ${o.rate}`);
    this.rate = o.rate;
    this.slowMs = o.slowMs ?? 2_000;
    this.#rng = createRng((o.seed ?? defaultSeed) ^ 0x5eed);
    this.#kinds = (o.kinds ?? CHAOS_KINDS).map(parseKind).filter((k): k is ChaosKind => k !== undefined);
    if (this.#kinds.length === 0) throw new RangeError('chaos.kinds is empty');
    this.setRules(o.rules ?? []);
  }

  /** Replace the targeted faults (an empty list lifts them). Throws a RangeError naming a bad rule. */
  setRules(rules: readonly ChaosRule[]): void {
    this.#rules = rules.map((rule, index) => {
      const m = /^(\*|[A-Z]+) (\/\S*)$/.exec(rule.route ?? '');
      const kind = parseKind(rule.kind);
      const probability = rule.probability ?? 1;
      if (!m) throw new RangeError(`chaos.rules[${index}].route must be "METHOD /path", got ${JSON.stringify(rule.route)}`);
      if (!kind) throw new RangeError(`chaos.rules[${index}].kind is not a fault: ${JSON.stringify(rule.kind)}`);
      if (!(probability >= 0 && probability <= 1)) throw new RangeError(`chaos.rules[${index}].probability must be within [0, 1]`);
      if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times >= 0))
        throw new RangeError(`chaos.rules[${index}].times must be a whole number`);
      const prefix = m[2]!.endsWith('*');
      return { index, method: m[1]!, path: prefix ? m[2]!.slice(0, -1) : m[2]!, prefix, kind, probability, left: rule.times ?? Infinity, holdMs: rule.holdMs };
    });
  }

  /** How long a `slow` fault holds this request (its rule's `holdMs`, else `slowMs`). */
  holdMs(hit: ChaosHit | undefined): number {
    return (typeof hit?.by === 'number' ? this.#rules.find((r) => r.index === hit.by)?.holdMs : undefined) ?? this.slowMs;
  }

  /** The fault for this request, if any. Consumes draws only for matching rules and when `rate` is on. */
  draw(forced: string | null, method = '', path = ''): ChaosHit | undefined {
    if (forced) {
      const kind = parseKind(forced.trim());
      return kind === undefined ? undefined : this.#note({ method, path, kind, by: 'header' });
    }
    for (const rule of this.#rules) {
      if (rule.left <= 0 || (rule.method !== '*' && rule.method !== method)) continue;
      if (rule.prefix ? !path.startsWith(rule.path) : path !== rule.path) continue;
      if (rule.probability < 1 && this.#rng.next() >= rule.probability) continue;
      rule.left--;
      return this.#note({ method, path, kind: rule.kind, by: rule.index });
    }
    if (this.rate <= 0) return undefined;
    const hit = this.#rng.next() < this.rate;
    const pick = this.#kinds[this.#rng.int(this.#kinds.length)];
    return hit && pick !== undefined ? this.#note({ method, path, kind: pick, by: 'rate' }) : undefined;
  }

  #note(hit: ChaosHit): ChaosHit {
    if (this.log.length >= 10_000) this.log.shift();
    this.log.push(hit);
    return hit;
  }
}

function parseKind(value: ChaosKind | string): ChaosKind | undefined {
  if (value === 429 || value === '429') return 429;
  if (value === 500 || value === '500') return 500;
  if (value === 503 || value === '503') return 503;
  if (value === 'slow' || value === 'drop' || value === 'reset') return value;
  return undefined;
}
