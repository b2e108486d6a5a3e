import type { ACCOUNT_DOCS } from './api/account-docs.js';
import { HttpClient, type HttpClientOptions } from './http/client.js';
import { BalanceResource } from './resources/balance.js';
import { Deposits } from './resources/deposits.js';
import { History } from './resources/history.js';
import { Keys } from './resources/keys.js';
import { Orders } from './resources/orders.js';
import { Prices } from './resources/prices.js';
import { Transactions } from './resources/transactions.js';
import { Chain, ChainAccess } from './tron/facade.js';
import { PayoutTransfers } from './transfers.js';
import type { TransferStore } from './tron/identity.js';
import { storeTransfers } from './tron/transfer-store.js';
import type { Store } from './store/types.js';
import { Webhooks } from './resources/webhooks.js';
import { Withdrawals } from './resources/withdrawals.js';

/** Options of `new TrxRent(options)`: the account API's, plus the TRON node transfers read. */
export interface TrxRentOptions extends HttpClientOptions {
  /**
   * A TRON full node's base URL (its HTTP API, `/wallet/*`), read by `client.transfers` and
   * `client.chain`; never sent the API key. The mock serves one at its own origin.
   * @default 'https://api.trongrid.io'
   */
  tronNode?: string | undefined;
  /**
   * Where `client.transfers.send` keeps each signed transfer with its idempotency key, so a
   * retry with the key re-broadcasts the same transaction instead of signing a new one
   * (`fileTransferStore(dir)` keeps them across processes).
   * @default an in-memory store for this client
   */
  transferStore?: TransferStore | undefined;
  /**
   * Where the transfer records live when no `transferStore` is given: a `postgres://` URL (the
   * PostgreSQL store, for processes on several hosts sharing one database; `pg` installed), a
   * folder (the file store), or a {@link Store}. Two processes with one store and one
   * idempotency key sign once; the second lands the first's transaction.
   */
  store?: Store | string | undefined;
  /**
   * TronGrid's API key for the node (`TRON-PRO-API-KEY`), sent to the `tronNode` origin only:
   * never to the account API, never across a redirect.
   */
  tronNodeApiKey?: string | undefined;
  /** More headers for the node only (another provider's key header), like `tronNodeApiKey`. */
  tronNodeHeaders?: Record<string, string> | undefined;
}

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
  /** TRC-20 transfers with the energy rented: `estimate` and `send`. */
  readonly transfers: PayoutTransfers;
  /** What an address can spend on chain, and `ensure` (rent exactly the deficit). */
  /**
   * What an address can spend on chain (`read`), and renting exactly its deficit (`plan`,
   * `ensure`); `node()` is the TRON node client. Named apart from the account API's resource
   * clients (`client.orders`, …) it stands beside.
   */
  readonly chain: Chain;
  /** @deprecated The old name of {@link TrxRent.chain} (the same object). */
  readonly resources: Chain;

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
    const chain = new ChainAccess(
      this.http,
      {
        baseUrl: options.tronNode,
        fetch: options.fetch,
        timeoutMs: options.timeoutMs,
        maxRetries: options.maxRetries,
        retry: options.retry,
        apiKey: options.tronNodeApiKey,
        headers: options.tronNodeHeaders,
        clock: this.http.clock,
        onRetry: options.onRetry,
      },
      options.transferStore ?? (options.store ? storeTransfers(options.store) : undefined),
    );
    this.chain = new Chain(chain);
    this.resources = this.chain;
    this.transfers = new PayoutTransfers(chain, this);
  }
}

// ---- compile-time: every account entry's SDK binding names a method of TrxRent ----

/** `group.method` for every method of every resource object of TrxRent. */
type SdkMethodPath = {
  [G in keyof TrxRent & string]: TrxRent[G] extends object
    ? { [M in keyof TrxRent[G] & string]: TrxRent[G][M] extends (...args: never[]) => unknown ? `${G}.${M}` : never }[keyof TrxRent[G] & string]
    : never;
}[keyof TrxRent & string];
type AccountBindings = { [Id in keyof typeof ACCOUNT_DOCS]: (typeof ACCOUNT_DOCS)[Id]['sdk'] };
/** The ids of account entries whose `sdk` names no method (never, or this file does not compile). */
type EntriesWithoutMethod = { [Id in keyof AccountBindings]: AccountBindings[Id] extends SdkMethodPath | { none: string } ? never : Id }[keyof AccountBindings];
/** A table entry (src/api/account-docs.ts) whose `sdk` names no method of TrxRent is a type error here, naming the entry. */
export type CheckAccountSdkBindings = [EntriesWithoutMethod] extends [never] ? true : { missingSdkMethodFor: EntriesWithoutMethod };
const everyAccountEntryHasItsMethod: CheckAccountSdkBindings = true;
void everyAccountEntryHasItsMethod;
