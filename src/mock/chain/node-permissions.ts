/**
 * The simulated node's multi-signature calls, in java-tron's shapes (tronprotocol/java-tron):
 * `getsignweight` (`GetTransactionSignWeightServlet`, `TransactionUtil.getTransactionSignWeight`,
 * printed by `Util.printTransactionSignWeight`), `getapprovedlist`
 * (`GetTransactionApprovedListServlet`, `Wallet.getTransactionApprovedList`) and
 * `accountpermissionupdate` (`AccountPermissionUpdateServlet`: the transaction built, validated
 * as `Wallet.createTransactionCapsule` does, `Permission_id` set by `Util.setTransactionPermissionId`).
 * Answers leave default-valued fields out (`JsonFormat`): `result.code` is absent when the weight
 * is enough (ENOUGH_PERMISSION = 0) or the list is read (SUCCESS = 0).
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { type DecodedTransaction, decodeRawDataHex } from '../../protocol/tron-transaction.js';
import { type PermissionUpdate, permissionJson, permissionUpdateFromJson, permissionUpdateJson } from '../../protocol/tron-permissions.js';
import type { SimulatedChain } from './chain.js';
import { NodeError, buildTransaction, permissionIdOf, show } from './node-contract.js';
import { checkWeight, permissionById, permissionRefusal, permissionUpdateRefusal, recoverForNode } from './permissions.js';
import { packRawHex } from './views.js';

/** The transaction a body names, as `Util.packTransaction` rebuilds it (raw data from the JSON, the signatures). */
function pack(body: Record<string, unknown>): { rawHex: string; txid: string; signatures: string[]; decoded: DecodedTransaction | undefined } {
  const rawHex = packRawHex(body);
  if (rawHex === undefined) throw new NodeError('raw_data is required');
  const signatures = Array.isArray(body.signature) ? body.signature.map(String) : [];
  if (signatures.some((s) => !/^([0-9a-fA-F]{2})*$/.test(s))) throw new NodeError('signature must be hex');
  let decoded: DecodedTransaction | undefined;
  try {
    decoded = decodeRawDataHex(rawHex);
  } catch {
    decoded = undefined; // no (single) contract: "Invalid transaction: no valid contract"
  }
  return { rawHex, txid: bytesToHex(sha256(hexToBytes(rawHex))), signatures, decoded };
}

/** A transfer's, a call's or a permission update's `parameter.value` as java-tron prints it. */
function valueJson(d: DecodedTransaction, visible: boolean): Record<string, unknown> {
  const owner_address = show(d.ownerAddress, visible);
  if (d.contractType === 'TransferContract') return { amount: Number(d.amountSun ?? 0n), owner_address, to_address: show(d.toAddress!, visible) };
  if (d.contractType === 'TriggerSmartContract')
    return { ...(d.callData ? { data: d.callData } : {}), owner_address, contract_address: show(d.contractAddress!, visible) };
  if (d.permissionUpdate) return permissionUpdateJson(d.permissionUpdate, visible);
  return { owner_address };
}

/** The packed transaction as `Util.printTransactionToJSON` prints it: signatures, raw_data re-printed, raw_data_hex, txID. */
function transactionJson(p: ReturnType<typeof pack>, body: Record<string, unknown>, visible: boolean): Record<string, unknown> {
  const d = p.decoded;
  const contract = (body.raw_data as { contract?: Array<Record<string, unknown>> } | undefined)?.contract?.[0];
  const raw_data: Record<string, unknown> = d
    ? {
        contract: [
          {
            parameter: {
              value: valueJson(d, visible),
              type_url: (contract?.parameter as { type_url?: string } | undefined)?.type_url ?? `type.googleapis.com/protocol.${d.contractType}`,
            },
            type: d.contractType,
            ...(d.permissionId ? { Permission_id: d.permissionId } : {}),
          },
        ],
        ref_block_bytes: d.refBlockBytes,
        ref_block_hash: d.refBlockHash,
        expiration: d.expiration,
        ...(d.dataHex ? { data: d.dataHex } : {}),
        ...(d.timestamp ? { timestamp: d.timestamp } : {}),
        ...(d.feeLimit ? { fee_limit: d.feeLimit } : {}),
      }
    : ((body.raw_data as Record<string, unknown> | undefined) ?? {});
  return { ...(p.signatures.length ? { signature: p.signatures } : {}), txID: p.txid, raw_data, raw_data_hex: p.rawHex };
}

/** `TransactionExtention` of the packed transaction: `{ result: { result: true }, txid, transaction }`. */
function extention(p: ReturnType<typeof pack>, body: Record<string, unknown>, visible: boolean) {
  return { result: { result: true }, txid: p.txid, transaction: transactionJson(p, body, visible) };
}

