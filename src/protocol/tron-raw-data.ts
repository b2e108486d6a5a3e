/**
 * A TRON transaction's `raw_data` on the wire: decode `raw_data_hex` (the protobuf bytes the
 * txID hashes), its txID (sha256), and encode `raw_data` JSON to those bytes in java-tron's
 * field order, for the two contracts trx-rent builds and checks.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { isTronAddress, toTronAddress, tronAddressToHex } from '../utils/address.js';
import { decodeTransferCall } from './abi.js';
import { fieldBytes, fieldVarint, type PbField, readPb } from './protobuf.js';
import { type PermissionUpdate, decodePermissionUpdate, encodePermissionUpdate, permissionUpdateFromJson } from './tron-permissions.js';

/** Protobuf `ContractType` numbers of the two contracts this module builds and decodes. */
export const CONTRACT_TYPES = { TransferContract: 1, TriggerSmartContract: 31 } as const;
const TYPE_NAMES: Record<number, string> = { 1: 'TransferContract', 31: 'TriggerSmartContract', 46: 'AccountPermissionUpdateContract' };

/** What {@link decodeRawDataHex} reads from `raw_data_hex`. Addresses are base58. */
export interface DecodedTransaction {
  /** sha256 of `raw_data_hex`, hex. */
  txID: string;
  /** `TransferContract`, `TriggerSmartContract`, `AccountPermissionUpdateContract`, or `Contract<n>` for other types. */
  contractType: string;
  /** The contract type's number (`Transaction.Contract.ContractType`), what a permission's operations name. */
  contractTypeId: number;
  /** The account permission the signatures are checked against (`Contract.Permission_id`); absent is 0, the owner. */
  permissionId?: number;
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
  /** AccountPermissionUpdateContract: the permissions it sets. */
  permissionUpdate?: PermissionUpdate;
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
  const permissionId = Number(BigInt.asIntN(32, first(contract, 5)?.int ?? 0n));

  const decoded: DecodedTransaction = {
    txID: transactionId(rawDataHex),
    contractType: TYPE_NAMES[type] ?? `Contract${type}`,
    contractTypeId: type,
    ...(permissionId ? { permissionId } : {}),
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
  } else if (type === 46) {
    decoded.permissionUpdate = decodePermissionUpdate(first(any, 2)?.bytes ?? new Uint8Array());
  }
  return decoded;
}

/** txID = sha256 of the protobuf-encoded raw data. */
export function transactionId(rawDataHex: string): string {
  return bytesToHex(sha256(hexToBytes(rawDataHex)));
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
 * the contracts this module knows (TransferContract, TriggerSmartContract,
 * AccountPermissionUpdateContract), with the contract's `Permission_id` when it is not 0. Used
 * when a signed transaction comes without `raw_data_hex`; a verifier still checks sha256(bytes) = txID.
 */
export function encodeRawDataJson(rawData: unknown): string {
  if (!rawData || typeof rawData !== 'object') throw new TypeError('raw_data must be an object');
  const r = rawData as Record<string, unknown>;
  const contracts = r.contract;
  if (!Array.isArray(contracts) || contracts.length !== 1) throw new TypeError('raw_data.contract must hold one contract');
  const c = contracts[0] as { type?: unknown; parameter?: { value?: Record<string, unknown>; type_url?: unknown }; Permission_id?: unknown };
  const type = c?.type;
  if (type !== 'TransferContract' && type !== 'TriggerSmartContract' && type !== 'AccountPermissionUpdateContract')
    throw new TypeError(`unsupported contract type ${String(type)}`);
  const v = c.parameter?.value ?? {};
  const permissionId = c.Permission_id === undefined || c.Permission_id === null ? 0n : jsonInt(c.Permission_id, 'Permission_id');
  let value: number[];
  if (type === 'AccountPermissionUpdateContract') {
    value = encodePermissionUpdate(permissionUpdateFromJson(v));
  } else if (type === 'TransferContract') {
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
  const typeId = type === 'AccountPermissionUpdateContract' ? 46 : CONTRACT_TYPES[type];
  const contract = [...fieldVarint(1, typeId), ...fieldBytes(2, any), ...(permissionId ? fieldVarint(5, permissionId) : [])];
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
