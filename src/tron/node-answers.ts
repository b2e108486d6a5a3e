/**
 * What a TRON full node answers (java-tron shapes), read leniently: unknown fields kept, absent
 * numbers are 0 (java-tron leaves zero values out). Also the readings of those answers: whether
 * a simulation (`triggerconstantcontract`) failed, in each form java-tron gives one, its revert
 * reason, and a node's hex-encoded messages as text.
 * @module
 */
import * as z from 'zod/mini';
import { decodeErrorString } from '../protocol/abi.js';

const num = z.pipe(
  z.optional(z.union([z.number(), z.pipe(z.string().check(z.regex(/^-?\d+$/)), z.transform(Number))])),
  z.transform((v: number | undefined) => v ?? 0),
);

/** `getaccountresource`: what an address can spend (java-tron omits zero values; they read as 0 here). */
export const AccountResource = z.looseObject({
  freeNetUsed: num,
  freeNetLimit: num,
  NetUsed: num,
  NetLimit: num,
  EnergyUsed: num,
  EnergyLimit: num,
  TotalEnergyLimit: num,
  TotalEnergyWeight: num,
});
export type AccountResource = z.infer<typeof AccountResource>;

/** `getaccount`: the account (empty object when it does not exist on chain). */
export const NodeAccount = z.looseObject({
  address: z.optional(z.string()),
  balance: num,
  create_time: num,
});
export type NodeAccount = z.infer<typeof NodeAccount>;

/** `triggerconstantcontract`: a simulated call, its result words and the energy it used. */
export const ConstantCallResult = z.looseObject({
  result: z.optional(z.looseObject({ result: z.optional(z.boolean()), code: z.optional(z.string()), message: z.optional(z.string()) })),
  energy_used: num,
  energy_penalty: num,
  constant_result: z.optional(z.array(z.string())),
  transaction: z.optional(z.looseObject({ ret: z.optional(z.array(z.looseObject({ ret: z.optional(z.string()), contractRet: z.optional(z.string()) }))) })),
});
export type ConstantCallResult = z.infer<typeof ConstantCallResult>;

/** `getchainparameters`: the chain's fee and limit parameters. */
export const ChainParameters = z.looseObject({
  chainParameter: z._default(z.array(z.looseObject({ key: z.string(), value: z.optional(z.union([z.number(), z.string()])) })), []),
});

/** `broadcasttransaction`: accepted (`result: true`) or a code and a hex-encoded message. */
export const BroadcastResult = z.looseObject({
  result: z.optional(z.boolean()),
  txid: z.optional(z.string()),
  code: z.optional(z.string()),
  message: z.optional(z.string()),
});
export type BroadcastResult = z.infer<typeof BroadcastResult>;

/** `gettransactioninfobyid`: the receipt once the transaction is in a block (empty object before). */
export const TransactionInfo = z.looseObject({
  id: z.optional(z.string()),
  blockNumber: z.optional(z.number()),
  blockTimeStamp: z.optional(z.number()),
  fee: num,
  result: z.optional(z.string()),
  resMessage: z.optional(z.string()),
  receipt: z.optional(
    z.looseObject({
      energy_usage: num,
      energy_usage_total: num,
      energy_fee: num,
      origin_energy_usage: num,
      net_usage: num,
      net_fee: num,
      result: z.optional(z.string()),
    }),
  ),
});
export type TransactionInfo = z.infer<typeof TransactionInfo>;

/** One event log of a receipt: the emitting contract's hex address (20 bytes, no 41), topics and data (hex). */
export const TransactionLog = z.looseObject({
  address: z.optional(z.string()),
  topics: z.optional(z.array(z.string())),
  data: z.optional(z.string()),
});
export type TransactionLog = z.infer<typeof TransactionLog>;

/** `gettransactioninfobyblocknum`: the receipts of one block's transactions, logs included (`[]` for none). */
export const BlockTransactionInfos = z.array(z.extend(TransactionInfo, { log: z.optional(z.array(TransactionLog)) }));
export type BlockTransactionInfos = z.infer<typeof BlockTransactionInfos>;

