/**
 * Base58check (Bitcoin alphabet, checksum = first 4 bytes of sha256(sha256(payload))) with a
 * small synchronous SHA-256, so the core checks TRON addresses without a hashing library:
 * `@noble/hashes` + `@scure/base` cost 10 KB minified in every browser bundle of `trx-rent`,
 * for a function that hashes 21 bytes. Checked against node:crypto and tronweb in tests.
 * Not for secrets: nothing here needs to run in constant time.
 * @module
 */

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

// The first 32 bits of the fractional parts of the cube roots of the first 64 primes (FIPS 180-4).
const K = new Uint32Array(64);
// The first 32 bits of the fractional parts of the square roots of the first 8 primes.
const H0 = new Uint32Array(8);
{
  const frac = (x: number) => ((x - Math.floor(x)) * 2 ** 32) >>> 0;
  for (let n = 2, i = 0; i < 64; n++) {
    let prime = true;
    for (let d = 2; d * d <= n; d++) if (n % d === 0) prime = false;
    if (!prime) continue;
    if (i < 8) H0[i] = frac(n ** (1 / 2));
    K[i++] = frac(n ** (1 / 3));
  }
}

/** SHA-256 of `data`. */
export function sha256(data: Uint8Array): Uint8Array {
  const bitLength = data.length * 8;
  const blocks = Math.ceil((data.length + 9) / 64);
  const m = new Uint8Array(blocks * 64);
  m.set(data);
  m[data.length] = 0x80;
  const view = new DataView(m.buffer);
  view.setUint32(m.length - 8, Math.floor(bitLength / 2 ** 32));
  view.setUint32(m.length - 4, bitLength >>> 0);
  const h = H0.slice();
  const w = new Uint32Array(64);
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));
  for (let offset = 0; offset < m.length; offset += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(offset + t * 4);
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15]!;
      const b = w[t - 2]!;
      w[t] = w[t - 16]! + (rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3)) + w[t - 7]! + (rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10));
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as [number, number, number, number, number, number, number, number];
    for (let t = 0; t < 64; t++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0]! += a;
    h[1]! += b;
    h[2]! += c;
    h[3]! += d;
    h[4]! += e;
    h[5]! += f;
    h[6]! += g;
    h[7]! += hh;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]!);
  return out;
}

const checksum = (payload: Uint8Array) => sha256(sha256(payload)).subarray(0, 4);

/** Base58 of `payload` followed by its 4-byte checksum. */
export function encodeBase58check(payload: Uint8Array): string {
  const bytes = new Uint8Array(payload.length + 4);
  bytes.set(payload);
  bytes.set(checksum(payload), payload.length);
  // Base-256 to base-58, most significant digit last.
  const digits: number[] = [];
  for (const byte of bytes) {
    let carry = byte;
    for (let i = 0; i < digits.length; i++) {
      carry += digits[i]! << 8;
      digits[i] = carry % 58;
      carry = (carry / 58) | 0;
    }
    for (; carry; carry = (carry / 58) | 0) digits.push(carry % 58);
  }
  let out = '';
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) out += ALPHABET[0];
  for (let i = digits.length - 1; i >= 0; i--) out += ALPHABET[digits[i]!];
  return out;
}

/** The payload of a base58check string; throws a TypeError on a bad character or checksum. */
export function decodeBase58check(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const char of text) {
    let carry = ALPHABET.indexOf(char);
    if (carry < 0) throw new TypeError(`Not base58: ${JSON.stringify(char)}`);
    for (let i = 0; i < bytes.length; i++) {
      carry += bytes[i]! * 58;
      bytes[i] = carry & 0xff;
      carry >>= 8;
    }
    for (; carry; carry >>= 8) bytes.push(carry & 0xff);
  }
  for (let i = 0; i < text.length && text[i] === ALPHABET[0]; i++) bytes.push(0);
  const all = Uint8Array.from(bytes.reverse());
  if (all.length < 4) throw new TypeError('Base58check string too short');
  const payload = all.subarray(0, -4);
  const sum = checksum(payload);
  for (let i = 0; i < 4; i++) if (all[payload.length + i] !== sum[i]) throw new TypeError('Bad base58check checksum');
  return payload;
}
