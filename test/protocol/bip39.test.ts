/**
 * BIP-39 for English mnemonics (src/protocol/bip39.ts, bip39-english.ts), held to what we did not
 * write: the wordlist is bitcoin/bips' english.txt (its SHA-256) and, word for word at the same
 * index, ethers' own list (through tronweb: every one of the 2048 words appears in a mnemonic
 * ethers accepts, with the checksum we compute); a word sequence is valid exactly when ethers
 * accepts it; the seed gives tronweb's address.
 */
import { createHash } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { TronWeb } from 'tronweb';
import { describe, expect, it } from 'vitest';
import { ENGLISH_WORDS } from '../../src/protocol/bip39-english.js';
import { mnemonicToEntropy, mnemonicToSeed, mnemonicWords } from '../../src/protocol/bip39.js';
import { deriveAddresses } from '../../src/protocol/hd-keys.js';

const PATH = "m/44'/195'/0'/0/0";
/** ethers' verdict (through tronweb): the address of index 0, or undefined when it refuses the words. */
function ethersAddress(words: readonly string[]): string | undefined {
  try {
    return TronWeb.fromMnemonic(words.join(' '), PATH).address;
  } catch {
    return undefined;
  }
}

/** Test-side encoder: 32 bytes of entropy to 24 words (256 bits + 8 checksum bits). */
function wordsOf(entropy: Uint8Array): string[] {
  const bits = [...entropy].map((b) => b.toString(2).padStart(8, '0')).join('') + sha256(entropy)[0]!.toString(2).padStart(8, '0');
  return Array.from({ length: 24 }, (_, i) => ENGLISH_WORDS[Number.parseInt(bits.slice(i * 11, i * 11 + 11), 2)]!);
}

/** 32 bytes whose first 23 words are the word indexes given (the 24th holds 3 entropy bits, zero). */
function entropyFor(indexes: readonly number[]): Uint8Array {
  const bits = indexes
    .map((i) => i.toString(2).padStart(11, '0'))
    .join('')
    .padEnd(256, '0');
  return Uint8Array.from({ length: 32 }, (_, i) => Number.parseInt(bits.slice(i * 8, i * 8 + 8), 2));
}

describe('the BIP-39 English wordlist', () => {
  it("is bitcoin/bips' english.txt: 2048 distinct words, SHA-256 2f5eed53…dbda", () => {
    expect(ENGLISH_WORDS).toHaveLength(2048);
    expect(new Set(ENGLISH_WORDS).size).toBe(2048);
    expect(
      createHash('sha256')
        .update(`${ENGLISH_WORDS.join('\n')}\n`)
        .digest('hex'),
    ).toBe('2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda');
  });

  it("puts every word at ethers' index: 90 mnemonics covering all 2048 words are accepted by ethers, and ours derive tronweb's address", async () => {
    for (let start = 0; start < 2048; start += 23) {
      const indexes = Array.from({ length: 23 }, (_, i) => (start + i) % 2048);
      const words = wordsOf(entropyFor(indexes));
      expect(words.slice(0, 23)).toEqual(indexes.map((i) => ENGLISH_WORDS[i]));
      expect(mnemonicToEntropy(words)).toEqual(entropyFor(indexes));
      const theirs = ethersAddress(words);
      expect(theirs, `ethers refused the mnemonic with words ${start}..${start + 22}`).toBeDefined();
      if (start % (23 * 10) === 0) expect((await deriveAddresses({ mnemonic: words.join(' '), count: 1 }))[0]!.address).toBe(theirs);
    }
  });
});

describe('BIP-39 checks and seeds', () => {
  it('a word sequence is valid exactly when ethers accepts it (random 12- and 24-word sequences, mutated words, lengths)', () => {
    let state = 0x2545f491;
    const next = () => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return (state >>> 0) % 2048;
    };
    let valid = 0;
    for (let n = 0; n < 400; n++) {
      const words = Array.from({ length: n % 2 ? 12 : 24 }, () => ENGLISH_WORDS[next()]!);
      const ours = mnemonicToEntropy(words) !== undefined;
      expect(ours, words.join(' ')).toBe(ethersAddress(words) !== undefined);
      if (ours) valid++;
    }
    expect(valid).toBeGreaterThan(5); // about 1 in 16 (12 words) and 1 in 256 (24 words) are valid
    const good = mnemonicWords('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about');
    expect(mnemonicToEntropy(good)).toEqual(new Uint8Array(16));
    for (const bad of [good.slice(1), [...good, 'abandon'], [...good.slice(0, 11), 'aboot'], [...good.slice(0, 11), 'About'], []]) {
      expect(mnemonicToEntropy(bad), bad.join(' ')).toBeUndefined();
    }
  });

  it('the seed is PBKDF2-HMAC-SHA512 of the words, salt "mnemonic" + passphrase (node:crypto agrees)', async () => {
    const words = mnemonicWords(`${'zoo '.repeat(23)}vote`);
    for (const passphrase of ['', 'TREZOR', 'pässwörd']) {
      const expected = (await import('node:crypto')).pbkdf2Sync(
        words.join(' ').normalize('NFKD'),
        `mnemonic${passphrase}`.normalize('NFKD'),
        2048,
        64,
        'sha512',
      );
      expect(Buffer.from(await mnemonicToSeed(words, passphrase))).toEqual(expected);
    }
  });
});
