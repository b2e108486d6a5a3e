/**
 * TRON account permissions on the wire (java-tron `protocol/src/main/protos/core/Tron.proto`:
 * `Permission`, `Key`; `core/contract/account_contract.proto`: `AccountPermissionUpdateContract`):
 * the protobuf bytes a transaction hashes, the JSON java-tron prints (`JsonFormat`: fields at their
 * default value left out, enums by name, addresses hex unless `visible`), and the operations
 * bitmask (32 bytes, contract type `i` is bit `i % 8` of byte `i / 8`, as
 * `AccountPermissionUpdateActuator.checkPermission` and `WalletUtil.checkPermissionOperations`
 * read it). Addresses are base58 here.
 * @module
 */
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { isTronAddress, toTronAddress, tronAddressToHex } from '../utils/address.js';
import { fieldBytes, fieldVarint, readPb } from './protobuf.js';

/** `Transaction.Contract.ContractType` (Tron.proto): name to number. */
export const CONTRACT_TYPE_IDS: Readonly<Record<string, number>> = {
  AccountCreateContract: 0,
  TransferContract: 1,
  TransferAssetContract: 2,
  VoteAssetContract: 3,
  VoteWitnessContract: 4,
  WitnessCreateContract: 5,
  AssetIssueContract: 6,
  WitnessUpdateContract: 8,
  ParticipateAssetIssueContract: 9,
  AccountUpdateContract: 10,
  FreezeBalanceContract: 11,
  UnfreezeBalanceContract: 12,
  WithdrawBalanceContract: 13,
  UnfreezeAssetContract: 14,
  UpdateAssetContract: 15,
  ProposalCreateContract: 16,
  ProposalApproveContract: 17,
  ProposalDeleteContract: 18,
  SetAccountIdContract: 19,
  CustomContract: 20,
  CreateSmartContract: 30,
  TriggerSmartContract: 31,
  GetContract: 32,
  UpdateSettingContract: 33,
  ExchangeCreateContract: 41,
  ExchangeInjectContract: 42,
  ExchangeWithdrawContract: 43,
  ExchangeTransactionContract: 44,
  UpdateEnergyLimitContract: 45,
  AccountPermissionUpdateContract: 46,
  ClearABIContract: 48,
  UpdateBrokerageContract: 49,
  ShieldedTransferContract: 51,
  MarketSellAssetContract: 52,
  MarketCancelOrderContract: 53,
  FreezeBalanceV2Contract: 54,
  UnfreezeBalanceV2Contract: 55,
  WithdrawExpireUnfreezeContract: 56,
  DelegateResourceContract: 57,
  UnDelegateResourceContract: 58,
  CancelAllUnfreezeV2Contract: 59,
};

/** `Permission.PermissionType`: Owner = 0, Witness = 1, Active = 2. */
export type PermissionType = 'Owner' | 'Witness' | 'Active';
const TYPES: readonly PermissionType[] = ['Owner', 'Witness', 'Active'];

/** One key of a permission: an address and its weight. */
export interface PermissionKey {
  /** Base58 address. */
  address: string;
  weight: number;
}

/** A `Permission` (Tron.proto). */
export interface Permission {
  type: PermissionType;
  /** Owner 0, witness 1, actives from 2. */
  id: number;
  permission_name: string;
  threshold: number;
  parent_id: number;
  /** Active permissions: the contract types allowed, 32 bytes as 64 hex. Empty for owner and witness. */
  operations: string;
  keys: PermissionKey[];
}

/** `AccountPermissionUpdateContract` (account_contract.proto): all three replace the account's permissions at once. */
export interface PermissionUpdate {
  /** Base58 address of the account. */
  owner_address: string;
  owner?: Permission | undefined;
  witness?: Permission | undefined;
  actives: Permission[];
}

/** The operations bitmask (64 hex) allowing exactly `types` (contract type numbers or names). */
export function operationsHex(types: ReadonlyArray<number | string>): string {
  const bytes = new Uint8Array(32);
  for (const t of types) {
    const id = typeof t === 'number' ? t : CONTRACT_TYPE_IDS[t];
    if (id === undefined || !Number.isInteger(id) || id < 0 || id > 255) throw new TypeError(`unknown contract type ${String(t)}`);
    bytes[id >> 3]! |= 1 << (id & 7);
  }
  return bytesToHex(bytes);
}

