/**
 * TRON keys and signatures: the address of a public or private key, a secp256k1 signature over
 * a txID in the form TRON nodes expect (r || s || v), and recovering the signer from one.
 * @module
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { toTronAddress } from '../utils/address.js';

function normaliseKey(privateKeyHex: string): Uint8Array {
  const hex = privateKeyHex.replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new TypeError('A private key is 64 hex characters (with or without 0x)');
  return hexToBytes(hex);
}

/** The base58 address that owns an uncompressed or compressed secp256k1 public key. */
export function publicKeyToTronAddress(publicKey: Uint8Array): string {
  const point = secp256k1.Point.fromBytes(publicKey).toBytes(false);
  return toTronAddress(`41${bytesToHex(keccak_256(point.subarray(1)).subarray(12))}`);
}

/** The base58 address of a private key (64 hex characters, with or without 0x). */
export function privateKeyToTronAddress(privateKeyHex: string): string {
  return publicKeyToTronAddress(secp256k1.getPublicKey(normaliseKey(privateKeyHex), false));
}

/** Signature over the txID as TRON nodes expect it: r || s || v (v = 27 + recovery), 130 hex. */
export function signTransactionId(txID: string, privateKeyHex: string): string {
  // 'recovered' is the recovery id then r || s; the digest is the txID itself (no prehash).
  const sig = secp256k1.sign(hexToBytes(txID), normaliseKey(privateKeyHex), { prehash: false, format: 'recovered' });
  return `${bytesToHex(sig.subarray(1))}${(sig[0]! + 27).toString(16).padStart(2, '0')}`;
}

/** The base58 address whose key made `signatureHex` over `txID`, or undefined if none. */
export function recoverTransactionSigner(txID: string, signatureHex: string): string | undefined {
  try {
    const hex = signatureHex.replace(/^0x/i, '');
    if (!/^[0-9a-fA-F]{130}$/.test(hex) || !/^[0-9a-fA-F]{64}$/.test(txID)) return undefined;
    let v = Number.parseInt(hex.slice(128), 16);
    if (v >= 27) v -= 27;
    if (v !== 0 && v !== 1) return undefined;
    const sig = secp256k1.Signature.fromHex(hex.slice(0, 128), 'compact').addRecoveryBit(v);
    return publicKeyToTronAddress(sig.recoverPublicKey(hexToBytes(txID)).toBytes(false));
  } catch {
    return undefined;
  }
}

/** Sign an unsigned transaction locally; the key never leaves the process. */
export function signTransaction<T extends { txID: string }>(tx: T, privateKeyHex: string): T & { signature: string[] } {
  return { ...tx, signature: [signTransactionId(tx.txID, privateKeyHex)] };
}
