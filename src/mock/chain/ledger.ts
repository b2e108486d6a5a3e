/**
 * The simulated chain's records: accounts, transactions by id and by block (bounded by a
 * retention limit, oldest forgotten first), the duplicate check's set of known ids, TRC-20
 * Transfer events to the watchers that subscribe, the state file's dump, and the node's JSON
 * views of blocks and transactions (`getblock`, `gettransactionbyid`,
 * `gettransactioninfobyid`). The second layer of `SimulatedChain`, over its clock.
 * @module
 */
import { tronAddressToHex } from '../../utils/address.js';
import { Fifo } from '../shared/fifo.js';
import type { ChainAccount, ChainTransaction, Trc20Transfer } from './types.js';
import { transactionInfoJson } from './views.js';
import { ChainBlocks, type ChainOptions, GENESIS_HEIGHT } from './blocks.js';
import { SyntheticIds, hashHex, labelAddress } from './labels.js';
import { AccountHistory } from './history.js';
import { syntheticBody } from './records.js';

const ZERO_HASH = '0'.repeat(64);

/** The chain's accounts and transactions, their retention and events, and the node's views of them. */
export class ChainLedger extends ChainBlocks {
  readonly accounts = new Map<string, ChainAccount>();
  readonly transactions = new Map<string, ChainTransaction>();
  /** Transaction ids per block, in the order they landed (a queue: retention drops them from the front). */
  readonly #byBlock = new Map<number, Fifo<string>>();
  readonly #listeners = new Set<(transfer: Trc20Transfer) => void>();
  readonly #broadcasted: Set<string>;
  #synthetic = 0;
  readonly #ids: SyntheticIds;
  readonly #maxTransactions: number;
  readonly #hexes = new Map<string, string>();
  /** Transactions oldest first, for retention (iterating the Map from its start walks deleted slots). */
  readonly #age = new Fifo<ChainTransaction>();
  /** Set once a transaction id was recorded over an existing one (then #age may hold a stale record). */
  #replaced = false;
  /** The accounts' records before each change of the blocks not yet solidified (the solidity node's view). */
  readonly #history = new AccountHistory();

  constructor(options: ChainOptions) {
    super(options);
    this.#maxTransactions = options.maxTransactions ?? Infinity;
    this.#broadcasted = options.broadcasted ?? new Set();
    this.#ids = new SyntheticIds(this.seed);
  }

  /** A block as java-tron's `getblock` shows it (undefined beyond the head). */
  block(height = this.height(), detail = true): Record<string, unknown> | undefined {
    if (height < GENESIS_HEIGHT || height > this.height()) return undefined;
    const raw = {
      number: height,
      txTrieRoot: ZERO_HASH,
      witness_address: tronAddressToHex(labelAddress(`witness ${height % 27}`)),
      parentHash: height > GENESIS_HEIGHT ? this.blockId(height - 1) : ZERO_HASH,
      version: 31,
      timestamp: this.blockTime(height),
    };
    const out: Record<string, unknown> = {
      blockID: this.blockId(height),
      block_header: { raw_data: raw, witness_signature: hashHex(`sig ${height}`).repeat(2) + '00' },
    };
    const txs = this.#byBlock.get(height);
    if (detail && txs?.size) out.transactions = txs.toArray().map((id) => this.transactionJson(id));
    return out;
  }

  /** The ids of the transactions block `height` holds, in the order they landed (empty for none, or forgotten). */
  blockTransactionIds(height: number): string[] {
    return this.#byBlock.get(height)?.toArray() ?? [];
  }

  // ---- events ----

