import { ACCOUNT_WIRE as E } from '../api/account.js';
import type { RequestOptions } from '../http/client.js';
import type { CreateWithdrawalRequest } from '../schemas/withdrawals.js';
import { Resource } from './resource.js';

/** `client.withdrawals`: withdraw TRX from the balance to an address (idempotent POST). */
export class Withdrawals extends Resource {
  /**
   * Withdraw. `amount` is in SUN (minimum 50 TRX; use `trxToSun('50')`). An Idempotency-Key is
   * generated when none is given and reused on every retry, so a retried withdrawal can never
   * pay out twice.
   */
  create(params: CreateWithdrawalRequest, options?: RequestOptions) {
    return this.call(E.createWithdrawal, { body: params }, options);
  }
}
