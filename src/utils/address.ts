/**
 * TRON addresses: base58check over 21 bytes (0x41 prefix + 20-byte account id), checksum =
 * first 4 bytes of sha256(sha256(payload)). Pure functions, no tronweb.
 * @module
 */
import { decodeBase58check, encodeBase58check } from './base58check.js';

const base58check = { decode: decodeBase58check, encode: encodeBase58check };
const TRON_PREFIX = 0x41;
const SHAPE = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

// Addresses already verified: checking a checksum costs a base58 decode and two SHA-256 (about
// 8 µs), and a client sends to the same few addresses again and again. Valid ones only, bounded.
const verified = new Set<string>();
const VERIFIED_MAX = 1024;

/** True when `value` is a base58 TRON address whose checksum verifies. */
export function isTronAddress(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  if (verified.has(value)) return true; // before the pattern: a Set lookup is cheaper than a regex run
  if (!SHAPE.test(value)) return false;
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(value);
  } catch {
    return false;
  }
  if (bytes.length !== 21 || bytes[0] !== TRON_PREFIX) return false;
  if (verified.size >= VERIFIED_MAX) verified.clear();
  verified.add(value);
  return true;
}

/** Base58 address -> 0x-prefixed 20-byte hex (the form EIP-712/TIP-712 signing uses). Throws a TypeError if invalid. */
export function tronAddressToEvmHex(address: string): `0x${string}` {
  if (!isTronAddress(address)) throw new TypeError(`Not a TRON address: ${address}`);
  const bytes = base58check.decode(address).subarray(1);
  return `0x${toHex(bytes)}`;
}

/** Base58 address -> 41-prefixed hex (the form TRON nodes use in raw_data). Throws a TypeError if invalid. */
export function tronAddressToHex(address: string): string {
  if (!isTronAddress(address)) throw new TypeError(`Not a TRON address: ${address}`);
  return toHex(base58check.decode(address));
}

/**
 * 41-prefixed hex, 0x-prefixed 20-byte hex, or base58 -> base58 address. Throws a TypeError on
 * anything else.
 */
export function toTronAddress(value: string): string {
  if (isTronAddress(value)) return value;
  let hex = value.toLowerCase().replace(/^0x/, '');
  if (hex.length === 40) hex = `41${hex}`;
  if (!/^41[0-9a-f]{40}$/.test(hex)) throw new TypeError(`Not a TRON address: ${value}`);
  return base58check.encode(fromHex(hex));
}

function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
