/**
 * A TronWeb instance as a {@link Signer}. An instance that holds a private key signs digests with
 * it in this process (so it can sign under any permission and add a signature to a partly signed
 * transaction); a browser wallet's instance (TronLink: no key in the page) signs whole
 * transactions through its own `trx.sign`.
 * @module
 */
import { ValidationError } from '../../errors/index.js';
import { isTronAddress } from '../../utils/address.js';
import { fromPrivateKey, type SignerOptions } from './local.js';
import { type SignableTransaction, type Signer, checkPermissionId, signerJson } from './signature.js';

/** A TronWeb instance as far as a signer needs one. */
export interface TronWebSignerLike {
  defaultAddress?: { base58?: string | false } | undefined;
  /** Set when the instance was made with a private key; absent or false for a browser wallet. */
  defaultPrivateKey?: string | false | undefined;
  trx: { sign(tx: never, privateKey?: string, useTronHeader?: boolean, multisig?: boolean): Promise<unknown> };
}

/** Whether `value` is a TronWeb instance (it has `trx.sign`). */
export function isTronWeb(value: unknown): value is TronWebSignerLike {
  return Boolean(value && typeof value === 'object' && 'trx' in value && typeof (value as { trx?: { sign?: unknown } }).trx?.sign === 'function');
}

/** A {@link Signer} over a TronWeb instance and its default account (or `options.address`). */
export function fromTronWeb(tronWeb: TronWebSignerLike, options: SignerOptions & { address?: string } = {}): Signer {
  if (!isTronWeb(tronWeb))
    throw new ValidationError({ code: 'VALIDATION_ERROR', message: 'signer: not a TronWeb instance (no trx.sign)', details: { field: 'signer' } });
  const address = options.address ?? (tronWeb.defaultAddress?.base58 || '');
  if (!isTronAddress(address))
    throw new ValidationError({ code: 'VALIDATION_ERROR', message: 'signer: the TronWeb instance has no default address', details: { field: 'signer' } });
  const permissionId = checkPermissionId(options.permissionId);
  const key = typeof tronWeb.defaultPrivateKey === 'string' && tronWeb.defaultPrivateKey !== '' ? tronWeb.defaultPrivateKey : undefined;
  const local = key === undefined ? undefined : fromPrivateKey(key);
  if (local && local.address !== address) {
    throw new ValidationError({
      code: 'VALIDATION_ERROR',
      message: `signer: the TronWeb instance's key is not the key of ${address}`,
      details: { field: 'signer' },
    });
  }
  const base = { address, ...(permissionId !== undefined ? { permissionId } : {}), toJSON: signerJson('tronWeb', address, permissionId) };
  if (local) return Object.freeze({ ...base, signDigest: (digest: Uint8Array) => local.signDigest(digest) });
  return Object.freeze({
    ...base,
    async signDigest(): Promise<Uint8Array> {
      throw new ValidationError({
        code: 'VALIDATION_ERROR',
        message: 'signer: this TronWeb instance holds no private key (a browser wallet); it signs whole transactions only, not digests',
        details: { field: 'signer' },
      });
    },
    async signTransaction(tx: SignableTransaction) {
      // tronweb's trx.sign refuses a signed transaction or another owner unless told it is a multi-signature.
      const multisig = (tx.signature?.length ?? 0) > 0 || permissionId !== undefined;
      return (await (multisig ? tronWeb.trx.sign(tx as never, undefined, undefined, true) : tronWeb.trx.sign(tx as never))) as { signature?: string[] };
    },
  });
}
