/**
 * An AWS KMS key as a {@link Signer}: an asymmetric key of spec `ECC_SECG_P256K1` (usage
 * SIGN_VERIFY) signs the txID in KMS and the private key never leaves it. Needs the optional
 * peer `@aws-sdk/client-kms` (loaded on first use through src/peers; missing, the error names
 * the install command). KMS `Sign` with `MessageType: DIGEST` and `ECDSA_SHA_256` signs the
 * 32-byte digest as given ("KMS skips the hashing step") and returns DER; r and s are decoded, s
 * is made low and the recovery id found against the key's public key (`GetPublicKey`, an X.509
 * SubjectPublicKeyInfo, read once), from which the TRON address is derived.
 * @module
 */
import { ValidationError } from '../../errors/index.js';
import { loadAwsKms } from '../../peers/index.js';
import { publicKeyToTronAddress } from '../tron-keys.js';
import { decodeDerSignature, decodeSecp256k1Spki } from './der.js';
import type { SignerOptions } from './local.js';
import { type Signer, checkPermissionId, signerJson, toTronSignature } from './signature.js';

/** A KMS client as far as the adapter uses one: `send(command)` (the SDK's `KMSClient`). */
export interface KmsClientLike {
  send(command: never): Promise<unknown>;
}

/** What {@link fromAwsKms} signs with. */
export interface AwsKmsSignerOptions extends SignerOptions {
  /** The key: id, ARN, alias name (`alias/…`) or alias ARN. Its spec must be `ECC_SECG_P256K1`. */
  keyId: string;
  /** A `KMSClient` you made (region, credentials, endpoint). Without one, a client is made from `clientConfig`. */
  client?: KmsClientLike | undefined;
  /** `new KMSClient(clientConfig)`: `{ region, credentials, endpoint, … }`; the SDK's own defaults (environment, profiles) apply to what is left out. */
  clientConfig?: Record<string, unknown> | undefined;
}

function invalid(field: string, message: string): ValidationError {
  return new ValidationError({ code: 'VALIDATION_ERROR', message: `${field}: ${message}`, details: { field } });
}

/**
 * A {@link Signer} over an AWS KMS key (async: it reads the key's public key first, to know the
 * address and to find each signature's recovery id). Every signature is checked to recover to
 * that address before it is used.
 */
export async function fromAwsKms(options: AwsKmsSignerOptions): Promise<Signer> {
  const keyId = options?.keyId;
  if (typeof keyId !== 'string' || keyId.trim() === '') throw invalid('keyId', 'the KMS key id, ARN or alias');
  const permissionId = checkPermissionId(options.permissionId);
  const sdk = (await loadAwsKms()) as unknown as {
    KMSClient: new (config: Record<string, unknown>) => KmsClientLike;
    GetPublicKeyCommand: new (input: Record<string, unknown>) => unknown;
    SignCommand: new (input: Record<string, unknown>) => unknown;
  };
  const client = options.client ?? new sdk.KMSClient(options.clientConfig ?? {});
  const key = (await client.send(new sdk.GetPublicKeyCommand({ KeyId: keyId }) as never)) as { PublicKey?: Uint8Array; KeySpec?: string; KeyUsage?: string };
  if (key.KeySpec !== undefined && key.KeySpec !== 'ECC_SECG_P256K1') throw invalid('keyId', `the key's spec is ${key.KeySpec}; TRON needs ECC_SECG_P256K1`);
  if (key.KeyUsage !== undefined && key.KeyUsage !== 'SIGN_VERIFY') throw invalid('keyId', `the key's usage is ${key.KeyUsage}; signing needs SIGN_VERIFY`);
  if (!(key.PublicKey instanceof Uint8Array)) throw invalid('keyId', 'GetPublicKey returned no public key');
  let address: string;
  try {
    address = publicKeyToTronAddress(decodeSecp256k1Spki(key.PublicKey));
  } catch (error) {
    throw invalid('keyId', `GetPublicKey: ${(error as Error).message}`);
  }
  return Object.freeze({
    address,
    ...(permissionId !== undefined ? { permissionId } : {}),
    async signDigest(digest: Uint8Array): Promise<Uint8Array> {
      if (!(digest instanceof Uint8Array) || digest.length !== 32) throw new TypeError('signDigest takes a 32-byte digest');
      const answer = (await client.send(
        new sdk.SignCommand({ KeyId: keyId, Message: Uint8Array.from(digest), MessageType: 'DIGEST', SigningAlgorithm: 'ECDSA_SHA_256' }) as never,
      )) as { Signature?: Uint8Array };
      if (!(answer.Signature instanceof Uint8Array)) throw new Error('KMS Sign returned no signature');
      const { r, s } = decodeDerSignature(answer.Signature);
      return toTronSignature(r, s, digest, address);
    },
    toJSON: signerJson('awsKms', address, permissionId),
  });
}
