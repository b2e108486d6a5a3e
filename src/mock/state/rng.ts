/**
 * Seeded randomness. Two kinds: a sequential stream (`createRng`, mulberry32) for ids, secrets
 * and chaos draws, and a stateless hash (`unitHash`) for the market, so the price of provider p
 * at poll n is a pure function of (seed, p, n) and never depends on who asked first.
 * @module
 */

/** A seeded random stream (mulberry32): the same seed gives the same ids, secrets and chaos draws. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
  /** `bytes` random bytes as lowercase hex. */
  hex(bytes: number): string;
  /** A version-4-shaped UUID. */
  uuid(): string;
  /** An independent stream derived from this seed and a label (same label, same stream). */
  fork(label: string): Rng;
  readonly seed: number;
}

export function createRng(seed: number): Rng {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number) => Math.floor(next() * max);
  // Joined, not grown with +=: ids (orders, fills) are kept for the retention period, and a +=
  // chain keeps a tree of two-character pieces behind each one (see hashHex in chain.ts).
  const hex = (bytes: number) => {
    const parts = new Array<string>(bytes);
    for (let i = 0; i < bytes; i++) parts[i] = HEX[int(256)]!;
    return parts.join('');
  };
  return {
    seed,
    next,
    int,
    hex,
    uuid() {
      const h = hex(16);
      const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
      return [h.slice(0, 8), h.slice(8, 12), `4${h.slice(13, 16)}`, `${variant}${h.slice(17, 20)}`, h.slice(20, 32)].join('-');
    },
    fork(label: string) {
      return createRng(hash32(seed, label));
    },
  };
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** 32-bit hash of numbers and strings (murmur3-style mixing). */
export function hash32(...parts: Array<number | string>): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    if (typeof part === 'number') {
      // Split into two 32-bit halves so large integers (poll indexes, times) keep their bits.
      h = mix(h, part >>> 0);
      h = mix(h, Math.floor(part / 4294967296) >>> 0);
    } else {
      for (let i = 0; i < part.length; i++) h = mix(h, part.charCodeAt(i));
      h = mix(h, part.length);
    }
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function mix(h: number, k: number): number {
  k = Math.imul(k, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) >>> 0;
}

/** Uniform in [0, 1), a pure function of its inputs. */
export function unitHash(...parts: Array<number | string>): number {
  return hash32(...parts) / 4294967296;
}

/**
 * Mixed into id generation, once per process: two runs (or a restart) never hand out the same
 * order, delivery or key ids, while two states with one seed in one process still agree id for
 * id (a seeded run is reproducible within the run; parity tests rely on it).
 */
export const PROCESS_SALT = `${Date.now().toString(36)}:${Math.floor(Math.random() * 2 ** 32).toString(36)}`;