/** Whether the operations bitmask allows contract type `type` (`WalletUtil.checkPermissionOperations`). */
export function allowsOperation(operations: string, type: number): boolean {
  const hex = operations.replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex) || type < 0 || type > 255) return false;
  return ((Number.parseInt(hex.slice((type >> 3) * 2, (type >> 3) * 2 + 2), 16) >> (type & 7)) & 1) === 1;
}

// ---- protobuf ----

/** A Permission's protobuf bytes, default-valued fields left out (as protobuf-java writes them). */
export function encodePermission(p: Permission): number[] {
  const type = TYPES.indexOf(p.type);
  return [
    ...(type ? fieldVarint(1, type) : []),
    ...(p.id ? fieldVarint(2, p.id) : []),
    ...(p.permission_name ? fieldBytes(3, new TextEncoder().encode(p.permission_name)) : []),
    ...(p.threshold ? fieldVarint(4, p.threshold) : []),
    ...(p.parent_id ? fieldVarint(5, p.parent_id) : []),
    ...(p.operations ? fieldBytes(6, hexToBytes(p.operations)) : []),
    ...p.keys.flatMap((k) => fieldBytes(7, [...fieldBytes(1, hexToBytes(tronAddressToHex(k.address))), ...(k.weight ? fieldVarint(2, k.weight) : [])])),
  ];
}

const int = (v: bigint | undefined) => (v === undefined ? 0 : Number(BigInt.asIntN(64, v)));

/** A Permission from its protobuf bytes; a key whose address is not 21 bytes keeps its hex (java-tron's validation refuses it). */
export function decodePermission(bytes: Uint8Array): Permission {
  const fields = readPb(bytes);
  const one = (n: number) => fields.find((f) => f.field === n);
  const keys = fields
    .filter((f) => f.field === 7)
    .map((f) => {
      const k = readPb(f.bytes ?? new Uint8Array());
      const address = k.find((x) => x.field === 1)?.bytes ?? new Uint8Array();
      const hex = bytesToHex(address);
      return { address: address.length === 21 && hex.startsWith('41') ? toTronAddress(hex) : hex, weight: int(k.find((x) => x.field === 2)?.int) };
    });
  return {
    type: TYPES[int(one(1)?.int)] ?? ('Owner' as const),
    id: int(one(2)?.int),
    permission_name: new TextDecoder().decode(one(3)?.bytes ?? new Uint8Array()),
    threshold: int(one(4)?.int),
    parent_id: int(one(5)?.int),
    operations: bytesToHex(one(6)?.bytes ?? new Uint8Array()),
    keys,
  };
}

/** An AccountPermissionUpdateContract's protobuf bytes (the `parameter.value` a transaction carries). */
export function encodePermissionUpdate(u: PermissionUpdate): number[] {
  return [
    ...fieldBytes(1, hexToBytes(tronAddressToHex(u.owner_address))),
    ...(u.owner ? fieldBytes(2, encodePermission(u.owner)) : []),
    ...(u.witness ? fieldBytes(3, encodePermission(u.witness)) : []),
    ...u.actives.flatMap((a) => fieldBytes(4, encodePermission(a))),
  ];
}

/** An AccountPermissionUpdateContract from its protobuf bytes. */
export function decodePermissionUpdate(bytes: Uint8Array): PermissionUpdate {
  const fields = readPb(bytes);
  const owner = fields.find((f) => f.field === 1)?.bytes;
  if (owner?.length !== 21) throw new Error('AccountPermissionUpdateContract has no owner_address');
  const sub = (n: number) => fields.find((f) => f.field === n)?.bytes;
  const ownerPermission = sub(2);
  const witness = sub(3);
  return {
    owner_address: toTronAddress(bytesToHex(owner)),
    ...(ownerPermission ? { owner: decodePermission(ownerPermission) } : {}),
    ...(witness ? { witness: decodePermission(witness) } : {}),
    actives: fields.filter((f) => f.field === 4).map((f) => decodePermission(f.bytes ?? new Uint8Array())),
  };
}

// ---- JSON ----

const show = (address: string, visible: boolean) => (!isTronAddress(address) ? address : visible ? address : tronAddressToHex(address));

