/**
 * TRON transactions without tronweb: build unsigned TRX and TRC-20 transfers and verify a signed
 * transaction; with the raw-data codec (`tron-raw-data.ts`: `raw_data_hex` decoded, the txID,
 * `raw_data` JSON encoded) and keys and signatures (`tron-keys.ts`) re-exported, this is the
 * one module importers take TRON transactions from. Verifiers must trust only `raw_data_hex`,
 * never the `raw_data` JSON that travels next to it.
 * @module
 */
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { isTronAddress, toTronAddress, tronAddressToHex } from '../utils/address.js';
import { encodeTransferCall } from './abi.js';
import { fieldBytes, fieldVarint } from './protobuf.js';
import { recoverTransactionSigner } from './tron-keys.js';
import { CONTRACT_TYPES, type DecodedTransaction, decodeRawDataHex, encodeRawDataJson, transactionId } from './tron-raw-data.js';

// The raw-data codec (tron-raw-data.ts) and keys and signatures (tron-keys.ts) are part of this
// module's face: importers take the whole TRON transaction API from here.
export { CONTRACT_TYPES, type DecodedTransaction, decodeRawDataHex, encodeRawDataJson, transactionId } from './tron-raw-data.js';
export {
  privateKeyToTronAddress,
  publicKeyToTronAddress,
  recoverTransactionSigner,
  signTransaction,
  signTransactionId,
} from './tron-keys.js';

// A type alias, not an interface, so it fits the lenient (index-signature) request schemas.
/** A built, unsigned transaction in tronweb's shape (`visible: false`: hex addresses in `raw_data`). */
export type UnsignedTransaction = {
  txID: string;
  raw_data_hex: string;
  raw_data: Record<string, unknown>;
  visible: false;
};

/** The fields of a signed transaction that {@link verifySignedTransaction} reads. */
export interface SignedTransactionLike {
  txID: string;
  raw_data_hex?: string | undefined;
  raw_data?: unknown;
  signature: string[];
}

/**
 * Everything a verifier checks that needs no chain: raw_data_hex decodes to one contract, its
 * sha256 is the txID, and the first signature recovers to the contract's owner. `recover` may
 * remember answers (the mock's does); it must be {@link recoverTransactionSigner}'s function.
 */
export function verifySignedTransaction(
  tx: SignedTransactionLike,
  recover: (txID: string, signatureHex: string) => string | undefined = recoverTransactionSigner,
): { ok: true; signer: string; decoded: DecodedTransaction } | { ok: false; reason: string } {
  if (!tx || typeof tx.txID !== 'string' || !/^[0-9a-fA-F]{64}$/.test(tx.txID)) return { ok: false, reason: 'invalid_txid' };
  // The spec's signed transaction is txID + raw_data + signature; raw_data_hex is optional. Without
  // it, raw_data is encoded here: only bytes whose sha256 is the signed txID are trusted either way.
  let rawHex = tx.raw_data_hex;
  if (rawHex === undefined && tx.raw_data !== undefined) {
    try {
      rawHex = encodeRawDataJson(tx.raw_data);
    } catch (error) {
      return { ok: false, reason: `invalid_raw_data: ${(error as Error).message}` };
    }
  }
  if (typeof rawHex !== 'string' || !/^([0-9a-fA-F]{2})+$/.test(rawHex)) {
    return { ok: false, reason: 'missing_raw_data' };
  }
  if (transactionId(rawHex) !== tx.txID.toLowerCase()) return { ok: false, reason: 'txid_mismatch' };
  let decoded: DecodedTransaction;
  try {
    decoded = decodeRawDataHex(rawHex);
  } catch (error) {
    return { ok: false, reason: `invalid_raw_data: ${(error as Error).message}` };
  }
  const sig = Array.isArray(tx.signature) ? tx.signature[0] : undefined;
  if (typeof sig !== 'string') return { ok: false, reason: 'missing_signature' };
  const signer = recover(tx.txID.toLowerCase(), sig);
  if (!signer) return { ok: false, reason: 'invalid_signature' };
  if (signer !== decoded.ownerAddress) return { ok: false, reason: 'signer_not_owner' };
  return { ok: true, signer, decoded };
}

// ---- building ----

/**
 * The recent block a transaction references (TAPOS); nodes reject transactions whose
 * reference block they do not know.
 * @inline
 */
export interface RefBlock {
  /** Block number. */
  number: number;
  /** Block id (64 hex). */
  hash: string;
}

/** Options shared by {@link buildTrxTransfer} and {@link buildTrc20Transfer}. */
export interface BuildOptions {
  /**
   * Reference block. Omitted: a fixed offline reference (block 0, zero hash), fine for signing
   * and verifying locally but rejected by nodes on-chain.
   * @default { number: 0, hash: '0'.repeat(64) }
   */
  refBlock?: RefBlock;
  /**
   * Current time in Unix ms: the transaction's timestamp, from which `expirationMs` counts.
   * @default Date.now()
   */
  now?: number;
  /**
   * How long the transaction stays valid, in ms (TRON nodes accept up to 24 h).
   * @default 60_000
   */
  expirationMs?: number;
  /**
   * The account permission the signatures are checked against (`raw_data.contract[0].Permission_id`):
   * 0 or absent is the owner, 2 and up an active permission (a multi-signature account's). It is
   * part of the raw data, so it is in the txID from the start: every signer signs that one txID.
   * @default 0
   */
  permissionId?: number;
}

