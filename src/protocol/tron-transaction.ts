/**
 * TRON transactions without tronweb: encode `raw_data` to protobuf (what `raw_data_hex` holds),
 * decode it back, hash it (txID = sha256(raw_data_hex)), sign the txID with secp256k1 and
 * recover the signer. Verifiers must trust only `raw_data_hex`, never the `raw_data` JSON
 * that travels next to it.
 * @module
 */
import { secp256k1 } from '@noble/curves/secp256k1';
import { sha256 } from '@noble/hashes/sha2';
import { keccak_256 } from '@noble/hashes/sha3';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils';
import { isTronAddress, toTronAddress, tronAddressToHex } from '../utils/address.js';
import { decodeTransferCall, encodeTransferCall } from './abi.js';

/** Protobuf `ContractType` numbers of the two contracts this module builds and decodes. */
export const CONTRACT_TYPES = { TransferContract: 1, TriggerSmartContract: 31 } as const;
const TYPE_NAMES: Record<number, string> = { 1: 'TransferContract', 31: 'TriggerSmartContract' };

/** What {@link decodeRawDataHex} reads from `raw_data_hex`. Addresses are base58. */
export interface DecodedTransaction {
  /** sha256 of `raw_data_hex`, hex. */
  txID: string;
  /** `TransferContract`, `TriggerSmartContract`, or `Contract<n>` for other types. */
  contractType: string;
  /** The contract's owner: the address that must sign. */
  ownerAddress: string;
  /** TransferContract: the receiver. */
  toAddress?: string;
  /** TransferContract: amount in SUN. */
  amountSun?: bigint;
  /** TriggerSmartContract: the contract called. */
  contractAddress?: string;
  /** TriggerSmartContract: call data, hex. */
  callData?: string;
  /** TriggerSmartContract calling transfer(address,uint256). */
  trc20Transfer?: { to: string; amount: bigint };
  /** raw_data.data (the memo), hex. */
  dataHex?: string;
  /** TAPOS reference: low 2 bytes of the reference block number, hex. */
  refBlockBytes: string;
  /** TAPOS reference: bytes 8 to 16 of the reference block id, hex. */
  refBlockHash: string;
  /** Expiration time, Unix ms. */
  expiration: number;
  /** Creation time, Unix ms. */
  timestamp?: number;
  /** Most TRX the transaction may burn for energy, in SUN. */
  feeLimit?: number;
}

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

// ---- protobuf, the few wire types TRON transactions use ----

