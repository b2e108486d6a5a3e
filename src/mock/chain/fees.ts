/**
 * What a transaction costs on the simulated chain, as java-tron charges it: the chain's fee
 * parameters, bandwidth (java-tron `BandwidthProcessor`) and the energy cap and bill
 * (`VMActuator.getAccountEnergyLimitWithFixRatio`, `ReceiptCapsule.payEnergyBill`).
 * @module
 */
import type { ChainAccount } from './types.js';
import type { CallOutcome } from './contracts.js';

/** Chain parameters the node reports (mainnet-like values). */
export const CHAIN_PARAMETERS = {
  getEnergyFee: 100, // SUN per energy unit burnt
  getTransactionFee: 1_000, // SUN per bandwidth byte burnt
  getFreeNetLimit: 600,
  getCreateAccountFee: 100_000,
  getCreateNewAccountFeeInSystemContract: 1_000_000,
  getMaintenanceTimeInterval: 21_600_000,
  getTotalEnergyLimit: 180_000_000_000,
  getTotalEnergyCurrentLimit: 180_000_000_000,
  getMemoFee: 1_000_000,
  getMaxFeeLimit: 15_000_000_000,
  getAllowDynamicEnergy: 1,
  getDynamicEnergyThreshold: 5_000_000_000,
  getDynamicEnergyIncreaseFactor: 2_000,
  getDynamicEnergyMaxFactor: 34_000,
  // Multi-signature (DynamicPropertiesStore genesis values, unchanged on mainnet): AccountPermissionUpdate burns
  // 100 TRX; a transaction with more than one signature burns 1 TRX more (Manager.consumeMultiSignFee).
  getAllowMultiSign: 1,
  getUpdateAccountPermissionFee: 100_000_000,
  getMultiSignFee: 1_000_000,
} as const;

/** Bytes java-tron charges: the Transaction without `ret` (raw_data, one 65-byte field per signature) plus 64 for the result (BandwidthProcessor.consume). */
export function bandwidthBytes(rawHex: string, signatures: number): number {
  const rawLength = rawHex.length / 2;
  return 1 + varintLength(rawLength) + rawLength + signatures * 67 + 64;
}

/**
 * How the bandwidth would be paid (nothing changed yet), or undefined when it cannot be
 * (BandwidthProcessor.consume): staked or delegated first, then the free allowance, else TRX
 * burnt per byte. A transfer creating an account pays from stake or the 0.1 TRX
 * account-creation fee instead (`consumeForCreateNewAccount`).
 */
export function bandwidthPlan(account: ChainAccount, bytes: number, createsAccount: boolean): { from: 'stake' | 'free' | 'burn'; burnt: number } | undefined {
  if (account.netUsed + bytes <= account.netLimit) return { from: 'stake', burnt: 0 };
  if (createsAccount) {
    const fee = CHAIN_PARAMETERS.getCreateAccountFee;
    return account.trx >= BigInt(fee) ? { from: 'burn', burnt: fee } : undefined;
  }
  if (account.freeNetUsed + bytes <= CHAIN_PARAMETERS.getFreeNetLimit) return { from: 'free', burnt: 0 };
  const burnt = bytes * CHAIN_PARAMETERS.getTransactionFee;
  return account.trx >= BigInt(burnt) ? { from: 'burn', burnt } : undefined;
}

/** Take the bandwidth as {@link bandwidthPlan} said. */
export function payBandwidth(account: ChainAccount, bytes: number, plan: { from: 'stake' | 'free' | 'burn'; burnt: number }): void {
  if (plan.from === 'stake') account.netUsed += bytes;
  else if (plan.from === 'free') account.freeNetUsed += bytes;
  else account.trx -= BigInt(plan.burnt);
}

/**
 * The energy a call may use and how it is paid, as java-tron does it: the limit is
 * min(energy left from stake or delegation + balance / energy price, fee_limit / energy price)
 * (`VMActuator.getAccountEnergyLimitWithFixRatio`); a call needing more runs OUT_OF_ENERGY and
 * uses the whole limit (`Program.spendEnergy`); the energy used is paid from stake first and
 * the rest burnt at getEnergyFee (`ReceiptCapsule.payEnergyBill`), so the receipt's
 * energy_usage never exceeds what the sender had.
 */
export function runEnergy(account: ChainAccount, outcome: CallOutcome, feeLimit: number) {
  const price = CHAIN_PARAMETERS.getEnergyFee;
  const left = Math.max(0, account.energyLimit - account.energyUsed);
  const limit = Math.min(left + Number(account.trx / BigInt(price)), Math.floor(feeLimit / price));
  const out = outcome.energy > limit;
  const used = out ? limit : outcome.energy;
  const fromStake = Math.min(left, used);
  const burnt = (used - fromStake) * price;
  account.energyUsed += fromStake;
  account.trx -= BigInt(burnt);
  const penalty = out ? Math.floor((outcome.penalty * used) / Math.max(1, outcome.energy)) : outcome.penalty;
  const result = out ? 'OUT_OF_ENERGY' : outcome.status;
  const message = out
    ? `Not enough energy for 'SSTORE' operation executing: curInvokeEnergyLimit[${limit}], curOpEnergy[${outcome.energy - limit}], usedEnergy[${limit}]`
    : outcome.status === 'REVERT'
      ? 'REVERT opcode executed'
      : undefined;
  return { used, fromStake, burnt, penalty, result, message };
}

/** Bytes of a protobuf varint holding `n`. */
function varintLength(n: number): number {
  let length = 1;
  for (let v = n; v >= 0x80; v = Math.floor(v / 128)) length++;
  return length;
}