  /** Call `listener` for every TRC-20 transfer that lands; returns the unsubscribe function. */
  onTransfer(listener: (transfer: Trc20Transfer) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(transfer: Trc20Transfer): void {
    for (const listener of this.#listeners) {
      try {
        listener(transfer);
      } catch {
        // a watcher's bug must not undo a block
      }
    }
  }

  // ---- transactions ----

  /**
   * Land a transaction in the head block at `at` (default now): kept, known to the duplicate
   * check, its transfer emitted. `entry` is a fresh object its caller built: it becomes the
   * record, its block and time set here (copied with `{ ...entry, block, timestamp }`, a spread
   * that adds keys, it cost 4-5 us per transaction on Node 20, the largest self time in a
   * profile of POST /orders). A caller on the hot path writes `block: 0, timestamp: 0` last in
   * its literal: the keys keep their order, and the object needs no second store for them.
   */
  protected record(
    entry: Omit<ChainTransaction, 'block' | 'timestamp'> & Partial<Pick<ChainTransaction, 'block' | 'timestamp'>>,
    at = this.now(),
  ): ChainTransaction {
    const block = this.height(at);
    const tx = entry as ChainTransaction;
    tx.block = block;
    tx.timestamp = at;
    const size = this.transactions.size;
    this.transactions.set(tx.txid, tx);
    if (this.transactions.size === size) this.#replaced = true; // an id recorded again: see #forgetOldest
    this.#age.push(tx);
    this.#broadcasted.add(tx.txid);
    this.#blockList(block).push(tx.txid);
    if (this.transactions.size > this.#maxTransactions) this.#forgetOldest();
    if (tx.transfer) {
      tx.transfer.block = block;
      tx.transfer.timestamp = tx.timestamp;
      this.#emit(tx.transfer);
    }
    return tx;
  }

  /** True when the id was accepted before, here or elsewhere in the mock (java-tron `Manager.validateDup`). */
  protected seen(txid: string): boolean {
    return this.#broadcasted.has(txid) || this.transactions.has(txid);
  }

  /** A fresh id for a transaction the mock makes itself (a fill's delegation, a faucet transfer, a swap). */
  protected syntheticTxid(): string {
    return this.#ids.id(++this.#synthetic);
  }

  /** The unsigned body of a transaction the mock makes itself at `now`: one `type` contract, valid 60 s. */
  protected syntheticTx(txid: string, type: string, value: Record<string, unknown>, dataHex?: string, now = this.now()): ChainTransaction['tx'] {
    return syntheticBody(txid, type, value, dataHex, now);
  }

  /** Accounts and transactions, as plain data (Maps and bigints: see state/persist.ts). */
  dump() {
    return { genesis_time: this.genesisTime, synthetic: this.#synthetic, accounts: this.accounts, transactions: this.transactions };
  }

  /** Load a {@link dump} (the chain must have been created with its `genesisTime`). */
  load(d: ReturnType<ChainLedger['dump']>): void {
    this.#synthetic = d.synthetic;
    this.accounts.clear();
    this.#history.clear();
    for (const [address, account] of d.accounts) this.accounts.set(address, account);
    this.transactions.clear();
    this.#byBlock.clear();
    this.#age.clear();
    this.#replaced = false;
    for (const [txid, tx] of d.transactions) {
      this.transactions.set(txid, tx);
      this.#age.push(tx);
      this.#broadcasted.add(txid);
      this.#blockList(tx.block).push(txid);
    }
  }

  // ---- the solidified view ----

  /**
   * Call before changing or creating `address`'s record: the solidity node keeps answering with
   * what it was until the block of the change is solidified ({@link accountAt}).
   */
  protected willChange(address: string): void {
    const at = this.now();
    this.#history.willChange(address, this.accounts.get(address), this.height(at), this.solidifiedHeight(at));
  }

  /**
   * `address`'s record as of the end of block `height` (the solidified block for
   * `/walletsolidity/getaccount`); undefined when it had none then. Read only: never change it.
   */
  accountAt(address: string, height: number): ChainAccount | undefined {
    const current = this.accounts.get(address);
    return height >= this.height() ? current : this.#history.at(address, height, current);
  }

  /** tronAddressToHex, cached for the few addresses fills repeat (a base58check decode per fill showed in profiles). */
  protected hexOf(address: string): string {
    let hex = this.#hexes.get(address);
    if (hex === undefined) {
      hex = tronAddressToHex(address);
      if (this.#hexes.size >= 1_024) this.#hexes.clear();
      this.#hexes.set(address, hex);
    }
    return hex;
  }

  /** Retention: drop the oldest transaction (Map order is insertion order, so O(1)). */
  #forgetOldest(): void {
    const oldest = this.#age.shift();
    if (!oldest) return;
    // Forget it unless its id now names another record (recorded again since): that one stays.
    // Ids are unique (the duplicate check, a counter for the mock's own), so the lookup that
    // tells is made only once an id was ever recorded twice; otherwise delete says it all.
    if (this.#replaced && this.transactions.get(oldest.txid) !== oldest) return;
    if (!this.transactions.delete(oldest.txid)) return;
    this.#broadcasted.delete(oldest.txid);
    const list = this.#byBlock.get(oldest.block);
    if (!list) return;
    // Transactions are forgotten in the order they landed, so the oldest is its block's first:
    // O(1). (Removing it with indexOf + splice moved the whole block's list on every eviction,
    // tens of thousands of ids in a soak: a tenth of the mock's CPU.)
    if (list.peek() === oldest.txid) list.shift();
    else {
      const rest = list.toArray();
      const at = rest.indexOf(oldest.txid);
      if (at !== -1) {
        rest.splice(at, 1);
        list.clear();
        for (const id of rest) list.push(id);
      }
    }
    if (list.size === 0) this.#byBlock.delete(oldest.block);
  }

  #blockList(block: number): Fifo<string> {
    let list = this.#byBlock.get(block);
    if (!list) this.#byBlock.set(block, (list = new Fifo()));
    return list;
  }

  // ---- node JSON views ----

  /** A transaction as `gettransactionbyid` shows it (`ret[0].contractRet`: SUCCESS, REVERT, OUT_OF_ENERGY). */
  transactionJson(txid: string): Record<string, unknown> | undefined {
    const tx = this.transactions.get(txid.toLowerCase());
    if (!tx) return undefined;
    return { ...tx.tx, ret: [{ contractRet: tx.receiptResult ?? tx.result }] };
  }

  /**
   * A transaction's receipt as `gettransactioninfobyid` shows it (java-tron
   * `TransactionUtil.buildTransactionInfoInstance`): `contractResult` holds the call's return
   * data, `resMessage` (hex) why it failed, `result: 'FAILED'` only on failure; the receipt
   * splits energy from stake (`energy_usage`), TRX burnt for the rest (`energy_fee`), both
   * (`energy_usage_total`), the dynamic-energy part (`energy_penalty_total`); bandwidth from
   * stake or the free allowance (`net_usage`) or burnt (`net_fee`, `net_usage` then absent).
   */
  transactionInfo(txid: string): Record<string, unknown> | undefined {
    const tx = this.transactions.get(txid.toLowerCase());
    return tx ? transactionInfoJson(tx, this.blockTime(tx.block)) : undefined;
  }
}
