/**
 * Seeded randomness. Two kinds: a sequential stream (`createRng`, mulberry32) for ids, secrets
 * and chaos draws, and a stateless hash (`unitHash`) for the market, so the price of provider p
 * at poll n is a pure function of (seed, p, n) and never depends on who asked first.
 * @module
 */
import { HexText } from '../shared/hex-text.js';

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
  // Written into a reused buffer and decoded once (shared/hex-text.ts): one flat string per id,
  // nothing else allocated (ids are kept for the retention period).
  const hex = (bytes: number) => {
    const out = hexText(bytes * 2);
    for (let i = 0; i < bytes; i++) out.byte(2 * i, int(256));
    return out.text();
  };
  return {
    seed,
    next,
    int,
    hex,
    uuid() {
      // 16 bytes drawn in order, written as 8-4-4-4-12 hex digits with the version nibble (the
      // 13th digit) set to 4 and the variant's two high bits (17th digit) to 10.
      const out = UUID_TEXT;
      let at = 0;
      for (let i = 0; i < 16; i++) {
        let byte = int(256);
        if (i === 6) byte = 0x40 | (byte & 0x0f);
        else if (i === 8) byte = ((((byte >> 4) & 0x3) | 0x8) << 4) | (byte & 0x0f);
        out.byte(at, byte);
        at += 2;
        if (i === 3 || i === 5 || i === 7 || i === 9) out.char(at++, 0x2d); // '-'
      }
      return out.text();
    },
    fork(label: string) {
      return createRng(hash32(seed, label));
    },
  };
}

/** Reused buffers for `hex` (one per length) and `uuid`: each call writes every byte of its own. */
const HEX_TEXTS: HexText[] = [];
const UUID_TEXT = new HexText(36);
function hexText(length: number): HexText {
  if (length > 128) return new HexText(length);
  return (HEX_TEXTS[length] ??= new HexText(length));
}

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