// A fixed reference block for offline use when none is given (nodes would reject it on-chain).
const OFFLINE_REF_BLOCK: RefBlock = { number: 0, hash: '0'.repeat(64) };

function encodeRaw(
  contractType: keyof typeof CONTRACT_TYPES,
  value: number[],
  valueJson: Record<string, unknown>,
  options: BuildOptions & { dataHex?: string | undefined; feeLimit?: number | undefined },
): UnsignedTransaction {
  const now = options.now ?? Date.now();
  const ref = options.refBlock ?? OFFLINE_REF_BLOCK;
  const refBlockBytes = (ref.number & 0xffff).toString(16).padStart(4, '0');
  const refBlockHash = ref.hash.replace(/^0x/, '').slice(16, 32);
  const expiration = now + (options.expirationMs ?? 60_000);
  const typeUrl = `type.googleapis.com/protocol.${contractType}`;
  const any = [...fieldBytes(1, new TextEncoder().encode(typeUrl)), ...fieldBytes(2, value)];
  const permissionId = options.permissionId ?? 0;
  if (!Number.isInteger(permissionId) || permissionId < 0 || permissionId === 1 || permissionId > 9) {
    throw new RangeError(`permissionId must be 0 (owner) or an active permission from 2 to 9, not ${String(options.permissionId)}`);
  }
  // Contract.Permission_id is field 5 (Tron.proto), left out at 0 as protobuf-java writes it.
  const contract = [...fieldVarint(1, CONTRACT_TYPES[contractType]), ...fieldBytes(2, any), ...(permissionId ? fieldVarint(5, permissionId) : [])];
  const raw = [
    ...fieldBytes(1, hexToBytes(refBlockBytes)),
    ...fieldBytes(4, hexToBytes(refBlockHash)),
    ...fieldVarint(8, expiration),
    ...(options.dataHex ? fieldBytes(10, hexToBytes(options.dataHex)) : []),
    ...fieldBytes(11, contract),
    ...fieldVarint(14, now),
    ...(options.feeLimit !== undefined ? fieldVarint(18, options.feeLimit) : []),
  ];
  const raw_data_hex = bytesToHex(Uint8Array.from(raw));
  const raw_data: Record<string, unknown> = {
    contract: [{ parameter: { value: valueJson, type_url: typeUrl }, type: contractType, ...(permissionId ? { Permission_id: permissionId } : {}) }],
    ref_block_bytes: refBlockBytes,
    ref_block_hash: refBlockHash,
    expiration,
    timestamp: now,
    ...(options.dataHex ? { data: options.dataHex } : {}),
    ...(options.feeLimit !== undefined ? { fee_limit: options.feeLimit } : {}),
  };
  return { txID: transactionId(raw_data_hex), raw_data_hex, raw_data, visible: false };
}

function requireAddress(value: string, field: string): string {
  if (!isTronAddress(value)) throw new TypeError(`${field} is not a valid TRON address: ${value}`);
  return tronAddressToHex(value);
}

/** An unsigned TRX transfer; `memo` (UTF-8) goes into raw_data.data, as deposits need. */
export function buildTrxTransfer(
  params: {
    from: string;
    to: string;
    amountSun: bigint | number;
    memo?: string;
  } & BuildOptions,
): UnsignedTransaction {
  const owner = requireAddress(params.from, 'from');
  const to = requireAddress(params.to, 'to');
  const amount = BigInt(params.amountSun);
  if (amount <= 0n) throw new RangeError('amountSun must be positive');
  const value = [...fieldBytes(1, hexToBytes(owner)), ...fieldBytes(2, hexToBytes(to)), ...fieldVarint(3, amount)];
  const dataHex = params.memo ? memoToHex(params.memo) : undefined;
  return encodeRaw('TransferContract', value, { owner_address: owner, to_address: to, amount: Number(amount) }, { ...params, dataHex });
}

/** An unsigned TRC-20 `transfer(to, amount)` call; `amount` in the token's atomic units. */
export function buildTrc20Transfer(
  params: {
    from: string;
    contract: string;
    to: string;
    amount: bigint;
    /**
     * Most TRX the transaction may burn for energy, in SUN (30 TRX).
     * @default 30_000_000
     */
    feeLimitSun?: number;
  } & BuildOptions,
): UnsignedTransaction {
  const owner = requireAddress(params.from, 'from');
  const contract = requireAddress(params.contract, 'contract');
  const to = requireAddress(params.to, 'to');
  if (params.amount <= 0n) throw new RangeError('amount must be positive');
  const callData = encodeTransferCall(toTronAddress(to), params.amount);
  const value = [...fieldBytes(1, hexToBytes(owner)), ...fieldBytes(2, hexToBytes(contract)), ...fieldBytes(4, hexToBytes(callData))];
  return encodeRaw(
    'TriggerSmartContract',
    value,
    { owner_address: owner, contract_address: contract, data: callData },
    { ...params, feeLimit: params.feeLimitSun ?? 30_000_000 },
  );
}

/** UTF-8 text -> hex, for a memo in raw_data.data. */
export function memoToHex(memo: string): string {
  return bytesToHex(new TextEncoder().encode(memo));
}
/** Hex -> UTF-8 text, the inverse of {@link memoToHex}. */
export function hexToMemo(hex: string): string {
  return new TextDecoder().decode(hexToBytes(hex));
}
