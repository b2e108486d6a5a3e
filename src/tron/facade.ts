/**
 * `client.transfers` and `client.chain`: thin handles in the core that load the transfer
 * engine (`engine.ts`, with the node client) on first use, so `import 'trx-rent'` stays small
 * and loads no signing code.
 * @module
 */
import type { HttpClient } from '../http/client.js';
import type { DeriveAddressesParams, DerivedAddress, DerivedKey } from '../protocol/hd-keys.js';
import type {
  ActivateParams,
  Activation,
  ChainBalance,
  EngineDeps,
  EnsureParams,
  EnsurePlan,
  EnsureResult,
  EstimateTransferParams,
  RentalTarget,
  SendTransferParams,
  SentTransfer,
  TransferEstimate,
} from './engine.js';
import type { TransferStatus, TransferStore } from './identity.js';
import type { Spendable, TronNode, TronNodeOptions } from './node.js';
import type { TransferWatch, WatchTransfersParams } from './watch.js';

/** Shares one node client between `client.transfers` and `client.chain`. */
export class ChainAccess {
  #deps:
    | Promise<
        EngineDeps & {
          engine: typeof import('./engine.js');
          send: typeof import('./send.js');
          identity: typeof import('./identity.js');
          spendable: typeof import('./node.js').spendable;
        }
      >
    | undefined;
  constructor(
    private readonly http: HttpClient,
    private readonly nodeOptions: TronNodeOptions,
    private readonly transferStore?: TransferStore | undefined,
  ) {}

  /** The engine, the node client and the transfer store (in memory unless one was given), loaded once. */
  load() {
    this.#deps ??= Promise.all([import('./engine.js'), import('./node.js'), import('./identity.js'), import('./send.js'), import('./transfer-store.js')]).then(
      ([engine, node, identity, send, stores]) => ({
        engine,
        send,
        identity,
        http: this.http,
        node: new node.TronNode(this.nodeOptions),
        store: this.transferStore ?? stores.memoryTransferStore(),
        spendable: node.spendable,
      }),
    );
    return this.#deps;
  }

  /** The TRON node client (`tronNode` option). */
  async node(): Promise<TronNode> {
    return (await this.load()).node;
  }
}

/** `client.transfers`: estimate and send TRC-20 transfers with the energy rented, not burnt. */
export class Transfers {
  constructor(private readonly chain: ChainAccess) {}

  /**
   * What a TRC-20 transfer needs (energy and bandwidth, simulated on the node) and costs:
   * burning TRX at the chain's fees against renting the energy deficit at the best price now.
   * Spends nothing.
   */
  async estimate(params: EstimateTransferParams, options: { signal?: AbortSignal } = {}): Promise<TransferEstimate> {
    const deps = await this.chain.load();
    return deps.engine.estimateTransfer(deps, params, options);
  }

  /**
   * Send a TRC-20 transfer: estimate, rent the energy deficit (`resources.ensure`), build and
   * sign locally (the key never leaves the process), broadcast through
   * `client.transactions.broadcast`, wait for the receipt (in a block, or with
   * `confirm: 'solidified'` in a solidified block; `confirmed` says which); reports the cost
   * against burning. Refused before anything is rented: a sender the chain does not know
   * (`SENDER_NOT_ACTIVATED`), a transfer whose simulation fails (`SIMULATION_FAILED`, with
   * the contract's revert reason), and signers of a multi-signature account that cannot
   * authorise it (`PERMISSION_DENIED`: the permission and the weight missing).
   *
   * ```ts
   * const sent = await client.transfers.send({ token: 'USDT', to: 'T…', amount: '10', signer: { privateKey } });
   * console.log(sent.tx_id, sent.total_cost_sun, sent.saving_sun);
   * // From a 2-of-3 account: two keys of its active permission 2 sign the one transaction.
   * const secondKey = process.env.SECOND_SIGNER_KEY ?? '';
   * await client.transfers.send({ token: 'USDT', to: 'T…', amount: '10', from: 'T…', signers: [{ privateKey }, { privateKey: secondKey }], permissionId: 2 });
   * ```
   */
  async send(params: SendTransferParams): Promise<SentTransfer> {
    const deps = await this.chain.load();
    return deps.send.sendTransfer(deps, params);
  }

  /**
   * What became of a transaction: `confirmed` or `failed` (its receipt), `expired` (in no block,
   * and the solidified block has passed `expiration`: it can never land), else `pending`. Read
   * only; pass the expiration a send error gave (`error.details.expiration`) to learn 'expired'.
   */
  async status(txId: string, options: { expiration?: number | undefined; signal?: AbortSignal | undefined } = {}): Promise<TransferStatus> {
    const deps = await this.chain.load();
    return deps.identity.transferStatus(deps.node, txId, options.expiration, options.signal ? { signal: options.signal } : {});
  }
}

/** `client.chain`: what an address can spend on chain, and renting exactly the deficit (`ensure`). */
export class Chain {
  constructor(private readonly chain: ChainAccess) {}

  /** The TRON node client (`tronNode` option), loaded on first use: every node call the engine makes. */
  node(): Promise<TronNode> {
    return this.chain.node();
  }

  /** Energy and bandwidth `address` can spend now, read from the node. */
  async read(address: string, options: { signal?: AbortSignal } = {}): Promise<Spendable> {
    const deps = await this.chain.load();
    return deps.spendable(await deps.node.getAccountResource(address, options));
  }