/** The body packed, and the `transaction` both answers carry. */
function packed(body: Record<string, unknown>) {
  const visible = body.visible === true;
  const p = pack(body);
  return { visible, p, d: p.decoded, transaction: extention(p, body, visible) };
}

const result = (code: string | undefined, message?: string) => ({ ...(code ? { code } : {}), ...(message ? { message } : {}) });

/**
 * `getsignweight`: the permission the transaction names, who approved it, their weight, and
 * whether it reaches the threshold (`NOT_ENOUGH_PERMISSION`), or why it cannot
 * (`PERMISSION_ERROR`, `SIGNATURE_FORMAT_ERROR`, `COMPUTE_ADDRESS_ERROR`, `OTHER_ERROR`).
 */
export function signWeight(chain: SimulatedChain, body: Record<string, unknown>): Record<string, unknown> {
  const { visible, p, d, transaction } = packed(body);
  if (!d) return { result: result('OTHER_ERROR', 'Invalid transaction: no valid contract'), transaction };
  const account = chain.liveAccount(d.ownerAddress);
  if (!account) return { result: result('PERMISSION_ERROR', 'Account does not exist!'), transaction };
  const permissionId = d.permissionId ?? 0;
  const permission = permissionById(account, permissionId);
  if (!permission) return { result: result('PERMISSION_ERROR', 'Permission for this, does not exist!'), transaction };
  // TransactionUtil words these two differently from TransactionCapsule.checkPermission.
  const denied = permissionRefusal(permissionId, permission, d.contractTypeId);
  if (denied) return { result: result('PERMISSION_ERROR', denied === 'Permission denied' ? 'Permission denied!' : 'Permission type is wrong!'), transaction };
  const out: Record<string, unknown> = { permission: permissionJson(permission, visible) };
  let weight = 0;
  if (p.signatures.length) {
    const weighed = checkWeight(permission, p.signatures, p.txid);
    if ('message' in weighed) {
      const code = weighed.kind === 'format' ? 'SIGNATURE_FORMAT_ERROR' : weighed.kind === 'signature' ? 'COMPUTE_ADDRESS_ERROR' : 'PERMISSION_ERROR';
      return { ...out, result: result(code, weighed.message), transaction };
    }
    weight = weighed.weight;
    if (weighed.approved.length) out.approved_list = weighed.approved.map((a) => show(a, visible));
    if (weight) out.current_weight = weight;
  }
  return { ...out, result: result(weight >= permission.threshold ? undefined : 'NOT_ENOUGH_PERMISSION'), transaction };
}

/** `getapprovedlist`: the addresses the signatures recover to, in order (no permission check). */
export function approvedList(chain: SimulatedChain, body: Record<string, unknown>): Record<string, unknown> {
  const { visible, p, d, transaction } = packed(body);
  if (!d) return { result: result('OTHER_ERROR', 'Invalid transaction: no valid contract'), transaction };
  if (!chain.liveAccount(d.ownerAddress))
    return { result: result('OTHER_ERROR', 'class org.tron.core.exception.PermissionException : Account does not exist!'), transaction };
  const approved: string[] = [];
  for (const sig of p.signatures) {
    if (sig.length < 130) return { result: result('SIGNATURE_FORMAT_ERROR', `Signature size is ${sig.length / 2}`), transaction };
    const signer = recoverForNode(p.txid, sig);
    if (!('address' in signer)) return { result: result('COMPUTE_ADDRESS_ERROR', signer.message), transaction };
    approved.push(show(signer.address, visible));
  }
  return { ...(approved.length ? { approved_list: approved } : {}), result: {}, transaction };
}

/**
 * `accountpermissionupdate`: an unsigned AccountPermissionUpdateContract transaction, validated
 * first (a refusal is `{ Error: "class org.tron.core.exception.ContractValidateException : …" }`).
 */
export function accountPermissionUpdate(chain: SimulatedChain, body: Record<string, unknown>): Record<string, unknown> {
  const visible = body.visible === true;
  let update: PermissionUpdate;
  try {
    update = permissionUpdateFromJson(body);
  } catch (error) {
    throw new NodeError(`class org.tron.core.exception.ContractValidateException : ${(error as Error).message}`);
  }
  const problem = permissionUpdateRefusal(update, chain.liveAccount(update.owner_address));
  if (problem) throw new NodeError(`class org.tron.core.exception.ContractValidateException : ${problem}`);
  return buildTransaction(chain, 'AccountPermissionUpdateContract', permissionUpdateJson(update, visible), visible, permissionIdOf(body));
}
