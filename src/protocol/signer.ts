/**
 * Who signs a TRON transaction, resolved in one place. {@link toSigner} takes what callers pass
 * (`{ privateKey }`, a 64-hex key, a TronWeb instance, or a {@link Signer} such as a KMS key) and
 * gives the one interface; {@link signTransactionWith} signs a transaction's txID with it and
 * appends the checked 65-byte signature; {@link withPermissionId} names the account permission
 * before the first signature (it changes the txID). {@link resolveSigner} is the older form the
 * transfer engine and payouts read (`{ from, privateKey }` or `{ from, tronWeb }`). Loaded lazily
 * with the signing code (secp256k1), never with the core.
 * @module
 */
import { hexToBytes } from '@noble/hashes/utils.js';
import { ValidationError } from '../errors/index.js';
import { isTronAddress } from '../utils/address.js';
import { privateKeyToTronAddress, recoverTransactionSigner } from './tron-keys.js';
import { decodeRawDataHex, encodeRawDataJson, transactionId } from './tron-raw-data.js';
import { fromPrivateKey } from './signers/local.js';
import { type SignableTransaction, type Signer, SignatureMismatchError, checkPermissionId, normaliseSignature, signatureToHex } from './signers/signature.js';
import { fromTronWeb, isTronWeb } from './signers/tronweb.js';

export type { SignableTransaction, Signer } from './signers/signature.js';

/** A TronWeb instance as far as a signer needs one: a default account and `trx.sign`. */
export interface TronWebSigner {
  defaultAddress?: { base58?: string | false } | undefined;
  trx: {
    /** Sign a transaction (TronWeb's own `trx.sign`). */
    sign(tx: never, privateKey?: string): Promise<unknown>;
  };
}

/** Anything `toSigner` accepts: a {@link Signer}, `{ privateKey, permissionId? }`, a private key as 64 hex, or a TronWeb instance. */
export type SignerInput = Signer | { privateKey: string; permissionId?: number | undefined } | string | TronWebSigner;

/** A resolved signer: the sender's address and either the key (hex, no 0x) or the TronWeb instance. */
export type ResolvedSigner<T extends TronWebSigner = TronWebSigner> =
  | { from: string; privateKey: string; tronWeb?: undefined }
  | { from: string; privateKey?: undefined; tronWeb: T };

function invalid(field: string, message: string): ValidationError {
  return new ValidationError({ code: 'VALIDATION_ERROR', message: `${field}: ${message}`, details: { field } });
}

/** Whether `signer` is a TronWeb instance (it has `trx.sign`) rather than `{ privateKey }`. */
export function isTronWebSigner(signer: unknown): signer is TronWebSigner {
  return isTronWeb(signer);
}

/** Whether `value` is a {@link Signer}: an address and a `signDigest` function. */
export function isSigner(value: unknown): value is Signer {
  return Boolean(value && typeof value === 'object' && typeof (value as Signer).signDigest === 'function' && typeof (value as Signer).address === 'string');
}

/**
 * Any {@link SignerInput} to a {@link Signer}: a Signer is checked and kept, `{ privateKey }` and a
 * 64-hex key become a local signer, a TronWeb instance signs with its default account. A bad
 * input is a VALIDATION_ERROR naming `field`; a key never appears in the message.
 */
export function toSigner(input: SignerInput | undefined, field = 'signer'): Signer {
  if (isSigner(input)) {
    if (!isTronAddress(input.address)) throw invalid(field, 'its address is not a TRON address');
    try {
      checkPermissionId(input.permissionId, `${field}.permissionId`);
    } catch (error) {
      throw invalid(field, (error as Error).message);
    }
    return input;
  }
  if (isTronWeb(input)) return fromTronWeb(input);
  if (typeof input === 'string') return keySigner(input, undefined, field);
  if (input && typeof input === 'object' && 'privateKey' in input)
    return keySigner((input as { privateKey: unknown }).privateKey, (input as { permissionId?: unknown }).permissionId, `${field}.privateKey`);
  throw invalid(field, 'pass { privateKey }, a TronWeb instance, or a Signer (trx-rent/signers: fromPrivateKey, fromAwsKms, fromSignFunction)');
}