/** `getnowblock`: the head block (its id and number are the TAPOS reference of a new transaction). */
export const NowBlock = z.looseObject({
  blockID: z.string().check(z.regex(/^[0-9a-fA-F]{64}$/)),
  block_header: z.looseObject({ raw_data: z.looseObject({ number: z.number(), timestamp: z.optional(z.number()) }) }),
});
export type NowBlock = z.infer<typeof NowBlock>;

/** Why a simulation failed, read from java-tron's answer. */
export interface SimulationFailure {
  /** True when the contract reverted (REVERT opcode), false for other failures (validation, out of energy…). */
  reverted: boolean;
  /** The revert reason (`Error(string)`), java-tron's message, or the code: what a person reads. */
  reason: string;
  /** java-tron's code (`result.code`, e.g. CONTRACT_VALIDATE_ERROR) or the transaction's `contractRet` (REVERT, OUT_OF_ENERGY). */
  node_code: string | undefined;
  /** Energy used up to the failure, when the node says. */
  energy_used: number;
}

/**
 * Whether a `triggerconstantcontract` answer is a failed simulation, in any of java-tron's forms
 * (`Wallet.triggerConstantContract` / `callConstantContract`, `VMActuator.execute`):
 * - a refusal before running: `result.code` (CONTRACT_VALIDATE_ERROR, OTHER_ERROR…) or
 *   `result.result` not true, the text in `result.message` (hex);
 * - a revert: `result.result` stays **true**, `result.message` is hex "REVERT opcode executed",
 *   `transaction.ret[0].ret` is FAILED, and `constant_result[0]` holds the contract's
 *   `Error(string)` data when it gave a reason (`Panic(uint256)` for an assert);
 * - any other VM failure: `transaction.ret[0].ret` FAILED with the runtime error in `message`.
 * Undefined when the call succeeded.
 */
export function simulationFailure(answer: ConstantCallResult): SimulationFailure | undefined {
  const res = answer.result;
  const message = res?.message ? hexText(res.message) : undefined;
  const ret = answer.transaction?.ret?.[0];
  const revertData = revertReason(answer.constant_result?.[0]);
  const reverted = /REVERT/i.test(message ?? '') || ret?.contractRet === 'REVERT' || revertData !== undefined;
  const failed = res?.result !== true || res?.code !== undefined || ret?.ret === 'FAILED' || reverted;
  if (!failed) return undefined;
  const nodeCode = res?.code ?? ret?.contractRet;
  return {
    reverted,
    reason: revertData ?? message ?? nodeCode ?? 'the node reports no result',
    node_code: nodeCode,
    energy_used: answer.energy_used,
  };
}

/**
 * The text of a revert's return data: `Error(string)` decoded by the one ABI decoder
 * (`protocol/abi.ts`), `Panic(uint256)` (4e487b71) as its code; undefined for anything else (a
 * plain return value, empty data).
 */
export function revertReason(data: string | undefined): string | undefined {
  const hex = (data ?? '').replace(/^0x/i, '').toLowerCase();
  if (hex.startsWith('4e487b71') && hex.length >= 8 + 64) return `Panic(0x${BigInt(`0x${hex.slice(8, 72)}`).toString(16)})`;
  const reason = decodeErrorString(hex);
  if (reason === undefined) return undefined;
  return reason.replace(/[^\x20-\x7e]/g, '?') || 'reverted without a reason';
}

/** A node's hex-encoded message as text; text that is not hex stays as it is. */
export function hexText(value: string): string {
  if (!/^([0-9a-fA-F]{2})+$/.test(value)) return value;
  const bytes = new Uint8Array(value.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(value.slice(i * 2, i * 2 + 2), 16);
  return new TextDecoder().decode(bytes).replace(/[^\x20-\x7e]/g, '?');
}
