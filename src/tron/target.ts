/**
 * Whether an address can receive rented energy or bandwidth, read on the node before anything is
 * ordered. A rental is a DelegateResourceContract from the provider to the target, and java-tron
 * refuses one (`DelegateResourceActuator.validate`) to an address that is no account
 * ("Account[…] not exists": only TRX or an AccountCreate makes an account; a TRC-20 receipt does
 * not) and to a contract ("Do not allow delegate resources to contract addresses"). An order to
 * either fails after it was placed; these checks refuse it before: TARGET_NOT_ACTIVATED (with how
 * to activate it) and TARGET_IS_CONTRACT.
 * @module
 */
import { TrxRentError } from '../errors/index.js';
import type { NodeAccount } from './node-answers.js';
import type { NodeCallOptions, TronNode } from './node.js';

/** What the node says about a rental's target. */
export interface RentalTarget {
  address: string;
  /** An account on chain (`getaccount` answers more than `{}`). */
  activated: boolean;
  /** A contract (`getaccount` type Contract). */
  contract: boolean;
  /** TRX it holds, in SUN. */
  balance_sun: number;
}

/** Whether a `getaccount` answer is an account: java-tron answers `{}` until TRX or an AccountCreate reaches the address. */
export function isAccount(account: NodeAccount): boolean {
  return !(account.address === undefined && account.balance === 0 && account.create_time === 0);
}

/** Read `address`'s account on the node: activated, a contract, its TRX. */
export async function readTarget(node: TronNode, address: string, options?: NodeCallOptions): Promise<RentalTarget> {
  const account = await node.getAccount(address, options);
  return { address, activated: isAccount(account), contract: (account as { type?: unknown }).type === 'Contract', balance_sun: account.balance };
}

/** TARGET_NOT_ACTIVATED for `address`: nothing was ordered; send it TRX first. */
export function notActivated(address: string, field = 'address'): TrxRentError {
  return new TrxRentError({
    code: 'TARGET_NOT_ACTIVATED',
    message:
      `${address} is not activated on chain (it has never received TRX): TRON refuses to delegate energy or bandwidth to it, so nothing was ordered. ` +
      'Send it TRX first (any amount activates it; the sender pays the account-creation fee), or let ensure activate it (`activate: { signer }`)',
    details: { field, address, failure_reason: 'TARGET_NOT_ACTIVATED', activate: 'send it TRX' },
  });
}

/** TARGET_IS_CONTRACT for `address`: nothing was ordered. */
export function isContractTarget(address: string, field = 'address'): TrxRentError {
  return new TrxRentError({
    code: 'TARGET_IS_CONTRACT',
    message:
      `${address} is a contract: TRON refuses to delegate energy or bandwidth to a contract ("Do not allow delegate resources to contract addresses"), so nothing was ordered. ` +
      'Rent to the account that sends the transactions (the sender of a token transfer), not to the token',
    details: { field, address, failure_reason: 'TARGET_IS_CONTRACT' },
  });
}

/**
 * Read `address` on the node and refuse a target no rental can reach: TARGET_IS_CONTRACT, and
 * TARGET_NOT_ACTIVATED unless `allowInactive` (the caller activates it first). Returns what was read.
 */
export async function checkRentalTarget(
  node: TronNode,
  address: string,
  options: NodeCallOptions & { field?: string | undefined; allowInactive?: boolean | undefined } = {},
): Promise<RentalTarget> {
  const target = await readTarget(node, address, options);
  if (target.contract) throw isContractTarget(address, options.field);
  if (!target.activated && !options.allowInactive) throw notActivated(address, options.field);
  return target;
}
