/**
 * The node's JSON views of the simulated chain's records that need more than a lookup:
 * `gettransactioninfobyid`'s receipt and the decoding of a `broadcasthex` payload.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { type SignedTransactionLike, encodeRawDataJson } from '../../protocol/tron-transaction.js';
import { tronAddressToHex } from '../../utils/address.js';
import type { ChainTransaction } from './types.js';
import { CHAIN_PARAMETERS } from './fees.js';
import { addressWord, uintWord } from '../../protocol/abi.js';

/**
 * The raw-data bytes (hex) of a transaction sent as JSON, as java-tron's `Util.packTransaction`
 * rebuilds them from the `raw_data` JSON (`raw_data_hex` and `txID` are not read); the mock reads
 * `raw_data_hex` only for a contract it does not encode, or when there is no JSON.
 */
export function packRawHex(tx: { raw_data?: unknown; raw_data_hex?: unknown }): string | undefined {
  if (tx.raw_data !== undefined) {
    try {
      return encodeRawDataJson(tx.raw_data);
    } catch {
      // a contract type the encoder does not know: fall back to the bytes
    }
  }
  if (typeof tx.raw_data_hex === 'string' && /^([0-9a-fA-F]{2})+$/.test(tx.raw_data_hex)) return tx.raw_data_hex.toLowerCase();
  return undefined;
}

/**
 * A transaction's receipt as `gettransactioninfobyid` shows it (java-tron
 * `TransactionUtil.buildTransactionInfoInstance`): `contractResult` holds the call's return
 * data, `resMessage` (hex) why it failed, `result: 'FAILED'` only on failure; the receipt
 * splits energy from stake (`energy_usage`), TRX burnt for the rest (`energy_fee`), both
 * (`energy_usage_total`), the dynamic-energy part (`energy_penalty_total`); bandwidth from
 * stake or the free allowance (`net_usage`) or burnt (`net_fee`, `net_usage` then absent).
 */
export function transactionInfoJson(tx: ChainTransaction, blockTime: number): Record<string, unknown> {
  const fromStake = tx.energyFromStake ?? (tx.energyUsed ? tx.energyUsed - Math.floor((tx.energyFeeSun ?? 0) / CHAIN_PARAMETERS.getEnergyFee) : 0);
  const info: Record<string, unknown> = {
    id: tx.txid,
    ...(tx.feeSun ? { fee: tx.feeSun } : {}),
    blockNumber: tx.block,
    blockTimeStamp: blockTime,
    contractResult: [tx.contractResult ?? (tx.result === 'SUCCESS' && tx.transfer ? uintWord(1) : '')],
    receipt: {
      ...(fromStake > 0 ? { energy_usage: fromStake } : {}),
      ...(tx.energyFeeSun ? { energy_fee: tx.energyFeeSun } : {}),
      ...(tx.energyUsed ? { energy_usage_total: tx.energyUsed } : {}),
      ...(tx.netFeeSun ? { net_fee: tx.netFeeSun } : { net_usage: tx.netUsed }),
      result: tx.receiptResult ?? tx.result,
      ...(tx.energyPenalty ? { energy_penalty_total: tx.energyPenalty } : {}),
    },
  };
  const value = ((tx.tx.raw_data as { contract?: { parameter?: { value?: { contract_address?: string } } }[] } | undefined)?.contract?.[0]?.parameter?.value ??
    {}) as { contract_address?: string };
  if (tx.contractType === 'TriggerSmartContract' && value.contract_address) info.contract_address = value.contract_address;
  if (tx.transfer) {
    const t = tx.transfer;
    info.contract_address = tronAddressToHex(t.token.address);
    info.log = [
      {
        address: tronAddressToHex(t.token.address).slice(2),
        topics: ['ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', addressWord(t.from), addressWord(t.to)],
        data: uintWord(t.amount),
      },
    ];
  }
  if (tx.result !== 'SUCCESS') info.result = 'FAILED';
  if (tx.resMessage) info.resMessage = bytesToHex(new TextEncoder().encode(tx.resMessage));
  return info;
}

/** Node-style decode of a broadcasthex payload: Transaction { raw_data = 1; signature = 2 }. */
export function decodeTransactionHex(hex: string): SignedTransactionLike & Record<string, unknown> {
  const bytes = hexToBytes(hex.replace(/^0x/, ''));
  let i = 0;
  let raw: Uint8Array | undefined;
  const signature: string[] = [];
  const varint = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (i >= bytes.length) throw new Error('truncated');
      const b = bytes[i++]!;
      result += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) return result;
      shift += 7;
    }
  };
  while (i < bytes.length) {
    const key = varint();
    if ((key & 7) !== 2) throw new Error('unexpected wire type');
    const len = varint();
    const value = bytes.subarray(i, i + len);
    i += len;
    if (key >> 3 === 1) raw = value;
    else if (key >> 3 === 2) signature.push(bytesToHex(value));
  }
  if (!raw) throw new Error('no raw_data');
  const raw_data_hex = bytesToHex(raw);
  return { txID: bytesToHex(sha256(raw)), raw_data_hex, signature };
}
