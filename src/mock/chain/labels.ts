/**
 * The simulated chain's deterministic ids: SHA-256 hex of a text (block ids), the ids of the
 * mock's own transactions (a keyed counter, {@link SyntheticIds}) and a TRON address per label
 * (the faucet, witnesses, treasuries, invoice addresses). Same seed and text, same id, on every run.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { toTronAddress } from '../../utils/address.js';
import { HexText } from '../shared/hex-text.js';

const ENCODER = new TextEncoder();
const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * Lower-case hex of the text's SHA-256, as one flat string: joined, not grown with `+=`. A
 * `+=` chain leaves a tree of small string pieces behind the id, and every transaction id is
 * kept for the chain's retention: that tree was 0.9 KB of the 5.6 KB each order left in the
 * old generation (allocation profile of POST /orders).
 */
export function hashHex(text: string): string {
  const digest = sha256(ENCODER.encode(text));
  const parts = new Array<string>(digest.length);
  for (let i = 0; i < digest.length; i++) parts[i] = BYTE_HEX[digest[i]!]!;
  return parts.join('');
}

/** A deterministic TRON address for a label (mock treasuries, invoice addresses, …). */
export function labelAddress(label: string): string {
  return toTronAddress(`41${hashHex(`trx-rent mock address ${label}`).slice(0, 40)}`);
}

/**
 * Transaction ids of the mock's own transactions (fills' delegations, faucet transfers, swaps):
 * 64 hex digits from a counter under a key drawn from the seed, one per call. Every fill of every
 * order makes one, so it is built from a few integer mixes rather than a SHA-256 of a text. No
 * two counters below 2^53 give the same id under one key: the first two words are bijections
 * (murmur3's finaliser) of the counter's low and high 32 bits; the other six only look random.
 * Not a hash of the transaction: nothing outside the mock can recompute it, as nothing can
 * recompute the SHA-256 of a text it never saw.
 */
export class SyntheticIds {
  readonly #key: Uint32Array;

  constructor(seed: number) {
    const digest = sha256(ENCODER.encode(`trx-rent mock transaction ids ${seed}`));
    this.#key = new Uint32Array(8);
    for (let i = 0; i < 8; i++) this.#key[i] = ((digest[4 * i]! << 24) | (digest[4 * i + 1]! << 16) | (digest[4 * i + 2]! << 8) | digest[4 * i + 3]!) >>> 0;
  }

  /** The id of the `n`th transaction (a non-negative safe integer). */
  id(n: number): string {
    const key = this.#key;
    const lo = n >>> 0;
    const hi = Math.floor(n / 0x1_0000_0000) >>> 0;
    // Written into one reused buffer and decoded once (shared/hex-text.ts): the id alone is allocated.
    const out = ID_TEXT;
    out.word(0, fmix32(lo ^ key[0]!));
    out.word(8, fmix32(hi ^ key[1]!));
    for (let i = 2; i < 8; i++) out.word(8 * i, fmix32((lo + Math.imul(i, 0x9e3779b9)) ^ hi ^ key[i]!));
    return out.text();
  }
}

const ID_TEXT = new HexText(64);

/** murmur3's 32-bit finaliser: a bijection on 32-bit integers that mixes every bit. */
function fmix32(x: number): number {
  let h = x >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
