/**
 * The end of a send: wait for the solidified receipt when asked, check the receipt's figures,
 * and report the transfer (what it cost, what burning would have cost, what was saved).
 * @module
 */
import { TrxRentError } from '../errors/index.js';
import { pollUntil } from '../utils/clock.js';
import { atomicToDecimal } from '../utils/units.js';
import type { Deadline } from './deadline.js';
import type { TransferRecord, TransferStatus } from './identity.js';
import { chainFees } from './inputs.js';
import { checkReceipt } from './transfer.js';
import type { Known } from './send-known.js';
import type { Confirmation, EngineDeps, EnsureResult, SendTransferParams, SentTransfer, TokenInfo, TransferEstimate } from './types.js';

/**
 * With `confirmation: 'solidified'`, wait (within the call's deadline, on the SDK clock) until
 * the solidity node has the receipt too (`/walletsolidity/gettransactioninfobyid`): the block can
 * no longer be undone. The receipt reported is then the solidified one.
 */
export async function solidify(
  deps: EngineDeps,
  status: TransferStatus,
  confirmed: Confirmation,
  deadline: Deadline,
): Promise<TransferStatus & { solidified?: boolean }> {
  if (confirmed !== 'solidified' || status.state !== 'confirmed') return status;
  const receipt = await pollUntil(
    async () => {
      const info = await deps.node.getTransactionInfo(status.tx_id, { signal: deadline.signal, timeoutMs: deadline.budget(), solidified: true });
      return info ? { done: true, value: info } : { done: false };
    },
    {
      timeoutMs: Math.max(1, deadline.left()),
      clock: deps.http.clock,
      signal: deadline.signal,
      intervalMs: 1_000,
      maxIntervalMs: 3_000,
      timeoutMessage: () =>
        `Transfer ${status.tx_id} is in block ${status.block} but in no solidified block yet: it is sent; check it with trx-rent tx ${status.tx_id}`,
    },
  );
  return { ...status, receipt, solidified: true };
}

/**
 * The sent transfer's report from its receipt (checked for figures a node may get wrong): what
 * was rented, burned and saved against burning; a mined but failed transfer is TRANSFER_FAILED
 * carrying the report.
 */
export async function report(
  deps: EngineDeps,
  params: SendTransferParams,
  status: TransferStatus & { solidified?: boolean },
  record: TransferRecord,
  token: TokenInfo,
  estimate: TransferEstimate | null,
  ensured: EnsureResult | null,
  known: Known,
  resumed: boolean,
): Promise<SentTransfer> {
  const info = status.receipt!;
  // The solidified receipt, when one was awaited, is checked too (the protocol checked the included one).
  checkReceipt(info, record.tx_id);
  const receipt = info.receipt;
  const result = status.result ?? 'SUCCESS';
  known.transfer_sent = true;
  params.onProgress?.({ step: 'confirmed', tx_id: record.tx_id, block: info.blockNumber! });
  const energyFee = estimate?.fees.energy_sun ?? (await chainFees(deps.node, params.signal)).energy_sun;
  const energyUsed = receipt?.energy_usage_total || (receipt?.energy_usage ?? 0) + (receipt?.origin_energy_usage ?? 0);
  const out: SentTransfer = {
    tx_id: record.tx_id,
    confirmed: status.solidified ? 'solidified' : 'included',
    from: record.from,
    to: record.to,
    token,
    amount: atomicToDecimal(BigInt(record.amount_atomic), token.decimals),
    amount_atomic: record.amount_atomic,
    receipt: {
      block: info.blockNumber!,
      result,
      energy_used: energyUsed,
      energy_burned_sun: receipt?.energy_fee ?? 0,
      bandwidth_used: receipt?.net_usage ?? 0,
      bandwidth_burned_sun: receipt?.net_fee ?? 0,
      fee_sun: info.fee,
    },
    estimate,
    resumed,
    ensure: ensured,
    rent_cost_sun: ensured?.cost_sun ?? 0,
    burned_sun: info.fee,
    total_cost_sun: (ensured?.cost_sun ?? 0) + info.fee,
    burn_cost_sun: energyUsed * energyFee + (receipt?.net_fee ?? 0),
    saving_sun: 0,
  };
  out.saving_sun = out.burn_cost_sun - out.total_cost_sun;
  if (status.state === 'failed') {
    throw new TrxRentError({
      code: 'TRANSFER_FAILED',
      message: `Transfer ${record.tx_id} was mined but failed: ${result}${info.resMessage ? ` (${info.resMessage})` : ''}`,
      details: { report: out },
    });
  }
  return out;
}