/** A Permission as java-tron prints it (`JsonFormat`): type by name unless Owner, id unless 0, operations hex, addresses hex unless `visible`. */
export function permissionJson(p: Permission, visible = false): Record<string, unknown> {
  return {
    ...(p.type !== 'Owner' ? { type: p.type } : {}),
    ...(p.id ? { id: p.id } : {}),
    ...(p.permission_name ? { permission_name: p.permission_name } : {}),
    ...(p.threshold ? { threshold: p.threshold } : {}),
    ...(p.parent_id ? { parent_id: p.parent_id } : {}),
    ...(p.operations ? { operations: p.operations } : {}),
    ...(p.keys.length ? { keys: p.keys.map((k) => ({ address: show(k.address, visible), ...(k.weight ? { weight: k.weight } : {}) })) } : {}),
  };
}

function jsonNumber(value: unknown, field: string): number {
  if (value === undefined || value === null) return 0;
  const n = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n)) throw new TypeError(`${field} must be an integer`);
  return n;
}

function jsonAddress(value: unknown, field: string): string {
  if (typeof value === 'string' && /^41[0-9a-fA-F]{40}$/.test(value)) return toTronAddress(value.toLowerCase());
  if (typeof value === 'string' && isTronAddress(value)) return value;
  throw new TypeError(`${field} is not a TRON address`);
}

/** A Permission from JSON as java-tron reads it (type by name or number, addresses hex or base58, operations hex). */
export function permissionFromJson(json: unknown, field = 'permission'): Permission {
  if (!json || typeof json !== 'object') throw new TypeError(`${field} must be an object`);
  const j = json as Record<string, unknown>;
  const type = typeof j.type === 'number' ? TYPES[j.type] : j.type === undefined ? 'Owner' : TYPES.find((t) => t === j.type);
  if (!type) throw new TypeError(`${field}.type must be Owner, Witness or Active`);
  const operations = j.operations === undefined ? '' : String(j.operations).replace(/^0x/i, '').toLowerCase();
  if (!/^([0-9a-f]{2})*$/.test(operations)) throw new TypeError(`${field}.operations must be hex`);
  const keys = j.keys === undefined ? [] : j.keys;
  if (!Array.isArray(keys)) throw new TypeError(`${field}.keys must be a list`);
  return {
    type,
    id: jsonNumber(j.id, `${field}.id`),
    permission_name: j.permission_name === undefined ? '' : String(j.permission_name),
    threshold: jsonNumber(j.threshold, `${field}.threshold`),
    parent_id: jsonNumber(j.parent_id ?? j.parentId, `${field}.parent_id`),
    operations,
    keys: keys.map((k: unknown, i: number) => {
      const key = (k ?? {}) as Record<string, unknown>;
      return { address: jsonAddress(key.address, `${field}.keys[${i}].address`), weight: jsonNumber(key.weight, `${field}.keys[${i}].weight`) };
    }),
  };
}

/** An AccountPermissionUpdateContract's `parameter.value` JSON, as java-tron prints it. */
export function permissionUpdateJson(u: PermissionUpdate, visible = false): Record<string, unknown> {
  return {
    owner_address: show(u.owner_address, visible),
    ...(u.owner ? { owner: permissionJson(u.owner, visible) } : {}),
    ...(u.witness ? { witness: permissionJson(u.witness, visible) } : {}),
    ...(u.actives.length ? { actives: u.actives.map((a) => permissionJson(a, visible)) } : {}),
  };
}

/** An AccountPermissionUpdateContract from its JSON (`actives` a list or one permission, as tronweb sends either). */
export function permissionUpdateFromJson(json: unknown): PermissionUpdate {
  if (!json || typeof json !== 'object') throw new TypeError('the contract value must be an object');
  const j = json as Record<string, unknown>;
  const actives = j.actives === undefined ? [] : Array.isArray(j.actives) ? j.actives : [j.actives];
  return {
    owner_address: jsonAddress(j.owner_address, 'owner_address'),
    ...(j.owner !== undefined ? { owner: permissionFromJson(j.owner, 'owner') } : {}),
    ...(j.witness !== undefined ? { witness: permissionFromJson(j.witness, 'witness') } : {}),
    actives: actives.map((a, i) => permissionFromJson(a, `actives[${i}]`)),
  };
}

// ---- checking signers before anything is spent ----

