/**
 * The simulated chain's records (accounts, tokens, transactions), apart from the chain so that
 * its helpers (fees, views) can name them without importing the chain.
 * @module
 */
import type { Permission } from '../../protocol/tron-permissions.js';

/** An account's permissions: owner, witness (only a witness account has one), the actives (ids 2..9). */
export interface AccountPermissions {
  owner: Permission;
  witness?: Permission | undefined;
  actives: Permission[];
}

/** A TRC-20 contract the simulated chain runs. */
export interface ChainToken {
  symbol: string;
  name: string;
  address: string;
  decimals: number;
}

/** An address's record on the simulated chain. */
export interface ChainAccount {
  address: string;
  trx: bigint;
  tokens: Map<string, bigint>;
  /** Energy delegated to the account (rented), and used in the current window. */
  energyLimit: number;
  energyUsed: number;
  /** Bandwidth delegated to the account (rented), and used of it. */
  netLimit: number;
  netUsed: number;
  freeNetUsed: number;
  createdAt: number;
  /**
   * Set while the address holds only contract-side state (TRC-20 balances): it is no account on
   * chain (`getaccount` answers `{}`) until TRX or an AccountCreate reaches it. Absent = an account.
   */
  inactive?: true;
  /** Set by an AccountPermissionUpdateContract; absent = java-tron's default owner and active permissions (mock/chain/permissions.ts). */
  permissions?: AccountPermissions;
}

/** A TRC-20 Transfer event. */
export interface Trc20Transfer {
  txid: string;
  token: ChainToken;
  from: string;
  to: string;
  amount: bigint;
  block: number;
  timestamp: number;
}

/** A transaction on the simulated chain, with its receipt. */
export interface ChainTransaction {
  txid: string;
  /** The signed transaction as submitted (JSON form), or a synthetic one for mock transfers. */
  tx: Record<string, unknown>;
  block: number;
  timestamp: number;
  result: 'SUCCESS' | 'REVERT';
  owner: string;
  contractType: string;
  energyUsed: number;
  netUsed: number;
  /** TRX burnt in all (energy_fee + net_fee), in SUN. */
  feeSun: number;
  /** The burnt parts, when the transaction paid any: for energy, for bandwidth. */
  energyFeeSun?: number;
  netFeeSun?: number;
  /** The receipt's result when it says more than REVERT (OUT_OF_ENERGY). */
  receiptResult?: string;
  /** Energy paid from stake or delegation (the receipt's energy_usage). */
  energyFromStake?: number;
  /** The dynamic-energy part of energyUsed (energy_penalty_total). */
  energyPenalty?: number;
  /** The call's return data (contractResult[0]), hex. */
  contractResult?: string;
  /** Why the call failed (resMessage), plain text. */
  resMessage?: string;
  /** A fee the contract itself charged (TransferActuator: 1 TRX to create the recipient's account). */
  contractFeeSun?: number;
  transfer?: Trc20Transfer;
  trxTransfer?: { from: string; to: string; amountSun: bigint; memoHex?: string };
}