function varint(value: bigint | number): number[] {
  let v = BigInt(value);
  if (v < 0n) v += 1n << 64n; // int64 two's complement, as protobuf encodes negatives
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

function fieldVarint(field: number, value: bigint | number): number[] {
  return [...varint((field << 3) | 0), ...varint(value)];
}

function fieldBytes(field: number, bytes: Uint8Array | number[]): number[] {
  return [...varint((field << 3) | 2), ...varint(bytes.length), ...bytes];
}

interface PbField {
  field: number;
  wire: number;
  int?: bigint;
  bytes?: Uint8Array;
}

function readPb(buf: Uint8Array): PbField[] {
  const fields: PbField[] = [];
  let i = 0;
  const readVarint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      if (i >= buf.length) throw new Error('truncated varint');
      const byte = buf[i++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return result;
      shift += 7n;
      if (shift > 70n) throw new Error('varint too long');
    }
  };
  while (i < buf.length) {
    const key = Number(readVarint());
    const field = key >> 3;
    const wire = key & 7;
    if (wire === 0) fields.push({ field, wire, int: readVarint() });
    else if (wire === 2) {
      const len = Number(readVarint());
      if (i + len > buf.length) throw new Error('truncated field');
      fields.push({ field, wire, bytes: buf.subarray(i, i + len) });
      i += len;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else throw new Error(`unsupported wire type ${wire}`);
  }
  return fields;
}

const first = (fields: PbField[], n: number) => fields.find((f) => f.field === n);
const int64 = (v: bigint | undefined) => (v === undefined ? undefined : BigInt.asIntN(64, v));
const addr = (b: Uint8Array | undefined) => (b && b.length === 21 ? toTronAddress(bytesToHex(b)) : undefined);

/** Decode `raw_data_hex`. Throws on anything that is not a single-contract TRON transaction. */
export function decodeRawDataHex(rawDataHex: string): DecodedTransaction {
  const raw = readPb(hexToBytes(rawDataHex));
  const contracts = raw.filter((f) => f.field === 11);
  if (contracts.length !== 1) throw new Error(`expected exactly one contract, found ${contracts.length}`);
  const contract = readPb(contracts[0]!.bytes!);
  const type = Number(first(contract, 1)?.int ?? 0n);
  const any = readPb(first(contract, 2)?.bytes ?? new Uint8Array());
  const value = readPb(first(any, 2)?.bytes ?? new Uint8Array());
  const owner = addr(first(value, 1)?.bytes);
  if (!owner) throw new Error('contract has no owner_address');

  const decoded: DecodedTransaction = {
    txID: transactionId(rawDataHex),
    contractType: TYPE_NAMES[type] ?? `Contract${type}`,
    ownerAddress: owner,
    refBlockBytes: bytesToHex(first(raw, 1)?.bytes ?? new Uint8Array()),
    refBlockHash: bytesToHex(first(raw, 4)?.bytes ?? new Uint8Array()),
    expiration: Number(int64(first(raw, 8)?.int) ?? 0n),
  };
  const data = first(raw, 10)?.bytes;
  if (data) decoded.dataHex = bytesToHex(data);
  const timestamp = int64(first(raw, 14)?.int);
  if (timestamp !== undefined) decoded.timestamp = Number(timestamp);
  const feeLimit = int64(first(raw, 18)?.int);
  if (feeLimit !== undefined) decoded.feeLimit = Number(feeLimit);

  if (type === CONTRACT_TYPES.TransferContract) {
    const to = addr(first(value, 2)?.bytes);
    if (to) decoded.toAddress = to;
    decoded.amountSun = int64(first(value, 3)?.int) ?? 0n;
  } else if (type === CONTRACT_TYPES.TriggerSmartContract) {
    const contractAddress = addr(first(value, 2)?.bytes);
    if (contractAddress) decoded.contractAddress = contractAddress;
    const call = first(value, 4)?.bytes;
    if (call) {
      decoded.callData = bytesToHex(call);
      const transfer = decodeTransferCall(decoded.callData);
      if (transfer) decoded.trc20Transfer = transfer;
    }
  }
  return decoded;
}

/** txID = sha256 of the protobuf-encoded raw data. */
export function transactionId(rawDataHex: string): string {
  return bytesToHex(sha256(hexToBytes(rawDataHex)));
}

// ---- keys and signatures ----

function normaliseKey(privateKeyHex: string): Uint8Array {
  const hex = privateKeyHex.replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new TypeError('A private key is 64 hex characters (with or without 0x)');
  return hexToBytes(hex);
}

/** The base58 address that owns an uncompressed or compressed secp256k1 public key. */
export function publicKeyToTronAddress(publicKey: Uint8Array): string {
  const point = secp256k1.ProjectivePoint.fromHex(publicKey).toRawBytes(false);
  return toTronAddress(`41${bytesToHex(keccak_256(point.subarray(1)).subarray(12))}`);
}

/** The base58 address of a private key (64 hex characters, with or without 0x). */
export function privateKeyToTronAddress(privateKeyHex: string): string {
  return publicKeyToTronAddress(secp256k1.getPublicKey(normaliseKey(privateKeyHex), false));
}

/** Signature over the txID as TRON nodes expect it: r || s || v (v = 27 + recovery), 130 hex. */
export function signTransactionId(txID: string, privateKeyHex: string): string {
  const sig = secp256k1.sign(hexToBytes(txID), normaliseKey(privateKeyHex));
  return `${sig.toCompactHex()}${(sig.recovery + 27).toString(16).padStart(2, '0')}`;
}

/** The base58 address whose key made `signatureHex` over `txID`, or undefined if none. */
export function recoverTransactionSigner(txID: string, signatureHex: string): string | undefined {
  try {
    const hex = signatureHex.replace(/^0x/i, '');
    if (!/^[0-9a-fA-F]{130}$/.test(hex) || !/^[0-9a-fA-F]{64}$/.test(txID)) return undefined;
    let v = Number.parseInt(hex.slice(128), 16);
    if (v >= 27) v -= 27;
    if (v !== 0 && v !== 1) return undefined;
    const sig = secp256k1.Signature.fromCompact(hex.slice(0, 128)).addRecoveryBit(v);
    return publicKeyToTronAddress(sig.recoverPublicKey(hexToBytes(txID)).toRawBytes(false));
  } catch {
    return undefined;
  }
}

/** Sign an unsigned transaction locally; the key never leaves the process. */
export function signTransaction<T extends { txID: string }>(tx: T, privateKeyHex: string): T & { signature: string[] } {
  return { ...tx, signature: [signTransactionId(tx.txID, privateKeyHex)] };
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
  const contract = [...fieldVarint(1, CONTRACT_TYPES[contractType]), ...fieldBytes(2, any)];
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
    contract: [{ parameter: { value: valueJson, type_url: typeUrl }, type: contractType }],
    ref_block_bytes: refBlockBytes,
    ref_block_hash: refBlockHash,
    expiration,
    timestamp: now,
    ...(options.dataHex ? { data: options.dataHex } : {}),
    ...(options.feeLimit !== undefined ? { fee_limit: options.feeLimit } : {}),
  };
  return { txID: transactionId(raw_data_hex), raw_data_hex, raw_data, visible: false };
}

