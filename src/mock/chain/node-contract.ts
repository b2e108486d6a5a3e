/**
 * The simulated node's contract calls: `triggerconstantcontract`, `triggersmartcontract`,
 * `estimateenergy`, and the transactions the node builds (`createtransaction`), in java-tron's
 * shapes (tronprotocol/java-tron `TriggerConstantContractServlet`, `TriggerSmartContractServlet`,
 * `EstimateEnergyServlet`, `Wallet.callConstantContract`, `Wallet.estimateEnergy`).
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { encodeRawDataJson } from '../../protocol/tron-transaction.js';
import { isTronAddress, toTronAddress, tronAddressToHex } from '../../utils/address.js';
import type { SimulatedChain } from './chain.js';
import { selectorOf } from './contracts.js';

/** A call the node cannot take, answered `{ Error: message }` as java-tron's `Util.processError` does. */
export class NodeError extends Error {}

/** An address field, hex (`41…`) or base58. */
export function addressOf(value: unknown, field: string): string {
  if (typeof value !== 'string' || !value) throw new NodeError(`${field} is required`);
  try {
    const address = toTronAddress(value);
    if (!isTronAddress(address)) throw new Error();
    return address;
  } catch {
    throw new NodeError(`${field} is not a valid address: ${value}`);
  }
}

/** An address as the answer shows it: base58 with `visible: true`, else hex. */
export function show(address: string, visible: boolean): string {
  return visible ? address : tronAddressToHex(address);
}

/** UTF-8 text as hex (java-tron prints `bytes` fields such as `message` in hex). */
export const hexMessage = (text: string) => bytesToHex(new TextEncoder().encode(text));

const ZERO_ADDRESS = toTronAddress(`41${'0'.repeat(40)}`);

/** The body's `Permission_id`, set on the built transaction when above 0 (`Util.setTransactionPermissionId`). */
export function permissionIdOf(body: Record<string, unknown>): { Permission_id?: number } {
  if (body.Permission_id === undefined) return {};
  const id = Number(body.Permission_id);
  if (!Number.isSafeInteger(id)) throw new NodeError('Permission_id must be an integer');
  return id > 0 ? { Permission_id: id } : {};
}

/** Expiration java-tron gives a transaction it builds: 60 s after the head block (`trx.expiration.timeInMilliseconds`). */
const EXPIRATION_MS = 60_000;

/**
 * A transaction the node builds (`Wallet.createTransactionCapsule`): TAPOS from the head block,
 * expiration 60 s after it, `raw_data_hex` the protobuf of `raw_data`, `txID` its sha256; the
 * contract's `Permission_id` when asked (`Util.setTransactionPermissionId`).
 */
export function buildTransaction(
  chain: SimulatedChain,
  type: 'TransferContract' | 'TriggerSmartContract' | 'AccountPermissionUpdateContract',
  value: Record<string, unknown>,
  visible: boolean,
  extra: { fee_limit?: number; Permission_id?: number } = {},
) {
  const head = chain.height();
  const id = chain.blockId(head);
  const raw_data: Record<string, unknown> = {
    contract: [
      { parameter: { value, type_url: `type.googleapis.com/protocol.${type}` }, type, ...(extra.Permission_id ? { Permission_id: extra.Permission_id } : {}) },
    ],
    ref_block_bytes: (head & 0xffff).toString(16).padStart(4, '0'),
    ref_block_hash: id.slice(16, 32),
    expiration: chain.blockTime(head) + EXPIRATION_MS,
    ...(extra.fee_limit ? { fee_limit: extra.fee_limit } : {}),
    timestamp: chain.now(),
  };
  const raw_data_hex = encodeRawDataJson(raw_data);
  return { visible, txID: bytesToHex(sha256(hexToBytes(raw_data_hex))), raw_data, raw_data_hex };
}

/** A non-negative integer field (number or decimal string); 0 when absent. */
function intField(value: unknown, field: string): number {
  if (value === undefined || value === null || value === '') return 0;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new NodeError(`${field} must be a non-negative integer`);
  return n;
}

/** The call's data: `data`, or `function_selector` hashed plus `parameter` (java-tron `Util.parseMethod`). */
function callData(body: Record<string, unknown>): string {
  const selector = typeof body.function_selector === 'string' ? body.function_selector.replace(/\s/g, '') : '';
  if (selector) {
    const parameter = String(body.parameter ?? '').replace(/^0x/, '');
    if (!/^([0-9a-fA-F]{2})*$/.test(parameter)) throw new NodeError('parameter must be hex');
    return selectorOf(selector) + parameter.toLowerCase();
  }
  const data = String(body.data ?? '').replace(/^0x/, '');
  if (!/^([0-9a-fA-F]{2})*$/.test(data)) throw new NodeError('data must be hex');
  return data.toLowerCase();
}

