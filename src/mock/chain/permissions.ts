/**
 * Account permissions on the simulated chain, as java-tron keeps and checks them
 * (tronprotocol/java-tron): every account has an owner permission and active permissions (the
 * defaults of `AccountCapsule.createDefaultOwnerPermission` / `createDefaultActivePermission`
 * until an AccountPermissionUpdateContract replaces them all, `AccountCapsule.updatePermissions`);
 * a transaction's signatures are checked against the permission its contract names
 * (`Permission_id`): its type and operations (`TransactionCapsule.checkPermission`), then every
 * signature's key and weight against the threshold (`TransactionCapsule.checkWeight`,
 * `validateSignature`, `validatePubSignature`); an update is validated as
 * `AccountPermissionUpdateActuator.validate` does. Texts are java-tron's, verbatim.
 * @module
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { type Permission, type PermissionUpdate, allowsOperation, permissionJson } from '../../protocol/tron-permissions.js';
import { publicKeyToTronAddress } from '../../protocol/tron-keys.js';
import { isTronAddress } from '../../utils/address.js';
import { recoverSigner } from './signatures.js';
import type { AccountPermissions, ChainAccount } from './types.js';

/**
 * The DynamicPropertiesStore values the permission rules read, as on mainnet. `TOTAL_SIGN_NUM`
 * is set to 5 at genesis and no proposal changes it. `ACTIVE_DEFAULT_OPERATIONS` is the default
 * active permission's operations on mainnet accounts (`7fff1fc0033efb0f…`: the genesis
 * `7fff1fc0033e…` of `DynamicPropertiesStore` plus the contracts the enacted proposals added with
 * `addSystemContractAndSetPermission`: 48, 49, 51, 52..59); `AVAILABLE_CONTRACT_TYPE` is the
 * genesis `7fff1fc0037e…` plus the same (derived).
 */
export const PERMISSION_PARAMETERS = {
  TOTAL_SIGN_NUM: 5,
  MAX_ACTIVES: 8,
  ACTIVE_DEFAULT_OPERATIONS: `7fff1fc0033efb0f${'0'.repeat(48)}`,
  AVAILABLE_CONTRACT_TYPE: `7fff1fc0037efb0f${'0'.repeat(48)}`,
} as const;

/** `AccountCapsule.createDefaultOwnerPermission`: id 0, "owner", threshold 1, the account's own key. */
export function defaultOwner(address: string): Permission {
  return { type: 'Owner', id: 0, permission_name: 'owner', threshold: 1, parent_id: 0, operations: '', keys: [{ address, weight: 1 }] };
}

/** `AccountCapsule.createDefaultActivePermission`: id 2, "active", threshold 1, the default operations. */
export function defaultActive(address: string): Permission {
  return {
    type: 'Active',
    id: 2,
    permission_name: 'active',
    threshold: 1,
    parent_id: 0,
    operations: PERMISSION_PARAMETERS.ACTIVE_DEFAULT_OPERATIONS,
    keys: [{ address, weight: 1 }],
  };
}

/** The account's permissions (set by an update), or the defaults every account is created with. */
export function permissionsOf(account: ChainAccount): AccountPermissions {
  return account.permissions ?? { owner: defaultOwner(account.address), actives: [defaultActive(account.address)] };
}

/** `AccountCapsule.getPermissionById`: 0 the owner, 1 the witness (if any), else the active of that id. */
export function permissionById(account: ChainAccount, id: number): Permission | undefined {
  const p = permissionsOf(account);
  if (id === 0) return p.owner;
  if (id === 1) return p.witness;
  return p.actives.find((a) => a.id === id);
}

/** `getaccount`'s `owner_permission`, `witness_permission`, `active_permission`, as java-tron prints them. */
export function permissionsJson(account: ChainAccount, visible: boolean): Record<string, unknown> {
  const p = permissionsOf(account);
  return {
    owner_permission: permissionJson(p.owner, visible),
    ...(p.witness ? { witness_permission: permissionJson(p.witness, visible) } : {}),
    active_permission: p.actives.map((a) => permissionJson(a, visible)),
  };
}

/** Why a signature set fails, in java-tron's exception classes (they pick the getsignweight code). */
export type SignatureProblem = { kind: 'format' | 'signature' | 'permission'; message: string };

/**
 * The address a signature recovers to, reading it as java-tron does (`TransactionCapsule.
 * getBase64FromByteString`, `ECKey.signatureToKeyBytes`): the first 65 bytes; v as a signed
 * byte, +27 below 27; 27..34 accepted, 31..34 minus 4; recovery id = v − 27.
 */
export function recoverForNode(txid: string, signatureHex: string): { address: string } | SignatureProblem {
  const hex = signatureHex.replace(/^0x/i, '').toLowerCase();
  let v = Number.parseInt(hex.slice(128, 130), 16);
  if (v > 127) v -= 256;
  if (v < 27) v += 27;
  if (v < 27 || v > 34) return { kind: 'signature', message: `Header byte out of range: ${v}` };
  if (v >= 31) v -= 4;
  const recovery = v - 27;
  let address: string | undefined;
  if (recovery < 2) {
    address = recoverSigner(txid, `${hex.slice(0, 128)}${(27 + recovery).toString(16)}`);
  } else {
    try {
      const point = secp256k1.Signature.fromHex(hex.slice(0, 128), 'compact').addRecoveryBit(recovery).recoverPublicKey(hexToBytes(txid));
      address = publicKeyToTronAddress(point.toBytes(false));
    } catch {
      address = undefined;
    }
  }
  return address ? { address } : { kind: 'signature', message: 'Could not recover public key from signature' };
}

/**
 * `TransactionCapsule.checkWeight`: no more signatures than keys; each at least 65 bytes, from a
 * key of the permission, no key twice; the sum of their weights, and who signed (in order).
 */
