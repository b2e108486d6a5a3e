/**
 * `trx-rent/signers`: one signer interface for every TRON signature the SDK makes (transfers,
 * payouts, deposits, x402 payments on TRON), and its adapters: a local private key, a TronWeb
 * instance, your own signing function, and an AWS KMS key (`ECC_SECG_P256K1`, through the
 * optional peer `@aws-sdk/client-kms`). Plus the helpers to sign a transaction with any of them,
 * to name the account permission a multi-signature transaction is signed under, and to check
 * before anything is spent that a set of signers can reach that permission's threshold.
 * @module
 */
export type { SignableTransaction, Signer } from './signature.js';
export { SignatureMismatchError, normaliseSignature, toTronSignature } from './signature.js';
export { fromPrivateKey, type SignerOptions } from './local.js';
export { fromTronWeb, type TronWebSignerLike } from './tronweb.js';
export { fromSignFunction, type SignFunctionOptions } from './function.js';
export { fromAwsKms, type AwsKmsSignerOptions, type KmsClientLike } from './kms.js';
export { decodeDerSignature, decodeSecp256k1Spki } from './der.js';
export { type SignerInput, isSigner, permissionIdOf, signTransactionWith, toSigner, withPermissionId } from '../signer.js';
export {
  CONTRACT_TYPE_IDS,
  type Permission,
  type PermissionCheck,
  type PermissionKey,
  type PermissionType,
  allowsOperation,
  operationsHex,
  permissionCheck,
} from '../tron-permissions.js';
