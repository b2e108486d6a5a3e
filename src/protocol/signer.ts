/**
 * The one signer resolver: who signs a TRON transaction and from which address, whether the
 * caller gave a private key (used in this process only, never sent) or a TronWeb instance (its
 * default account signs). The transfer engine and deposits both resolve their `signer` here, so
 * the rules and the error a bad signer gets are the same everywhere. Loaded lazily with the
 * signing code (secp256k1), never with the core.
 * @module
 */
import { ValidationError } from '../errors/index.js';
import { isTronAddress } from '../utils/address.js';
import { privateKeyToTronAddress } from './tron-keys.js';

/** A TronWeb instance as far as a signer needs one: a default account and `trx.sign`. */
export interface TronWebSigner {
  defaultAddress?: { base58?: string | false } | undefined;
  trx: { sign(tx: never, privateKey?: string): Promise<unknown> };
}

/** A resolved signer: the sender's address and either the key (hex, no 0x) or the TronWeb instance. */
export type ResolvedSigner<T extends TronWebSigner = TronWebSigner> =
  | { from: string; privateKey: string; tronWeb?: undefined }
  | { from: string; privateKey?: undefined; tronWeb: T };

function invalid(field: string, message: string): ValidationError {
  return new ValidationError({ code: 'VALIDATION_ERROR', message: `${field}: ${message}`, details: { field } });
}

/** Whether `signer` is a TronWeb instance (it has `trx.sign`) rather than `{ privateKey }`. */
export function isTronWebSigner(signer: unknown): signer is TronWebSigner {
  return Boolean(signer && typeof signer === 'object' && 'trx' in signer && typeof (signer as { trx?: { sign?: unknown } }).trx?.sign === 'function');
}

/**
 * `{ privateKey }` (64 hex, with or without 0x) or a TronWeb instance with a default address, to
 * the sender's address and what signs. A bad signer is a VALIDATION_ERROR naming `signer` or
 * `signer.privateKey`; the key never appears in the message.
 */
export function resolveSigner<T extends TronWebSigner>(signer: { privateKey: string } | T | undefined): ResolvedSigner<T> {
  if (isTronWebSigner(signer)) {
    const from = signer.defaultAddress?.base58 || '';
    if (!isTronAddress(from)) throw invalid('signer', 'the TronWeb instance has no default address');
    return { from, tronWeb: signer as T };
  }
  const key = (signer as { privateKey?: unknown } | undefined)?.privateKey;
  try {
    const privateKey = String(key ?? '').replace(/^0x/i, '');
    return { from: privateKeyToTronAddress(privateKey), privateKey };
  } catch {
    throw invalid('signer.privateKey', 'must be 64 hex characters (with or without 0x), or pass a TronWeb instance');
  }
}
