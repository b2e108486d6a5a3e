/**
 * HD wallets on TRON: addresses and keys derived from a BIP-39 mnemonic (English words) or a
 * BIP-32 seed along BIP-44's path for TRON, m/44'/195'/account'/0/index (coin type 195 in
 * SLIP-44), the path TronLink and tronweb's `TronWeb.fromMnemonic` use. `bip39.ts` checks the
 * words and turns them into the seed (PBKDF2-HMAC-SHA512, 2048 rounds, salt "mnemonic" +
 * passphrase) and @scure/bip32 walks the path, on the @noble curves and hashes the package signs
 * with; the address is the one `tron-keys.ts` gives a public key.
 *
 * A derived key's `privateKey` is not enumerable: `JSON.stringify`, `console.log` and object
 * spreads leave it out, while a transfer's `signer` (`{ privateKey }`) reads it. Errors name the
 * field, never its value. Loaded lazily (`client.chain.deriveAddresses`), never with the core.
 * @module
 */
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { HDKey } from '@scure/bip32';
import { ValidationError } from '../errors/index.js';
import { mnemonicToEntropy, mnemonicToSeed, mnemonicWords } from './bip39.js';
import { publicKeyToTronAddress } from './tron-keys.js';

/** TRON's coin type in BIP-44 (SLIP-44): 195. */
export const TRON_COIN_TYPE = 195;
/** The most addresses one call derives (a sweep's deposit range is cut into such calls). */
export const MAX_DERIVE_COUNT = 100_000;
/** Indexes and accounts are non-hardened (index) or hardened (account) 31-bit numbers. */
const MAX_INDEX = 2 ** 31 - 1;

/**
 * What to derive from: a BIP-39 `mnemonic` (English, 12 to 24 words, checksum checked; case and
 * spacing are normalised as tronweb does) with an optional `passphrase`, or a BIP-32 `seed`
 * (16 to 64 bytes, or their hex). Exactly one of the two.
 */
export interface DeriveAddressesParams {
  /** BIP-39 words (English). Never printed: errors say only that it is invalid. */
  mnemonic?: string | undefined;
  /** BIP-39 passphrase (the "25th word"); empty by default, as tronweb's. */
  passphrase?: string | undefined;
  /** A BIP-32 seed instead of a mnemonic: 16 to 64 bytes, or their hex (with or without 0x). */
  seed?: string | Uint8Array | undefined;
  /** The account of m/44'/195'/account'/0/index (hardened). @default 0 */
  account?: number | undefined;
  /** The first index. @default 0 */
  from?: number | undefined;
  /** How many consecutive indexes, from `from`: 1 to 100,000 a call. */
  count: number;
}

/** One derived address: its index, its full path and its base58 address. */
export interface DerivedAddress {
  index: number;
  /** m/44'/195'/account'/0/index */
  path: string;
  address: string;
}

/**
 * A derived address with its private key, usable as a transfer's `signer` (it is a
 * `{ privateKey }`). `privateKey` (64 hex, no 0x) is not enumerable, so printing or serialising
 * the object shows index, path and address only.
 */
export interface DerivedKey extends DerivedAddress {
  readonly privateKey: string;
}

function invalid(field: string, message: string): ValidationError {
  return new ValidationError({ code: 'VALIDATION_ERROR', message: `${field}: ${message}`, details: { field } });
}

function integer(value: unknown, field: string, min: number, max: number, fallback?: number): number {
  const n = value === undefined && fallback !== undefined ? fallback : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) throw invalid(field, `must be an integer from ${min} to ${max}`);
  return n;
}

