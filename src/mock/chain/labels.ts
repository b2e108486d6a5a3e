/**
 * The simulated chain's deterministic ids: SHA-256 hex of a text (block ids, transaction ids of
 * the mock's own transactions) and a TRON address per label (the faucet, witnesses, treasuries,
 * invoice addresses). Same text, same id, on every run.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2';
import { toTronAddress } from '../../utils/address.js';

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