/** What {@link permissionCheck} finds. */
export interface PermissionCheck {
  /** Whether these signers can authorise the operation under the permission (weight reached, operation allowed). */
  ok: boolean;
  /** The permission, as the account holds it; absent when the account has none of that id. */
  permission?: Permission | undefined;
  /** The sum of the weights of the signers that are keys of the permission (each key counted once). */
  weight: number;
  /** The permission's threshold (0 when there is no such permission). */
  threshold: number;
  /** Weight still missing to reach the threshold: 0 when reached. */
  missing: number;
  /** Signers that are not keys of the permission (their signatures would be refused: "… is not contained of permission."). */
  outsiders: string[];
  /** Whether the permission allows the operation's contract type (the owner permission allows every one). */
  allowed: boolean;
  /** Why not, in a sentence naming the permission; absent when `ok`. */
  problem?: string | undefined;
}

function accountPermission(account: Record<string, unknown>, id: number): Permission | undefined {
  // AccountCapsule.getPermissionById: the owner's own key when the account stores no owner permission.
  if (id === 0) {
    if (account.owner_permission !== undefined) return { ...permissionFromJson(account.owner_permission, 'owner_permission'), type: 'Owner', id: 0 };
    return typeof account.address === 'string'
      ? {
          type: 'Owner',
          id: 0,
          permission_name: 'owner',
          threshold: 1,
          parent_id: 0,
          operations: '',
          keys: [{ address: jsonAddress(account.address, 'address'), weight: 1 }],
        }
      : undefined;
  }
  if (id === 1) return account.witness_permission === undefined ? undefined : permissionFromJson(account.witness_permission, 'witness_permission');
  const actives = Array.isArray(account.active_permission) ? account.active_permission : [];
  const found = actives.find((a) => a && typeof a === 'object' && Number((a as { id?: unknown }).id) === id);
  return found === undefined ? undefined : permissionFromJson(found, `active_permission[${id}]`);
}

/**
 * Can `signers` authorise an `operation` from `account` under permission `permissionId`? Read
 * from the account as the node's `getaccount` shows it (java-tron's JSON: addresses hex or
 * base58), by java-tron's rules (`TransactionCapsule.checkPermission` and `checkWeight`): the
 * permission must exist, be the owner (0) or an active permission whose operations allow the
 * contract type, and the distinct signers that are its keys must weigh at least its threshold.
 * `signers` are base58 addresses; `operation` a contract type name or number
 * (`TriggerSmartContract` = 31 for a TRC-20 transfer). Nothing is fetched or signed.
 */
export function permissionCheck(account: unknown, permissionId: number, signers: readonly string[], operation: number | string): PermissionCheck {
  const type = typeof operation === 'number' ? operation : CONTRACT_TYPE_IDS[operation];
  if (type === undefined) throw new TypeError(`unknown contract type ${String(operation)}`);
  const record = (account && typeof account === 'object' ? account : {}) as Record<string, unknown>;
  const owner = typeof record.address === 'string' ? jsonAddress(record.address, 'address') : 'the account';
  const permission = record.address === undefined ? undefined : accountPermission(record, permissionId);
  const none = { ok: false, weight: 0, threshold: 0, missing: 0, outsiders: [...new Set(signers)], allowed: false };
  if (!permission)
    return { ...none, problem: record.address === undefined ? `${owner} does not exist on chain` : `${owner} has no permission ${permissionId}` };
  const label = `permission ${permissionId}${permission.permission_name ? ` ("${permission.permission_name}")` : ''} of ${owner}`;
  const allowed = permissionId === 0 || (permission.type === 'Active' && allowsOperation(permission.operations, type));
  const distinct = [...new Set(signers)];
  const outsiders = distinct.filter((s) => !permission.keys.some((k) => k.address === s));
  const weight = distinct.reduce((sum, s) => sum + (permission.keys.find((k) => k.address === s)?.weight ?? 0), 0);
  const missing = Math.max(0, permission.threshold - weight);
  let problem: string | undefined;
  if (!allowed)
    problem = permission.type !== 'Active' && permissionId !== 0 ? `${label} is not an active permission` : `${label} does not allow contract type ${type}`;
  else if (outsiders.length) problem = `${outsiders.join(', ')} ${outsiders.length === 1 ? 'is not a key' : 'are not keys'} of ${label}`;
  else if (missing > 0) problem = `the signers' weight ${weight} is short of the threshold ${permission.threshold} of ${label}: ${missing} missing`;
  return { ok: problem === undefined, permission, weight, threshold: permission.threshold, missing, outsiders, allowed, ...(problem ? { problem } : {}) };
}