/** A hex (`41…`) or base58 address from raw_data JSON, as 21 bytes of hex. */
function jsonAddress(value: unknown, field: string): string {
  if (typeof value === 'string' && /^41[0-9a-fA-F]{40}$/.test(value)) return value.toLowerCase();
  if (typeof value === 'string' && isTronAddress(value)) return tronAddressToHex(value);
  throw new TypeError(`${field} is not a TRON address`);
}

function jsonInt(value: unknown, field: string): bigint {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  throw new TypeError(`${field} must be a non-negative integer`);
}

function jsonHex(value: unknown, field: string): string {
  if (typeof value === 'string' && /^([0-9a-fA-F]{2})*$/.test(value)) return value.toLowerCase();
  throw new TypeError(`${field} must be hex`);
}

/**
 * The protobuf bytes (hex) of a transaction's `raw_data` JSON, in java-tron's field order, for
 * the two contracts this module knows (TransferContract, TriggerSmartContract). Used when a
 * signed transaction comes without `raw_data_hex`; a verifier still checks sha256(bytes) = txID.
 */
export function encodeRawDataJson(rawData: unknown): string {
  if (!rawData || typeof rawData !== 'object') throw new TypeError('raw_data must be an object');
  const r = rawData as Record<string, unknown>;
  const contracts = r.contract;
  if (!Array.isArray(contracts) || contracts.length !== 1) throw new TypeError('raw_data.contract must hold one contract');
  const c = contracts[0] as { type?: unknown; parameter?: { value?: Record<string, unknown>; type_url?: unknown } };
  const type = c?.type;
  if (type !== 'TransferContract' && type !== 'TriggerSmartContract') throw new TypeError(`unsupported contract type ${String(type)}`);
  const v = c.parameter?.value ?? {};
  let value: number[];
  if (type === 'TransferContract') {
    value = [
      ...fieldBytes(1, hexToBytes(jsonAddress(v.owner_address, 'owner_address'))),
      ...fieldBytes(2, hexToBytes(jsonAddress(v.to_address, 'to_address'))),
      ...fieldVarint(3, jsonInt(v.amount, 'amount')),
    ];
  } else {
    value = [
      ...fieldBytes(1, hexToBytes(jsonAddress(v.owner_address, 'owner_address'))),
      ...fieldBytes(2, hexToBytes(jsonAddress(v.contract_address, 'contract_address'))),
      ...(v.call_value ? fieldVarint(3, jsonInt(v.call_value, 'call_value')) : []),
      ...(v.data !== undefined ? fieldBytes(4, hexToBytes(jsonHex(v.data, 'data'))) : []),
    ];
  }
  const typeUrl = typeof c.parameter?.type_url === 'string' ? c.parameter.type_url : `type.googleapis.com/protocol.${type}`;
  const any = [...fieldBytes(1, new TextEncoder().encode(typeUrl)), ...fieldBytes(2, value)];
  const contract = [...fieldVarint(1, CONTRACT_TYPES[type]), ...fieldBytes(2, any)];
  const raw = [
    ...fieldBytes(1, hexToBytes(jsonHex(r.ref_block_bytes, 'ref_block_bytes'))),
    ...(r.ref_block_num ? fieldVarint(3, jsonInt(r.ref_block_num, 'ref_block_num')) : []),
    ...fieldBytes(4, hexToBytes(jsonHex(r.ref_block_hash, 'ref_block_hash'))),
    ...fieldVarint(8, jsonInt(r.expiration, 'expiration')),
    ...(r.data ? fieldBytes(10, hexToBytes(jsonHex(r.data, 'data'))) : []),
    ...fieldBytes(11, contract),
    ...(r.timestamp !== undefined ? fieldVarint(14, jsonInt(r.timestamp, 'timestamp')) : []),
    ...(r.fee_limit !== undefined ? fieldVarint(18, jsonInt(r.fee_limit, 'fee_limit')) : []),
  ];
  return bytesToHex(Uint8Array.from(raw));
}

