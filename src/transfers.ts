/**
 * `client.transfers` with payouts: the transfer handle of `src/tron/facade.ts` plus `sendMany`
 * and `batch`, thin handles that load the payout workflow (`src/workflows/payouts/`) on first
 * use, so `import 'trx-rent'` loads none of it.
 * @module
 */
import type { Orders } from './resources/orders.js';
import type { Prices } from './resources/prices.js';
import type { Transactions } from './resources/transactions.js';
import { type Chain, type ChainAccess, Transfers } from './tron/facade.js';
import type { Clock } from './utils/clock.js';
import type { Payout, PayoutReport, PayoutRun, SendManyOptions } from './workflows/payouts/index.js';

/** The parts of the client a payout run uses. */
export interface PayoutClient {
  orders: Orders;
  prices: Prices;
  transactions: Transactions;
  chain: Chain;
  http: { clock: Clock; account(): { origin: string; account: string } };
}

/** `client.transfers`: estimate, send, status, and many transfers with one rental (`sendMany`, `batch`). */
export class PayoutTransfers extends Transfers {
  readonly #client: PayoutClient;

  constructor(chain: ChainAccess, client: PayoutClient) {
    super(chain);
    this.#client = client;
  }

  async #deps() {
    const c = this.#client;
    return { orders: c.orders, prices: c.prices, transactions: c.transactions, chain: c.chain, node: await c.chain.node(), clock: c.http.clock, service: c.http.account() };
  }

  /**
   * Send USDT (or USDC, USDD) to many recipients with one rental: every row is checked and
   * estimated (a holder ~65k energy, an empty address ~130k), the batch's energy and bandwidth
   * are rented with a margin in as few orders as the providers allow, then the rows are signed,
   * broadcast and confirmed a few at a time. With `journal` (a file path), a crash at any point
   * resumes with the same call and never pays a row twice.
   *
   * ```ts
   * const report = await client.transfers.sendMany(
   *   [{ to: 'T…', amount: '10', id: 'inv-1' }, { to: 'T…', amount: '2.5', id: 'inv-2' }],
   *   { signer: { privateKey }, journal: './payouts.journal' },
   * );
   * console.log(report.confirmed, report.rent_cost_sun, report.saving_sun);
   * ```
   */
  async sendMany(payouts: readonly Payout[], options: SendManyOptions): Promise<PayoutReport> {
    return (await this.batch(payouts, options)).start();
  }

  /**
   * The same batch as an object for long runs: `plan()` (spends nothing), `start()`, `stop()`,
   * `resume()` (after a stop or a crash, with the same rows and journal), `report()`.
   */
  async batch(payouts: readonly Payout[], options: SendManyOptions & { where?: readonly string[] | undefined }): Promise<PayoutRun> {
    const [payoutsModule, deps] = await Promise.all([import('./workflows/payouts/index.js'), this.#deps()]);
    return new payoutsModule.PayoutRun(deps, payouts, options, options.where);
  }
}
