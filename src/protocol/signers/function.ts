/**
 * Your own signing function as a {@link Signer}: an HSM, a remote approval service, a hardware
 * wallet bridge. The function gets the 32-byte digest and returns the signature in any of the
 * usual forms; what it returns is normalised (low s, v found) and checked against the address
 * before it is used.
 * @module
 */
import { isTronAddress } from '../../utils/address.js';
import { ValidationError } from '../../errors/index.js';
import { type Signer, checkPermissionId, normaliseSignature, signerJson } from './signature.js';
import type { SignerOptions } from './local.js';

/** What {@link fromSignFunction} wraps. */
export interface SignFunctionOptions extends SignerOptions {
  /** The base58 address of the key the function signs with. */
  address: string;
  /**
   * Signs the 32-byte digest as is (no further hashing): 65 bytes r ‖ s ‖ v (v 0/1 or 27/28) or
   * 64 bytes r ‖ s, as bytes or hex (0x optional). A high s is made low.
   */
  sign(digest: Uint8Array): Promise<Uint8Array | string> | Uint8Array | string;
}

/** A {@link Signer} over your function; every signature it returns is checked to recover to `address`. */
export function fromSignFunction(options: SignFunctionOptions): Signer {
  const { address, sign } = options ?? ({} as SignFunctionOptions);
  if (typeof address !== 'string' || !isTronAddress(address)) {
    throw new ValidationError({
      code: 'VALIDATION_ERROR',
      message: 'address must be the base58 TRON address of the signing key',
      details: { field: 'address' },
    });
  }
  if (typeof sign !== 'function')
    throw new ValidationError({ code: 'VALIDATION_ERROR', message: 'sign must be a function of the 32-byte digest', details: { field: 'sign' } });
  const permissionId = checkPermissionId(options.permissionId);
  return Object.freeze({
    address,
    ...(permissionId !== undefined ? { permissionId } : {}),
    async signDigest(digest: Uint8Array): Promise<Uint8Array> {
      if (!(digest instanceof Uint8Array) || digest.length !== 32) throw new TypeError('signDigest takes a 32-byte digest');
      return normaliseSignature(await sign(Uint8Array.from(digest)), digest, address);
    },
    toJSON: signerJson('function', address, permissionId),
  });
}
