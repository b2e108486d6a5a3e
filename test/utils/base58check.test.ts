import { createHash, randomBytes } from 'node:crypto';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { createBase58check } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { decodeBase58check, encodeBase58check, sha256 } from '../../src/utils/base58check.js';

/** The core's own SHA-256 and base58check (no hashing library in the browser bundle), against node:crypto and @scure/base. */
const reference = createBase58check(nobleSha256);

describe('own sha256 and base58check', () => {
  it('sha256 equals node:crypto for 0..300 bytes (every padding case) and 1 MB', () => {
    for (let n = 0; n <= 300; n++) {
      const bytes = randomBytes(n);
      expect(Buffer.from(sha256(bytes)).toString('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
    const big = randomBytes(1_000_000);
    expect(Buffer.from(sha256(big)).toString('hex')).toBe(createHash('sha256').update(big).digest('hex'));
    expect(Buffer.from(sha256(new TextEncoder().encode('abc'))).toString('hex')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('base58check encodes and decodes as @scure/base does, leading zeros included', () => {
    for (let n = 0; n < 500; n++) {
      const payload = Buffer.concat([Buffer.alloc(n % 4), randomBytes(n % 40)]);
      const text = reference.encode(payload);
      expect(encodeBase58check(payload)).toBe(text);
      expect(Buffer.from(decodeBase58check(text)).equals(payload)).toBe(true);
    }
  });

  it('refuses bad characters, short input and bad checksums', () => {
    const good = encodeBase58check(Uint8Array.of(0x41, ...new Uint8Array(20).fill(7)));
    expect(() => decodeBase58check(`${good.slice(0, -1)}0`)).toThrow(TypeError);
    expect(() => decodeBase58check(`${good.slice(0, -1)}${good.endsWith('2') ? '3' : '2'}`)).toThrow(/checksum/);
    expect(() => decodeBase58check('1')).toThrow(/short/);
    expect(() => decodeBase58check('')).toThrow(/short/);
  });
});