async function seedOf(params: DeriveAddressesParams): Promise<Uint8Array> {
  const hasMnemonic = params.mnemonic !== undefined;
  const hasSeed = params.seed !== undefined;
  if (hasMnemonic === hasSeed) throw invalid('mnemonic', 'give either a mnemonic or a seed (exactly one)');
  if (hasMnemonic) {
    if (typeof params.mnemonic !== 'string') throw invalid('mnemonic', 'must be a string of BIP-39 words');
    const words = mnemonicWords(params.mnemonic);
    const entropy = mnemonicToEntropy(words);
    if (!entropy) {
      throw invalid('mnemonic', 'not a valid BIP-39 mnemonic (12, 15, 18, 21 or 24 English words with a correct checksum)');
    }
    if (params.passphrase !== undefined && typeof params.passphrase !== 'string') throw invalid('passphrase', 'must be a string');
    entropy.fill(0);
    return mnemonicToSeed(words, params.passphrase ?? '');
  }
  if (params.passphrase !== undefined) throw invalid('passphrase', 'applies to a mnemonic, not to a seed');
  let seed: Uint8Array;
  if (params.seed instanceof Uint8Array) seed = params.seed;
  else if (typeof params.seed === 'string' && /^(0x)?([0-9a-fA-F]{2})+$/.test(params.seed.trim())) {
    seed = hexToBytes(params.seed.trim().replace(/^0x/i, ''));
  } else throw invalid('seed', 'must be bytes or their hex');
  if (seed.length < 16 || seed.length > 64) throw invalid('seed', 'must be 16 to 64 bytes (BIP-32)');
  return seed;
}

/** The path of one index: m/44'/195'/account'/0/index. */
export function tronDerivationPath(account: number, index: number): string {
  return `m/44'/${TRON_COIN_TYPE}'/${account}'/0/${index}`;
}

/** Checks the range and walks the path down to m/44'/195'/account'/0, whose children are the indexes. */
async function chain(params: DeriveAddressesParams): Promise<{ node: HDKey; account: number; from: number; count: number }> {
  if (!params || typeof params !== 'object') throw invalid('params', 'must be an object with a mnemonic or a seed, and a count');
  const account = integer(params.account, 'account', 0, MAX_INDEX, 0);
  const from = integer(params.from, 'from', 0, MAX_INDEX, 0);
  const count = integer(params.count, 'count', 1, MAX_DERIVE_COUNT);
  if (from + count - 1 > MAX_INDEX) throw invalid('count', `from + count - 1 must be at most ${MAX_INDEX}`);
  const seed = await seedOf(params);
  const master = HDKey.fromMasterSeed(seed);
  const node = master.derive(`m/44'/${TRON_COIN_TYPE}'/${account}'/0`);
  master.wipePrivateData();
  if (!(params.seed instanceof Uint8Array)) seed.fill(0);
  return { node, account, from, count };
}

/** Walks the range, giving each index's node with its address to `make`; wipes the private data after. */
async function derive<T>(params: DeriveAddressesParams, make: (child: HDKey, derived: DerivedAddress) => T): Promise<T[]> {
  const { node, account, from, count } = await chain(params);
  const out: T[] = [];
  try {
    for (let index = from; index < from + count; index++) {
      const child = node.deriveChild(index);
      out.push(make(child, { index, path: tronDerivationPath(account, index), address: publicKeyToTronAddress(child.publicKey!) }));
      child.wipePrivateData();
    }
  } finally {
    node.wipePrivateData();
  }
  return out;
}

/**
 * `count` addresses from index `from` on m/44'/195'/account'/0/index, as tronweb's
 * `TronWeb.fromMnemonic(words, path)` derives them. A bad input is a VALIDATION_ERROR naming the
 * field (`mnemonic`, `seed`, `passphrase`, `account`, `from`, `count`), never its value.
 */
export function deriveAddresses(params: DeriveAddressesParams): Promise<DerivedAddress[]> {
  return derive(params, (_, derived) => derived);
}

/**
 * Like {@link deriveAddresses}, with each index's private key as a non-enumerable `privateKey`:
 * each result is a `signer` for `client.transfers.send`, and printing it shows no key.
 */
export function deriveKeys(params: DeriveAddressesParams): Promise<DerivedKey[]> {
  return derive(
    params,
    (child, derived) =>
      Object.defineProperty(derived, 'privateKey', {
        value: bytesToHex(child.privateKey!),
        enumerable: false,
        writable: false,
        configurable: false,
      }) as DerivedKey,
  );
}