  /**
   * What `address` holds, read from the node (like `cast balance`): its TRX in SUN and, with
   * `token` (`'USDT'`, `'USDC'`, `'USDD'` or a TRC-20 contract address), that token's balance,
   * exact (atomic units) and as a decimal; and whether it is an account on chain.
   *
   * ```ts
   * const { trx, token } = await client.chain.balance('T…', { token: 'USDT' });
   * ```
   */
  async balance(address: string, options: { token?: string | undefined; signal?: AbortSignal | undefined } = {}): Promise<ChainBalance> {
    const deps = await this.chain.load();
    return deps.engine.readBalance(deps.node, address, options);
  }

  /**
   * What `ensure` would buy now and what it would cost (reads and previews; orders nothing).
   * Refuses a target no rental can reach, as `ensure` does (TARGET_NOT_ACTIVATED unless
   * `activate` is given, then the plan's `activation` says what it would send; TARGET_IS_CONTRACT).
   */
  async plan(params: EnsureParams): Promise<EnsurePlan> {
    const deps = await this.chain.load();
    return deps.engine.planEnsure(deps, params);
  }

  /**
   * Deposit addresses of an HD wallet: `count` addresses from index `from` (default 0) on
   * m/44'/195'/account'/0/index (account default 0), from a BIP-39 `mnemonic` (English; optional
   * `passphrase`) or a BIP-32 `seed`, as tronweb's `TronWeb.fromMnemonic` derives them. Local
   * only (no node, no API); the words never leave the process. A bad input is a
   * VALIDATION_ERROR naming the field, never its value.
   *
   * ```ts
   * import { readFile } from 'node:fs/promises';
   * const mnemonic = (await readFile('words.txt', 'utf8')).trim(); // never from argv or a literal
   * const [first] = await client.chain.deriveAddresses({ mnemonic, count: 100 });
   * // { index: 0, path: "m/44'/195'/0'/0/0", address: 'T…' }
   * ```
   */
  async deriveAddresses(params: DeriveAddressesParams): Promise<DerivedAddress[]> {
    const { deriveAddresses } = await import('../protocol/hd-keys.js');
    return deriveAddresses(params);
  }

  /**
   * The same addresses with their keys, each one a `signer` for `client.transfers.send`: its
   * `privateKey` is not enumerable, so logging or serialising it shows index, path and address
   * only. Local only.
   */
  async deriveKeys(params: DeriveAddressesParams): Promise<DerivedKey[]> {
    const { deriveKeys } = await import('../protocol/hd-keys.js');
    return deriveKeys(params);
  }

  /**
   * Watch deposits of a TRC-20 token to many addresses: the token's Transfer logs read from the
   * node block by block (one request a block, whatever the number of addresses), each deposit
   * reported once its block is solidified, or at `confirmations` blocks deep with `confirmed:
   * false` (then a `confirmed` or `dropped` event). With a `journal` file the cursor survives restarts:
   * nothing is missed or reported twice. Requests stay under `maxRequestsPerMinute`.
   *
   * ```ts
   * const addresses = ['TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW']; // your deposit addresses
   * const watch = await client.chain.watchTransfers({ addresses, token: 'USDT', journal: './deposits.journal' });
   * for await (const e of watch) if (e.type === 'deposit') console.log(e.deposit.to, e.deposit.amount);
   * ```
   */
  async watchTransfers(params: WatchTransfersParams): Promise<TransferWatch> {
    const [deps, watch] = await Promise.all([this.chain.load(), import('./watch.js')]);
    return watch.watchTransfers(deps.node, deps.http.clock, params);
  }

  /**
   * Make sure `address` can spend `energy` (and `bandwidth`): buys only the deficit, rounded up
   * to the provider minimum, under `maxCostSun`; waits until the order is FILLED and the
   * delegation shows on the node. Finding enough already, it buys nothing.
   *
   * The target is read on the node first: a contract (TARGET_IS_CONTRACT) or an address that is
   * no account (TARGET_NOT_ACTIVATED: TRON refuses to delegate to it) is refused before anything
   * is ordered; with `activate: { signer }` a never-activated address is activated first (TRX
   * from the signer, who pays the account-creation fee). An order that fails anyway is an
   * ORDER_FAILED error naming its `failure_reason`, `details.outcome: 'refused'` (final: the
   * same idempotency key only finds the failed order again).
   */
  async ensure(params: EnsureParams): Promise<EnsureResult> {
    const deps = await this.chain.load();
    return deps.engine.ensureResources(deps, params);
  }

  /**
   * Whether `address` can receive a rental, read on the node: refuses a contract
   * (TARGET_IS_CONTRACT) and an address that is no account (TARGET_NOT_ACTIVATED, with how to
   * activate it), and returns what it read otherwise. `ensure` checks this itself; call it before
   * `client.orders.create`, which is one call to the account API and knows no node (there, the
   * service decides: such an order fails after it is placed, nothing charged).
   */
  async checkTarget(address: string, options: { signal?: AbortSignal | undefined } = {}): Promise<RentalTarget> {
    const deps = await this.chain.load();
    return deps.engine.checkRentalTarget(deps.node, address, options);
  }

  /**
   * Activate `address` (make it an account on chain) by sending it TRX from `signer`
   * (`amountSun`, default 1 SUN), who also pays java-tron's account-creation fee (read from the
   * chain's parameters); waits until the transfer is in a block. An address that is an account
   * already is left alone (undefined). Refused before anything is sent: a funding wallet that is
   * no account (SENDER_NOT_ACTIVATED) or holds too little (INSUFFICIENT_TRX).
   */
  async activate(params: ActivateParams): Promise<Activation | undefined> {
    const deps = await this.chain.load();
    return deps.engine.activateAccount(deps, params);
  }
}

/** @deprecated The old name of {@link Chain} (`client.resources`, now `client.chain`). */
export const ChainResources = Chain;
/** @deprecated The old name of {@link Chain}. */
export type ChainResources = Chain;
