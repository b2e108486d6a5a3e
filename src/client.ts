import { HttpClient, type HttpClientOptions } from './http/client.js';
import { BalanceResource } from './resources/balance.js';
import { Deposits } from './resources/deposits.js';
import { History } from './resources/history.js';
import { Keys } from './resources/keys.js';
import { Orders } from './resources/orders.js';
import { Prices } from './resources/prices.js';
import { Transactions } from './resources/transactions.js';
import { Webhooks } from './resources/webhooks.js';
import { Withdrawals } from './resources/withdrawals.js';

export type TrxRentOptions = HttpClientOptions;

/**
 * Client for the account API (`/api/v1`).
 *
 * ```ts
 * import { TrxRent } from 'trx-rent';
 *
 * const client = new TrxRent({ apiKey: process.env.TRX_RENT_API_KEY, baseUrl: 'https://…' });
 * const order = await client.orders.create({ resource_type: 'ENERGY', amount: 65_000,
 *   duration_sec: 3600, target_address: 'T…' });
 * await client.orders.waitFor(order.id);
 * ```
 */
export class TrxRent {
  readonly http: HttpClient;
  readonly keys: Keys;
  readonly prices: Prices;
  readonly orders: Orders;
  readonly balance: BalanceResource;
  readonly history: History;
  readonly deposits: Deposits;
  readonly withdrawals: Withdrawals;
  readonly webhooks: Webhooks;
  readonly transactions: Transactions;

  constructor(options: TrxRentOptions = {}) {
    this.http = new HttpClient(options);
    this.keys = new Keys(this.http);
    this.prices = new Prices(this.http);
    this.orders = new Orders(this.http);
    this.balance = new BalanceResource(this.http);
    this.history = new History(this.http);
    this.deposits = new Deposits(this.http);
    this.withdrawals = new Withdrawals(this.http);
    this.webhooks = new Webhooks(this.http);
    this.transactions = new Transactions(this.http);
  }
}