function requireAddress(value: string, field: string): string {
  if (!isTronAddress(value)) throw new TypeError(`${field} is not a valid TRON address: ${value}`);
  return tronAddressToHex(value);
}

/** An unsigned TRX transfer; `memo` (UTF-8) goes into raw_data.data, as deposits need. */
export function buildTrxTransfer(params: {
  from: string;
  to: string;
  amountSun: bigint | number;
  memo?: string;
} & BuildOptions): UnsignedTransaction {
  const owner = requireAddress(params.from, 'from');
  const to = requireAddress(params.to, 'to');
  const amount = BigInt(params.amountSun);
  if (amount <= 0n) throw new RangeError('amountSun must be positive');
  const value = [...fieldBytes(1, hexToBytes(owner)), ...fieldBytes(2, hexToBytes(to)), ...fieldVarint(3, amount)];
  const dataHex = params.memo ? memoToHex(params.memo) : undefined;
  return encodeRaw(
    'TransferContract',
    value,
    { owner_address: owner, to_address: to, amount: Number(amount) },
    { ...params, dataHex },
  );
}

/** An unsigned TRC-20 `transfer(to, amount)` call; `amount` in the token's atomic units. */
export function buildTrc20Transfer(params: {
  from: string;
  contract: string;
  to: string;
  amount: bigint;
  /**
   * Most TRX the transaction may burn for energy, in SUN (30 TRX).
   * @default 30_000_000
   */
  feeLimitSun?: number;
} & BuildOptions): UnsignedTransaction {
  const owner = requireAddress(params.from, 'from');
  const contract = requireAddress(params.contract, 'contract');
  const to = requireAddress(params.to, 'to');
  if (params.amount <= 0n) throw new RangeError('amount must be positive');
  const callData = encodeTransferCall(toTronAddress(to), params.amount);
  const value = [
    ...fieldBytes(1, hexToBytes(owner)),
    ...fieldBytes(2, hexToBytes(contract)),
    ...fieldBytes(4, hexToBytes(callData)),
  ];
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
