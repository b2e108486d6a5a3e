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
import type { SweepOptions, SweepPlan, SweepReport, SweepRun, SweepSource } from './workflows/sweep/index.js';

/** The parts of the client a payout run uses. */
export interface PayoutClient {
  orders: Orders;
  prices: Prices;
  transactions: Transactions;
  chain: Chain;
  http: {
    clock: Clock;
    /** The service's origin and a fingerprint of the API key (a batch's journal is bound to them). */
    account(): { origin: string; account: string };
  };
}

/** `client.transfers`: estimate, send, status, many transfers with one rental (`sendMany`, `batch`), and sweeps of many deposit addresses (`sweep`). */
export class PayoutTransfers extends Transfers {
  readonly #client: PayoutClient;

  constructor(chain: ChainAccess, client: PayoutClient) {
    super(chain);
    this.#client = client;
  }

  async #deps() {
    const c = this.#client;
    return {
      orders: c.orders,
      prices: c.prices,
      transactions: c.transactions,
      chain: c.chain,
      node: await c.chain.node(),
      clock: c.http.clock,
      service: c.http.account(),
    };
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

  /**
   * Sweep USDT (or another TRC-20) from many deposit addresses into the treasury `to`: each source
   * holding at least `min` is read on the node, activated first from `funding` if it is no account
   * (once), rented its energy (one order per source: an order has one target), and its balance sent
   * to the treasury with its own key, exactly once (the one transfer protocol, journaled). With
   * `journal` (a file), a crash at any point resumes with the same call. The confirmed plan's cost
   * binds: the run spends at most it plus `costMarginPct` (or `maxCostSun`).
   *
   * ```ts
   * import { readFile } from 'node:fs/promises';
   * const mnemonic = (await readFile('words.txt', 'utf8')).trim(); // never from argv or a literal
   * const keys = await client.chain.deriveKeys({ mnemonic, count: 500 });
   * const report = await client.transfers.sweep(keys, { to: 'T…', min: '10', funding: { privateKey }, journal: './sweep.journal' });
   * console.log(report.swept, report.total_swept, report.total_cost_sun);
   * ```
   */
  async sweep(sources: readonly SweepSource[], options: SweepOptions): Promise<SweepReport> {
    return (await this.sweepRun(sources, options)).start();
  }

  /** What {@link sweep} would do and cost: every source read on the node; nothing spent or written. */
  async sweepPlan(sources: readonly SweepSource[], options: SweepOptions): Promise<SweepPlan> {
    const run = await this.sweepRun(sources, { ...options, journal: undefined });
    try {
      return await run.plan();
    } finally {
      await run.close();
    }
  }

  /** The same sweep as an object: `plan()` (spends nothing), `start()`, `stop()`, `report()`. */
  async sweepRun(sources: readonly SweepSource[], options: SweepOptions): Promise<SweepRun> {
    const [sweepModule, deps] = await Promise.all([import('./workflows/sweep/index.js'), this.#deps()]);
    return new sweepModule.SweepRun(deps, sources, options);
  }
}
