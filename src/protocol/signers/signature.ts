/**
 * The signer interface every TRON signature in trx-rent goes through, and the one place a
 * signature from outside (a KMS, an HSM, a wallet, your function) is made into what a TRON node
 * accepts: 65 bytes r ‖ s ‖ v over the 32-byte txID, s in the lower half of the curve order (as
 * java-tron's own `ECKey.sign` and tronweb emit it), v = 27 + the recovery id, and checked to
 * recover to the signer's address before it leaves the process.
 * @module
 */
import { nameClass } from '../../errors/name.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { publicKeyToTronAddress } from '../tron-keys.js';

/**
 * Who signs a TRON transaction, in the spirit of viem's custom accounts: an address, the account
 * permission it signs under, and a function that signs a 32-byte digest. Make one with
 * `fromPrivateKey`, `fromTronWeb`, `fromSignFunction` or `fromAwsKms` (`trx-rent/signers`), or
 * write your own (an HSM, a remote approver).
 */
export interface Signer {
  /** The base58 address of the key that signs. For a multi-signature account this is one of the permission's keys, not the account. */
  readonly address: string;
  /**
   * The account permission the signature is for: 0 (or absent) is the owner permission, 2 and up
   * the account's active permissions. It is part of the transaction (`raw_data.contract[0].Permission_id`),
   * so it changes the txID and must be set before the first signature.
   */
  readonly permissionId?: number | undefined;
  /**
   * Sign a 32-byte digest (a transaction's txID, or a TIP-712 hash) with secp256k1, without
   * hashing it again. Returns 65 bytes r ‖ s ‖ v (v = 27 or 28, or 0 or 1), or 64 bytes r ‖ s
   * (the recovery id is then found from the address). A high s is accepted and made low.
   */
  signDigest(digest: Uint8Array): Promise<Uint8Array>;
  /**
   * For wallets that sign whole transactions only (a browser wallet's TronWeb): sign `tx` and
   * return it with its signature appended. When present, `signTransactionWith` uses it instead
   * of `signDigest` and still checks the new signature.
   */
  signTransaction?(tx: SignableTransaction): Promise<{ signature?: string[] | undefined }>;
}

/** A transaction as signers see it (tronweb's JSON shape; `visible: false`). */
export interface SignableTransaction {
  txID: string;
  raw_data: Record<string, unknown>;
  raw_data_hex?: string | undefined;
  signature?: string[] | undefined;
  visible?: boolean | undefined;
}

const N = secp256k1.Point.Fn.ORDER;
const HALF_N = N >> 1n;

/** A signature that is not what the signer's address would make: never sent anywhere. */
export class SignatureMismatchError extends Error {
  override readonly name = 'SignatureMismatchError';
}
// A minifier renames classes: the name is written out.
nameClass(SignatureMismatchError, 'SignatureMismatchError');

function bigintOf(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${bytesToHex(bytes)}`);
}

function recoveredAddress(r: bigint, s: bigint, recovery: number, digest: Uint8Array): string | undefined {
  try {
    const point = new secp256k1.Signature(r, s, recovery).recoverPublicKey(digest);
    return publicKeyToTronAddress(point.toBytes(false));
  } catch {
    return undefined;
  }
}

/**
 * (r, s) over `digest` to TRON's 65 bytes: s made low (s > n/2 becomes n − s, which flips the
 * recovery id), then the recovery id found by trying 0 and 1 against `address` (what java-tron's
 * `ECKey.sign` does after signing: "try each recId in turn"). `hint` is a recovery id the signer
 * gave (for the original s), tried first. Throws SignatureMismatchError when neither recovers to
 * `address`: the key that signed is not the signer's.
 */
export function toTronSignature(r: bigint, s: bigint, digest: Uint8Array, address: string, hint?: number): Uint8Array {
  if (digest.length !== 32) throw new TypeError(`a digest is 32 bytes, got ${digest.length}`);
  if (r <= 0n || r >= N || s <= 0n || s >= N) throw new SignatureMismatchError('r and s must be in [1, n-1]');
  let low = s;
  let flipped = false;
  if (s > HALF_N) {
    low = N - s;
    flipped = true;
  }
  const order = hint === 0 || hint === 1 ? [flipped ? hint ^ 1 : hint, flipped ? hint : hint ^ 1] : [0, 1];
  for (const recovery of order) {
    if (recoveredAddress(r, low, recovery, digest) === address) {
      const out = new Uint8Array(65);
      out.set(hexToBytes(`${r.toString(16).padStart(64, '0')}${low.toString(16).padStart(64, '0')}`), 0);
      out[64] = 27 + recovery;
      return out;
    }
  }
  throw new SignatureMismatchError(`the signature does not recover to ${address}: the key that signed is not this signer's`);
}

/**
 * What a signer returned (65 bytes r ‖ s ‖ v with v 0/1/27/28, or 64 bytes r ‖ s; bytes or hex),
 * normalised by {@link toTronSignature} and checked against `address`.
 */
export function normaliseSignature(signature: Uint8Array | string, digest: Uint8Array, address: string): Uint8Array {
  let bytes: Uint8Array;
  if (typeof signature === 'string') {
    const hex = signature.replace(/^0x/i, '');
    if (!/^([0-9a-fA-F]{2})+$/.test(hex)) throw new SignatureMismatchError('a signature in hex must be 64 or 65 bytes of hex');
    bytes = hexToBytes(hex);
  } else if (signature instanceof Uint8Array) {
    bytes = signature;
  } else {
    throw new SignatureMismatchError('a signer must return the signature as bytes (Uint8Array) or hex');
  }
  if (bytes.length !== 64 && bytes.length !== 65)
    throw new SignatureMismatchError(`a signature is 65 bytes r ‖ s ‖ v (or 64 bytes r ‖ s), got ${bytes.length}`);
  let hint: number | undefined;
  if (bytes.length === 65) {
    const v = bytes[64]!;
    hint = v >= 27 ? v - 27 : v;
    if (hint !== 0 && hint !== 1) throw new SignatureMismatchError(`v must be 0, 1, 27 or 28, got ${v}`);
  }
  return toTronSignature(bigintOf(bytes.subarray(0, 32)), bigintOf(bytes.subarray(32, 64)), digest, address, hint);
}

/**
 * A signer's `permissionId`, checked: absent, 0 (owner) or 2..9 (the account's active
 * permissions: java-tron keeps at most 8, ids from 2). 1 is the witness permission, which no
 * transfer may use (java-tron `TransactionCapsule.checkPermission`: "Permission type is error").
 */
export function checkPermissionId(value: unknown, field = 'permissionId'): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 9 || value === 1) {
    throw new TypeError(`${field} must be 0 (owner) or 2..9 (an active permission), got ${String(value)}`);
  }
  return value;
}

/** `signature` as TRON's hex (130 characters, no 0x). */
export function signatureToHex(signature: Uint8Array): string {
  return bytesToHex(signature);
}

/** Every adapter's JSON form: the address and permission, never a key or a client. */
export function signerJson(kind: string, address: string, permissionId: number | undefined): () => Record<string, unknown> {
  return () => ({ signer: kind, address, ...(permissionId !== undefined ? { permissionId } : {}) });
}
