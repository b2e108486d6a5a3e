/**
 * HD deposit addresses (src/protocol/hd-keys.ts, `client.chain.deriveAddresses`/`deriveKeys`),
 * held to an implementation we did not write: tronweb's `TronWeb.fromMnemonic(words, path)`
 * (ethers' HD wallet underneath) gives the same address and key for every index of two accounts;
 * a seed gives what its mnemonic gives; a bad input is a VALIDATION_ERROR naming the field and
 * never echoing the words; a derived key prints without its private key.
 */
import { inspect } from 'node:util';
import { TronWeb } from 'tronweb';
import { describe, expect, it } from 'vitest';
import { TrxRent, ValidationError } from '../../src/index.js';
import { mnemonicToSeed, mnemonicWords } from '../../src/protocol/bip39.js';
import { MAX_DERIVE_COUNT, deriveAddresses, deriveKeys } from '../../src/protocol/hd-keys.js';
import { resolveSigner } from '../../src/protocol/signer.js';

// BIP-39's own test vectors (English): 12 words of entropy 0x00…, 24 words of entropy 0xff….
const WORDS_12 = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const WORDS_24 = `${'zoo '.repeat(23)}vote`;
const client = new TrxRent({ baseUrl: 'http://127.0.0.1:9', apiKey: 'sk_test' });

function tronweb(words: string, path: string, passphrase?: string): { address: string; privateKey: string } {
  const account = (TronWeb.fromMnemonic as (m: string, p: string, pw?: string) => { address: string; privateKey: string })(words, path, passphrase);
  return { address: account.address, privateKey: account.privateKey.replace(/^0x/, '').toLowerCase() };
}

async function validationOf(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

describe('HD deposit addresses: equal to tronweb', () => {
  it.each([0, 1])("100 indexes of account %i: every address and key is tronweb's fromMnemonic for the same path", async (account) => {
    const keys = await client.chain.deriveKeys({ mnemonic: WORDS_12, account, count: 100 });
    const addresses = await client.chain.deriveAddresses({ mnemonic: WORDS_12, account, count: 100 });
    expect(keys).toHaveLength(100);
    expect(addresses).toEqual(keys.map(({ index, path, address }) => ({ index, path, address })));
    for (const [i, key] of keys.entries()) {
      expect(key.index).toBe(i);
      expect(key.path).toBe(`m/44'/195'/${account}'/0/${i}`);
      expect({ address: key.address, privateKey: key.privateKey }).toEqual(tronweb(WORDS_12, key.path));
    }
    expect(new Set(addresses.map((a) => a.address)).size).toBe(100);
  });

  it('another mnemonic with a passphrase, from a later index: still tronweb (fromMnemonic with its password)', async () => {
    const keys = await deriveKeys({ mnemonic: WORDS_24, passphrase: 'TREZOR', account: 3, from: 2_000_000_000, count: 5 });
    for (const key of keys) expect({ address: key.address, privateKey: key.privateKey }).toEqual(tronweb(WORDS_24, key.path, 'TREZOR'));
    // the passphrase changes every address
    const without = await deriveAddresses({ mnemonic: WORDS_24, account: 3, from: 2_000_000_000, count: 5 });
    expect(without.map((a) => a.address)).not.toEqual(keys.map((k) => k.address));
  });

  it("the mnemonic's seed (bytes or hex) derives the same addresses; spacing and case of the words do not matter", async () => {
    const expected = await deriveAddresses({ mnemonic: WORDS_12, from: 7, count: 3 });
    const seed = await mnemonicToSeed(mnemonicWords(WORDS_12));
    expect(await deriveAddresses({ seed, from: 7, count: 3 })).toEqual(expected);
    expect(await deriveAddresses({ seed: `0x${Buffer.from(seed).toString('hex')}`, from: 7, count: 3 })).toEqual(expected);
    expect(seed.some((b) => b !== 0)).toBe(true); // a caller's seed bytes are left as they were
    expect(await deriveAddresses({ mnemonic: `  ${WORDS_12.toUpperCase().replace(/ /g, ' \n\t')} `, from: 7, count: 3 })).toEqual(expected);
  });
});

describe('HD deposit addresses: keys never print', () => {
  it('a derived key signs as { privateKey } but JSON, inspect and a spread show index, path and address only', async () => {
    const [key] = await client.chain.deriveKeys({ mnemonic: WORDS_12, count: 1 });
    const secret = key!.privateKey;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(key!)).toEqual(['index', 'path', 'address']);
    expect(JSON.stringify(key)).not.toContain(secret);
    expect(inspect(key, { depth: 5 })).not.toContain(secret);
    expect(JSON.stringify({ ...key })).not.toContain(secret);
    expect(resolveSigner(key!)).toEqual({ from: key!.address, privateKey: secret });
  });
});

describe('HD deposit addresses: bad inputs', () => {
  const secretish = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon';

  it('an invalid mnemonic (checksum, unknown word, word count) is a VALIDATION_ERROR naming the field, never the words', async () => {
    for (const mnemonic of [secretish, WORDS_12.replace('about', 'aboot'), 'abandon about', '']) {
      const error = await validationOf(client.chain.deriveAddresses({ mnemonic, count: 1 }));
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.details).toMatchObject({ field: 'mnemonic' });
      expect(error.message).toMatch(/^mnemonic: /);
      expect(JSON.stringify({ message: error.message, details: error.details })).not.toMatch(/abandon|aboot/);
    }
    // and deriveKeys refuses the same way
    expect((await validationOf(client.chain.deriveKeys({ mnemonic: secretish, count: 1 }))).details).toMatchObject({ field: 'mnemonic' });
  });

  it('each other bad field is named: neither or both sources, seed size, passphrase with a seed, account, from, count', async () => {
    const seed = new Uint8Array(32).fill(1);
    const cases: Array<[Parameters<typeof deriveAddresses>[0], string]> = [
      [{ count: 1 }, 'mnemonic'],
      [{ mnemonic: WORDS_12, seed, count: 1 }, 'mnemonic'],
      [{ seed: new Uint8Array(15), count: 1 }, 'seed'],
      [{ seed: 'not hex', count: 1 }, 'seed'],
      [{ seed, passphrase: 'x', count: 1 }, 'passphrase'],
      [{ seed, account: -1, count: 1 }, 'account'],
      [{ seed, account: 2 ** 31, count: 1 }, 'account'],
      [{ seed, from: 1.5, count: 1 }, 'from'],
      [{ seed, count: 0 }, 'count'],
      [{ seed, count: MAX_DERIVE_COUNT + 1 }, 'count'],
      [{ seed, from: 2 ** 31 - 1, count: 2 }, 'count'],
    ];
    for (const [params, field] of cases) {
      const error = await validationOf(deriveAddresses(params));
      expect(error.details, JSON.stringify({ ...params, seed: undefined })).toMatchObject({ field });
    }
  });
});