function keySigner(key: unknown, permissionId: unknown, field: string): Signer {
  try {
    return fromPrivateKey(String(key ?? ''), { permissionId: permissionId as number | undefined });
  } catch (error) {
    if (error instanceof TypeError) throw invalid(field.replace(/\.privateKey$/, '.permissionId'), error.message);
    throw invalid(field, 'must be 64 hex characters (with or without 0x), or pass a TronWeb instance');
  }
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

/** The protobuf bytes a transaction's txID hashes: `raw_data_hex`, else its `raw_data` JSON encoded. */
function rawHexOf(tx: SignableTransaction): string {
  if (typeof tx.raw_data_hex === 'string' && /^([0-9a-fA-F]{2})+$/.test(tx.raw_data_hex)) return tx.raw_data_hex.toLowerCase();
  return encodeRawDataJson(tx.raw_data);
}

/** The account permission a transaction names (`raw_data.contract[0].Permission_id`; 0 when absent). */
export function permissionIdOf(tx: SignableTransaction): number {
  return decodeRawDataHex(rawHexOf(tx)).permissionId ?? 0;
}

/**
 * `tx` naming account permission `permissionId` (0 = owner, 2..9 = an active permission):
 * `raw_data.contract[0].Permission_id`, `raw_data_hex` and `txID` rebuilt (the id is part of
 * what the txID hashes). Refused once the transaction carries a signature: those would no
 * longer match. For the contracts trx-rent encodes (TRX and TRC-20 transfers, permission updates).
 */
export function withPermissionId<T extends SignableTransaction>(tx: T, permissionId: number): T {
  checkPermissionId(permissionId);
  if ((tx.signature?.length ?? 0) > 0) throw new TypeError('the permission id is part of the txID: set it before the first signature');
  const contract = (tx.raw_data.contract as Array<Record<string, unknown>>)[0]!;
  const { Permission_id: _old, ...rest } = contract;
  const raw_data = { ...tx.raw_data, contract: [permissionId ? { ...rest, Permission_id: permissionId } : rest] };
  const raw_data_hex = encodeRawDataJson(raw_data);
  return { ...tx, raw_data, raw_data_hex, txID: transactionId(raw_data_hex) };
}

/**
 * Sign `tx` with `signer`: its txID (checked to be sha256 of the raw data) is the digest, the
 * 65-byte signature is normalised (low s), checked to recover to the signer's address, and
 * appended to `signature` (the txID does not change: signatures are outside the raw data). The
 * transaction must already name the signer's permission (see {@link withPermissionId}); a signer
 * whose address has already signed is refused, as java-tron refuses a key signing twice.
 */
export async function signTransactionWith<T extends SignableTransaction>(signerInput: SignerInput, tx: T): Promise<T & { signature: string[] }> {
  const signer = toSigner(signerInput);
  const rawHex = rawHexOf(tx);
  const txID = transactionId(rawHex);
  if (typeof tx.txID !== 'string' || tx.txID.replace(/^0x/i, '').toLowerCase() !== txID)
    throw new TypeError('the transaction txID is not sha256 of its raw data: refusing to sign it');
  const named = decodeRawDataHex(rawHex).permissionId ?? 0;
  if (named !== (signer.permissionId ?? 0)) {
    throw new TypeError(
      `the transaction names permission ${named} but ${signer.address} signs for permission ${signer.permissionId ?? 0}: set it with withPermissionId before the first signature`,
    );
  }
  const before = tx.signature ?? [];
  if (before.some((sig) => recoverTransactionSigner(txID, sig.replace(/^0x/i, '').slice(0, 130)) === signer.address)) {
    throw new TypeError(`${signer.address} has already signed this transaction`);
  }
  let added: string;
  if (signer.signTransaction) {
    // tronweb's trx.sign refuses a transaction with a `signature` field, even an empty one.
    const { signature: _none, ...unsigned } = tx;
    const signed = await signer.signTransaction(before.length ? { ...tx, signature: [...before] } : unsigned);
    const after = Array.isArray(signed?.signature) ? signed.signature : [];
    const fresh = after.filter((sig) => !before.includes(sig));
    if (fresh.length !== 1) throw new SignatureMismatchError('the wallet did not add exactly one signature');
    added = signatureToHex(normaliseSignature(fresh[0]!, hexToBytes(txID), signer.address));
  } else {
    added = signatureToHex(normaliseSignature(await signer.signDigest(hexToBytes(txID)), hexToBytes(txID), signer.address));
  }
  return { ...tx, signature: [...before, added] };
}