/** The TriggerSmartContract value of a call, as java-tron prints it back. */
function triggerValue(body: Record<string, unknown>, owner: string, contract: string, data: string, visible: boolean) {
  const callValue = intField(body.call_value, 'call_value');
  return {
    owner_address: show(owner, visible),
    contract_address: show(contract, visible),
    ...(callValue ? { call_value: callValue } : {}),
    ...(data ? { data } : {}),
  };
}

/**
 * `triggerconstantcontract`: run the call on the current state, change nothing. A revert keeps
 * `result.result: true` with `result.message` = hex "REVERT opcode executed", `energy_used` up
 * to the revert, the revert data (`Error(string)`) in `constant_result[0]`, and the
 * transaction's `ret[0].ret = FAILED` (`Wallet.callConstantContract`). A missing contract is
 * `CONTRACT_VALIDATE_ERROR` "Smart contract is not exist." (`Wallet.triggerConstantContract`).
 */
export function triggerConstant(chain: SimulatedChain, body: Record<string, unknown>): Record<string, unknown> {
  const visible = body.visible === true;
  const contract = addressOf(body.contract_address, 'contract_address');
  // No owner: java-tron runs the call from the zero address.
  const owner = body.owner_address === undefined || body.owner_address === '' ? ZERO_ADDRESS : addressOf(body.owner_address, 'owner_address');
  const token = chain.token(contract);
  if (!token) return { result: { code: 'CONTRACT_VALIDATE_ERROR', message: hexMessage('Smart contract is not exist.') } };
  const data = callData(body);
  const outcome = chain.callToken(token, owner, data);
  const failed = outcome.status === 'REVERT';
  const tx = buildTransaction(chain, 'TriggerSmartContract', triggerValue(body, owner, contract, data, visible), visible);
  return {
    result: failed ? { result: true, message: hexMessage('REVERT opcode executed') } : { result: true },
    energy_used: outcome.energy,
    ...(outcome.penalty ? { energy_penalty: outcome.penalty } : {}),
    constant_result: [outcome.result],
    transaction: { ret: [failed ? { ret: 'FAILED' } : {}], ...tx },
  };
}

/**
 * `triggersmartcontract`: the transaction to sign, not run (`{ result: { result: true },
 * transaction }`); `fee_limit` and `call_value` as given, so tronweb's check that the node built
 * what it asked (`txCheckWithArgs`) passes.
 */
export function triggerSmart(chain: SimulatedChain, body: Record<string, unknown>): Record<string, unknown> {
  const visible = body.visible === true;
  const contract = addressOf(body.contract_address, 'contract_address');
  const owner = addressOf(body.owner_address, 'owner_address');
  if (!chain.token(contract)) return { result: { code: 'CONTRACT_VALIDATE_ERROR', message: hexMessage('Smart contract is not exist.') } };
  const feeLimit = intField(body.fee_limit, 'fee_limit');
  const tx = buildTransaction(chain, 'TriggerSmartContract', triggerValue(body, owner, contract, callData(body), visible), visible, {
    fee_limit: feeLimit,
    ...permissionIdOf(body),
  });
  return { result: { result: true }, transaction: tx };
}

/**
 * `estimateenergy` (served where the node enables it, as TronGrid does): `energy_required`, or
 * for a call that fails `CONTRACT_EXE_ERROR` with the revert message (`Wallet.estimateEnergy`).
 */
export function estimateEnergy(chain: SimulatedChain, body: Record<string, unknown>): Record<string, unknown> {
  const answer = triggerConstant(chain, body);
  const result = answer.result as { result?: boolean; code?: string; message?: string };
  if (result.code) return { result };
  if (result.message) return { result: { code: 'CONTRACT_EXE_ERROR', message: result.message } };
  return { result: { result: true }, energy_required: answer.energy_used };
}

/** `createtransaction`: an unsigned TRX transfer the node builds. */
export function createTransaction(chain: SimulatedChain, body: Record<string, unknown>): Record<string, unknown> {
  const visible = body.visible === true;
  const from = addressOf(body.owner_address, 'owner_address');
  const to = addressOf(body.to_address, 'to_address');
  const amount = Number(body.amount);
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new NodeError('amount must be a positive integer');
  if (!chain.isActivated(from)) throw new NodeError(`Validate TransferContract error, no OwnerAccount.`);
  return buildTransaction(
    chain,
    'TransferContract',
    { owner_address: show(from, visible), to_address: show(to, visible), amount },
    visible,
    permissionIdOf(body),
  );
}
