import type { RequestOptions } from '../http/client.js';
import { Balance } from '../schemas/balance.js';
import { Resource } from './resource.js';

/** `client.balance`: the account's TRX balance (GET /api/v1/balance). */
export class BalanceResource extends Resource {
  /** GET /api/v1/balance: available TRX and USDT, and TRX locked in open orders (all in SUN). */
  get(options?: RequestOptions) {
    return this.call(() => ({ method: 'GET', path: '/api/v1/balance', schema: Balance, options }));
  }
}
