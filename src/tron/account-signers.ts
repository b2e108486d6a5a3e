/**
 * Who signs a transfer, as `transfers.send` and payouts take it: one key (`signer`: the sender is
 * its address, as always) or the keys of one of an account's permissions (`from`, `signers`,
 * `permissionId`: a multi-signature account, 2-of-3 say, signed by two keys in this process).
 * {@link transferSigners} resolves the options; {@link refuseUnauthorised} checks the signers
 * against the account as the node shows it, by java-tron's rules (`permissionCheck`:
 * `TransactionCapsule.checkPermission` and `checkWeight`), and refuses with PERMISSION_DENIED,
 * naming the permission and the weight missing, before anything is rented. Loaded lazily with
 * the signing code.
 * @module
 */
import { TrxRentError } from '../errors/index.js';
import { type ResolvedSigner, type Signer, type SignerInput, isSigner, resolveSigner, toSigner } from '../protocol/signer.js';
import { permissionCheck } from '../protocol/tron-permissions.js';
import { address, invalid } from './inputs.js';
import type { PermissionSigners, TransferWho } from './transfer.js';
import type { SendTronWeb } from './types.js';

/** The signing options of `transfers.send` and payouts. */
export interface AccountSignerOptions {
  signer?: SignerInput | undefined;
  signers?: readonly SignerInput[] | undefined;
  from?: string | undefined;
  permissionId?: number | undefined;
}

/** An account's permission and its signers, before the chain is asked whether they may sign. */
export type UncheckedSigners = Omit<PermissionSigners, 'permission'>;

/** The most signers one transfer takes (java-tron's permissions hold at most 5 keys by default: `getTotalSignNum`). */
const MAX_SIGNERS = 16;

/**
 * The options to who signs. A lone `signer` that is `{ privateKey }` or a TronWeb instance, with no
 * `from`, `signers` or `permissionId`, stays what it always was (its address is the sender).
 * Otherwise: `signers` (or the lone `signer`, a `Signer` such as a KMS key) sign for `from` under
 * `permissionId` (default: the signers' own, else 0); without `from`, a lone `signer` signs for its
 * own account, and so may one of `signers` under the owner permission. A VALIDATION_ERROR names the field.
 */
export function transferSigners(options: AccountSignerOptions): ResolvedSigner<SendTronWeb> | UncheckedSigners {
  const { signer, signers, from, permissionId } = options ?? {};
  if (signer !== undefined && signers !== undefined) throw invalid('signers', 'pass signer (one key) or signers (the keys of a permission), not both');
  if (signers === undefined && from === undefined && permissionId === undefined && !isSigner(signer)) {
    return resolveSigner<SendTronWeb>(signer as { privateKey: string } | SendTronWeb | undefined);
  }
  const list = signers ?? (signer === undefined ? [] : [signer]);
  if (!Array.isArray(list) || list.length === 0) throw invalid('signers', 'at least one signer is needed: { privateKey }, a TronWeb instance or a Signer');
  if (list.length > MAX_SIGNERS) throw invalid('signers', `at most ${MAX_SIGNERS} signers`);
  const resolved: Signer[] = list.map((s, i) => toSigner(s, signers === undefined ? 'signer' : `signers[${i}]`));
  const seen = new Set<string>();
  for (const s of resolved) {
    if (seen.has(s.address)) throw invalid('signers', `${s.address} is given twice (java-tron refuses a key that signs twice)`);
    seen.add(s.address);
  }
  const own = resolved.find((s) => s.permissionId !== undefined)?.permissionId;
  const id = permissionId ?? own ?? 0;
  if (!Number.isInteger(id) || id < 0 || id === 1 || id > 9)
    throw invalid('permissionId', `must be 0 (owner) or an active permission from 2 to 9, not ${String(permissionId)}`);
  const other = resolved.find((s) => s.permissionId !== undefined && s.permissionId !== id);
  if (other) throw invalid('signers', `${other.address} signs for permission ${other.permissionId}, not permission ${id}`);
  let account: string;
  if (from !== undefined) account = address(from, 'from');
  // A lone signer signs for its own account (under its owner or one of its active permissions).
  else if (signers === undefined || (id === 0 && resolved.length === 1)) account = resolved[0]!.address;
  else throw invalid('from', 'name the account the signers sign for: a multi-signature account is not one of its keys');
  return { from: account, permissionId: id, signers: resolved };
}

/** Whether {@link transferSigners} gave an account's permission and signers (to check on chain before use). */
export function isUnchecked(who: ResolvedSigner<SendTronWeb> | UncheckedSigners): who is UncheckedSigners {
  return Array.isArray((who as UncheckedSigners).signers);
}

/**
 * The signers checked against `account` (the node's `getaccount` of `who.from`): its permission
 * must exist, allow TriggerSmartContract (a TRC-20 transfer; the owner permission allows
 * everything), hold every signer as a key, and the signers' weights must reach its threshold.
 * Otherwise PERMISSION_DENIED, naming the permission and the weight missing; nothing is rented.
 */
export function refuseUnauthorised(account: unknown, who: UncheckedSigners, operation: 'TriggerSmartContract' = 'TriggerSmartContract'): PermissionSigners {
  const check = permissionCheck(
    account,
    who.permissionId,
    who.signers.map((s) => s.address),
    operation,
  );
  if (check.ok && check.permission) return { ...who, permission: check.permission };
  const p = check.permission;
  const weight = check.threshold ? ` (the signers weigh ${check.weight} of its threshold ${check.threshold}: ${check.missing} missing)` : '';
  throw new TrxRentError({
    code: 'PERMISSION_DENIED',
    message: `${check.problem ?? `permission ${who.permissionId} of ${who.from} refuses these signers`}${check.problem?.includes('missing') ? '' : weight}; the transfer (${operation}) cannot be signed by ${who.signers.map((s) => s.address).join(', ')}; nothing was ordered or sent`,
    details: {
      field: 'signers',
      address: who.from,
      permission_id: who.permissionId,
      permission_name: p?.permission_name,
      operation,
      operation_allowed: check.allowed,
      weight: check.weight,
      threshold: check.threshold,
      missing_weight: check.missing,
      not_keys: check.outsiders,
      transfer_sent: false,
    },
  });
}

/** Who signs, resolved and (for an account's permission) checked against the account read from the node. */
export async function checkedSigners(
  node: { getAccount(address: string, options?: { signal?: AbortSignal | undefined }): Promise<unknown> },
  who: ResolvedSigner<SendTronWeb> | UncheckedSigners,
  signal?: AbortSignal,
): Promise<TransferWho> {
  if (!isUnchecked(who)) return who;
  return refuseUnauthorised(await node.getAccount(who.from, { signal }), who);
}

/** {@link transferSigners} then {@link checkedSigners}: who signs, from the options, checked on the chain. */
export async function signersFor(node: Parameters<typeof checkedSigners>[0], options: AccountSignerOptions, signal?: AbortSignal): Promise<TransferWho> {
  return checkedSigners(node, transferSigners(options), signal);
}
