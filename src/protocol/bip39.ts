/**
 * BIP-39 for English mnemonics: whether the words are a valid mnemonic (each one in the list, a
 * length of 12 to 24 in steps of 3, the checksum right) and the seed they stand for. Built on the
 * same @noble/hashes primitives as @scure/bip39 (SHA-256 for the checksum, PBKDF2-HMAC-SHA512 for
 * the seed) with the English list only (`bip39-english.ts`, 13 kB); DECISIONS.md says why the
 * package does not depend on @scure/bip39 itself.
 * @module
 */
import { pbkdf2Async } from '@noble/hashes/pbkdf2.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { ENGLISH_WORDS } from './bip39-english.js';

let indexes: Map<string, number> | undefined;

/** The words of a mnemonic as BIP-39 reads them: NFKD, lower case, split on any whitespace. */
export function mnemonicWords(mnemonic: string): string[] {
  const text = mnemonic.normalize('NFKD').trim().toLowerCase();
  return text ? text.split(/\s+/) : [];
}

/**
 * The entropy the words encode, or undefined when they are not a valid English mnemonic: 12, 15,
 * 18, 21 or 24 words of the list, whose last 4 to 8 bits are the first bits of the entropy's SHA-256.
 */
export function mnemonicToEntropy(words: readonly string[]): Uint8Array | undefined {
  if (words.length < 12 || words.length > 24 || words.length % 3 !== 0) return undefined;
  indexes ??= new Map(ENGLISH_WORDS.map((word, i) => [word, i]));
  let bits = '';
  for (const word of words) {
    const index = indexes.get(word);
    if (index === undefined) return undefined;
    bits += index.toString(2).padStart(11, '0');
  }
  const checksumBits = words.length / 3; // ENT / 32, with ENT = 32 * words / 3 bits
  const entropy = Uint8Array.from({ length: (bits.length - checksumBits) / 8 }, (_, i) => Number.parseInt(bits.slice(i * 8, i * 8 + 8), 2));
  const expected = sha256(entropy)[0]! >> (8 - checksumBits);
  return expected === Number.parseInt(bits.slice(-checksumBits), 2) ? entropy : undefined;
}

/** The 64-byte seed of a mnemonic: PBKDF2-HMAC-SHA512 of its words, salt "mnemonic" + passphrase, 2048 rounds. */
export function mnemonicToSeed(words: readonly string[], passphrase = ''): Promise<Uint8Array> {
  const encode = (text: string) => new TextEncoder().encode(text.normalize('NFKD'));
  return pbkdf2Async(sha512, encode(words.join(' ')), encode(`mnemonic${passphrase}`), { c: 2048, dkLen: 64 });
}