export function checkWeight(permission: Permission, signatures: readonly string[], txid: string): { weight: number; approved: string[] } | SignatureProblem {
  if (signatures.length > permission.keys.length) {
    return { kind: 'permission', message: `Signature count is ${signatures.length} more than key counts of permission : ${permission.keys.length}` };
  }
  let weight = 0;
  const approved: string[] = [];
  for (const sig of signatures) {
    const hex = sig.replace(/^0x/i, '').toLowerCase();
    if (hex.length < 130) return { kind: 'format', message: `Signature size is ${hex.length / 2}` };
    const signer = recoverForNode(txid, hex);
    if (!('address' in signer)) return signer;
    const key = permission.keys.find((k) => k.address === signer.address);
    if (!key || key.weight === 0) return { kind: 'permission', message: `${hex} is signed by ${signer.address} but it is not contained of permission.` };
    if (approved.includes(signer.address)) return { kind: 'permission', message: `${signer.address} has signed twice!` };
    approved.push(signer.address);
    weight += key.weight;
  }
  return { weight, approved };
}

/** `TransactionCapsule.checkPermission`: a permission other than the owner must be Active and allow the contract's type. */
export function permissionRefusal(permissionId: number, permission: Permission, contractType: number): string | undefined {
  if (permissionId === 0) return undefined;
  if (permission.type !== 'Active') return 'Permission type is error';
  if (!allowsOperation(permission.operations, contractType)) return 'Permission denied';
  return undefined;
}

/**
 * `TransactionCapsule.validatePubSignature` and `validateSignature`: why the signatures do not
 * authorise the transaction (the text after "Validate signature error: "), or undefined. An
 * owner that is no account may use only the default permissions 0 and 2.
 */
export function signatureRefusal(
  account: ChainAccount | undefined,
  owner: string,
  permissionId: number,
  contractType: number,
  signatures: readonly string[],
  txid: string,
): string | undefined {
  if (signatures.length === 0) return 'miss sig or contract';
  if (signatures.length > PERMISSION_PARAMETERS.TOTAL_SIGN_NUM) return 'too many signatures';
  const permission = account
    ? permissionById(account, permissionId)
    : permissionId === 0
      ? defaultOwner(owner)
      : permissionId === 2
        ? defaultActive(owner)
        : undefined;
  if (!permission) return "permission isn't exit";
  const denied = permissionRefusal(permissionId, permission, contractType);
  if (denied) return denied;
  const weighed = checkWeight(permission, signatures, txid);
  if ('message' in weighed) return weighed.message;
  return weighed.weight >= permission.threshold ? undefined : 'sig error';
}

// ---- AccountPermissionUpdateContract ----

/** `AccountPermissionUpdateActuator.checkPermission`, for one permission. */
function checkOne(p: Permission): string | undefined {
  if (p.keys.length > PERMISSION_PARAMETERS.TOTAL_SIGN_NUM)
    return `number of keys in permission should not be greater than ${PERMISSION_PARAMETERS.TOTAL_SIGN_NUM}`;
  if (p.keys.length === 0) return "key's count should be greater than 0";
  if (p.type === 'Witness' && p.keys.length !== 1) return "Witness permission's key count should be 1";
  if (p.threshold <= 0) return "permission's threshold should be greater than 0";
  if (p.permission_name.length > 32) return "permission's name is too long";
  if (p.parent_id !== 0) return "permission's parent should be owner";
  if (new Set(p.keys.map((k) => k.address)).size !== p.keys.length) return `address should be distinct in permission ${p.type}`;
  let sum = 0;
  for (const k of p.keys) {
    if (!isTronAddress(k.address)) return 'key is not a validate address';
    if (k.weight <= 0) return "key's weight should be greater than 0";
    sum += k.weight;
  }
  if (sum < p.threshold) return `sum of all key's weight should not be less than threshold in permission ${p.type}`;
  if (p.type !== 'Active') return p.operations ? `${p.type} permission needn't operations` : undefined;
  if (p.operations.length !== 64) return 'operations size must 32';
  for (let i = 0; i < 256; i++) {
    if (allowsOperation(p.operations, i) && !allowsOperation(PERMISSION_PARAMETERS.AVAILABLE_CONTRACT_TYPE, i)) return `${i} isn't a validate ContractType`;
  }
  return undefined;
}

/**
 * `AccountPermissionUpdateActuator.validate`: why the update is refused (the text after
 * "Contract validate error : "), or undefined. The mock's accounts are never witnesses.
 */
export function permissionUpdateRefusal(update: PermissionUpdate, account: ChainAccount | undefined): string | undefined {
  if (!account || account.inactive) return 'ownerAddress account does not exist';
  if (!update.owner) return 'owner permission is missed';
  if (update.witness) return "account isn't witness can't set witness permission";
  if (update.actives.length === 0) return 'active permission is missed';
  if (update.actives.length > PERMISSION_PARAMETERS.MAX_ACTIVES) return 'active permission is too many';
  if (update.owner.type !== 'Owner') return 'owner permission type is error';
  const owner = checkOne(update.owner);
  if (owner) return owner;
  for (const active of update.actives) {
    if (active.type !== 'Active') return 'active permission type is error';
    const problem = checkOne(active);
    if (problem) return problem;
  }
  return undefined;
}

/** `AccountCapsule.updatePermissions`: all replaced at once; the ids sent are ignored (owner 0, actives 2, 3, … in order). */
export function applyPermissionUpdate(account: ChainAccount, update: PermissionUpdate): void {
  account.permissions = {
    owner: { ...update.owner!, id: 0 },
    actives: update.actives.map((a, i) => ({ ...a, id: i + 2 })),
  };
}
