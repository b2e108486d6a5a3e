/**
 * A local private key as a {@link Signer}: secp256k1 in this process (@noble/curves), the key
 * kept in a closure (never a property, never serialised, never logged, never sent).
 * @module
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { ValidationError } from '../../errors/index.js';
import { publicKeyToTronAddress } from '../tron-keys.js';
import { type Signer, checkPermissionId, signerJson } from './signature.js';

/** Options every adapter takes. */
export interface SignerOptions {
  /** The account permission the signer signs under: 0 (owner, the default) or an active permission's id (2..9). */
  permissionId?: number | undefined;
}

/** A private key as 32 bytes, or a ValidationError naming `field` that never echoes the value. */
export function privateKeyBytes(privateKey: unknown, field = 'privateKey'): Uint8Array {
  const hex = typeof privateKey === 'string' ? privateKey.trim().replace(/^0x/i, '') : '';
  const n = /^[0-9a-fA-F]{64}$/.test(hex) ? BigInt(`0x${hex}`) : 0n;
  if (n === 0n || n >= secp256k1.Point.Fn.ORDER) {
    throw new ValidationError({
      code: 'VALIDATION_ERROR',
      message: `${field} must be a secp256k1 private key: 64 hex characters, with or without 0x`,
      details: { field },
    });
  }
  return hexToBytes(hex);
}

/** A {@link Signer} over a private key held in this process (64 hex characters, with or without 0x). */
export function fromPrivateKey(privateKey: string, options: SignerOptions = {}): Signer {
  const key = privateKeyBytes(privateKey);
  const permissionId = checkPermissionId(options.permissionId);
  const address = publicKeyToTronAddress(secp256k1.getPublicKey(key, false));
  return Object.freeze({
    address,
    ...(permissionId !== undefined ? { permissionId } : {}),
    async signDigest(digest: Uint8Array): Promise<Uint8Array> {
      if (!(digest instanceof Uint8Array) || digest.length !== 32) throw new TypeError('signDigest takes a 32-byte digest');
      // noble signs with low s (lowS: true) and returns the recovery id of the low-s form.
      const sig = secp256k1.sign(digest, key, { prehash: false, format: 'recovered' });
      // 'recovered' is the recovery id then r || s; TRON puts it last, as 27 + id.
      const out = new Uint8Array(65);
      out.set(sig.subarray(1), 0);
      out[64] = 27 + sig[0]!;
      return out;
    },
    toJSON: signerJson('privateKey', address, permissionId),
  });
}
