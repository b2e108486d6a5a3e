import { ACCOUNT_WIRE as E } from '../api/account.js';
import type { RequestOptions } from '../http/client.js';
import { Resource } from './resource.js';

/** `client.balance`: the account's balance (table entry `getBalance`). */
export class BalanceResource extends Resource {
  /** Available TRX and USDT, and TRX locked in open orders (all in SUN). */
  get(options?: RequestOptions) {
    return this.call(E.getBalance, {}, options);
  }
}
