/**
 * `client.chain.watchTransfers`: deposits of a TRC-20 token to a set of addresses, read from the
 * node block by block (`gettransactioninfobyblocknum`: one request a block, the token's Transfer
 * logs in each receipt), reported once a block is solidified, or at a depth the caller chooses
 * (then marked unconfirmed, and confirmed, or dropped, once the solidity node has ruled on it).
 *
 * What was reported and how far the blocks were read are kept in a journal of the store (`src/store`):
 * each block's deposits are written with the cursor in one append, before anyone is told, so a
 * restart goes on from the next block and never reports a deposit twice (a deposit already in the
 * journal is skipped when its block is read again). Every node request takes a slot of the request
 * budget (`maxRequestsPerMinute`, a sliding minute on the client's clock): a watcher over any number
 * of addresses costs the same few requests a block.
 * @module
 */
import { TrxRentError } from '../errors/index.js';
import type { Journal, JournalRecord, Store } from '../store/types.js';
import { toTronAddress, tronAddressToHex } from '../utils/address.js';
import type { Clock } from '../utils/clock.js';
import { atomicToDecimal } from '../utils/units.js';
import { address, invalid, resolveToken } from './inputs.js';
import type { BlockTransactionInfos } from './node-answers.js';
import type { TronNode } from './node.js';
import type { TokenInfo } from './types.js';

/** keccak256("Transfer(address,address,uint256)"): topic 0 of an ERC-20/TRC-20 Transfer log. */
export const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

/** What `client.chain.watchTransfers` takes. */
export interface WatchTransfersParams {
  /** The deposit addresses (base58) whose incoming transfers are reported. */
  addresses: readonly string[];
  /** `'USDT'`, `'USDC'`, `'USDD'` or a TRC-20 contract address. @default 'USDT' */
  token?: string | undefined;
  /**
   * When a deposit is reported: `'solidified'` (irreversible; about 19 blocks, a minute, behind
   * the head), or once N blocks are built on its block, then with `confirmed: false` until the
   * solidity node has it. @default 'solidified'
   */
  confirmations?: 'solidified' | number | undefined;
  /** The first block to read when the journal has no cursor yet. @default the block the first poll would report */
  fromBlock?: number | undefined;
  /** A journal file (Node) for the cursor and the reported deposits: a restart goes on from it. */
  journal?: string | undefined;
  /** Or a store to keep them in (its journal `name`). @default in memory */
  store?: Store | undefined;
  /** The journal's name in the store. @default `watch-<token>` */
  name?: string | undefined;
  /** Node requests per minute at most (blocks, heads, confirmations together). @default 120 */
  maxRequestsPerMinute?: number | undefined;
  /** Blocks read in one poll at most. @default 100 */
  maxBlocksPerPoll?: number | undefined;
  /** Wait between polls of the iterator when it has caught up, ms. @default 3000 (a block) */
  pollIntervalMs?: number | undefined;
  signal?: AbortSignal | undefined;
}

/** One deposit: a Transfer log of the token to a watched address. */
export interface Deposit {
  tx_id: string;
  /** The log's index in its transaction's receipt (a transaction may carry several transfers). */
  log_index: number;
  token: string;
  from: string;
  to: string;
  /** The amount in the token's smallest unit, exact. */
  amount_atomic: string;
  /** The same as a decimal. */
  amount: string;
  block: number;
  /** The block's time, ms. */
  timestamp: number;
  /** In a solidified block (irreversible). */
  confirmed: boolean;
}

/** What a poll reports. */
export type WatchEvent =
  | { type: 'deposit'; deposit: Deposit }
  /** A deposit reported unconfirmed is now in a solidified block. */
  | { type: 'confirmed'; deposit: Deposit }
  /** A deposit reported unconfirmed is not in the solidified chain: its block was replaced. */
  | { type: 'dropped'; deposit: Deposit };

/** The journal's entries. */
type WatchEntry =
  | { type: 'watch'; token: string; at: number }
  | { type: 'deposit'; deposit: Deposit }
  | { type: 'cursor'; block: number }
  | { type: 'settled'; id: string; state: 'confirmed' | 'dropped' };

/** A deposit's identity: its transaction and log. */
export const depositId = (d: Pick<Deposit, 'tx_id' | 'log_index'>): string => `${d.tx_id}:${d.log_index}`;

/** A sliding minute of node requests on `clock`: {@link take} waits for a free slot. */
class RequestBudget {
  readonly #times: number[] = [];
  used = 0;
  constructor(
    private readonly clock: Clock,
    private readonly perMinute: number,
  ) {}

  async take(signal?: AbortSignal): Promise<void> {
    for (let turn = 0; turn < 1_000; turn++) {
      const now = this.clock.now();
      while (this.#times.length && this.#times[0]! <= now - 60_000) this.#times.shift();
      if (this.#times.length < this.perMinute) {
        this.#times.push(now);
        this.used++;
        return;
      }
      await this.clock.sleep(this.#times[0]! + 60_000 - now, signal);
    }
  }
}

/** The deposits in one block's receipts: successful transactions' Transfer logs of `token` to a watched address. */
export function depositsIn(infos: BlockTransactionInfos, token: TokenInfo, watched: ReadonlySet<string>, confirmed: boolean): Deposit[] {
  const tokenHex = tronAddressToHex(token.address).slice(2).toLowerCase();
  const out: Deposit[] = [];
  for (const info of infos) {
    if (!info.id || info.result === 'FAILED' || info.blockNumber === undefined) continue;
    (info.log ?? []).forEach((log, i) => {
      const topics = log.topics ?? [];
      if (
        (log.address ?? '').toLowerCase().replace(/^41(?=[0-9a-f]{40}$)/, '') !== tokenHex ||
        topics.length < 3 ||
        topics[0]!.toLowerCase() !== TRANSFER_TOPIC
      )
        return;
      const word = (t: string) => (/^[0-9a-fA-F]{64}$/.test(t) ? `41${t.slice(24)}` : undefined);
      const toHex = word(topics[2]!);
      const fromHex = word(topics[1]!);
      if (!toHex || !fromHex || !/^[0-9a-fA-F]{1,64}$/.test(log.data ?? '')) return;
      const to = toTronAddress(toHex);
      if (!watched.has(to)) return;
      const atomic = BigInt(`0x${log.data}`);
      out.push({
        tx_id: info.id!.toLowerCase(),
        log_index: i,
        token: token.address,
        from: toTronAddress(fromHex),
        to,
        amount_atomic: atomic.toString(),
        amount: atomicToDecimal(atomic, token.decimals),
        block: info.blockNumber!,
        timestamp: info.blockTimeStamp ?? 0,
        confirmed,
      });
    });
  }
  return out;
}

/**
 * A watch over the deposits to a set of addresses. {@link poll} reads what is new once; the
 * object is also an async iterator of events that polls until the signal aborts.
 */
export class TransferWatch implements AsyncIterable<WatchEvent> {
  readonly #node: TronNode;
  readonly #clock: Clock;
  readonly #params: WatchTransfersParams;
  readonly #watched: Set<string>;
  readonly #budget: RequestBudget;
  readonly #depth: number | undefined;
  #token: TokenInfo | undefined;
  #journal: Journal | undefined;
  #ownsStore = false;
  #store: Store | undefined;
  #cursor: number | undefined;
  readonly #seen = new Set<string>();
  readonly #reported: Deposit[] = [];
  /** Reported unconfirmed and not settled yet. */
  readonly #pending = new Map<string, Deposit>();

  constructor(node: TronNode, clock: Clock, params: WatchTransfersParams) {
    if (!params || !Array.isArray(params.addresses) || params.addresses.length === 0) throw invalid('addresses', 'give at least one address to watch');
    this.#node = node;
    this.#clock = clock;
    this.#params = params;
    this.#watched = new Set(params.addresses.map((a, i) => address(a, `addresses[${i}]`)));
    const c = params.confirmations ?? 'solidified';
    if (c !== 'solidified' && (!Number.isSafeInteger(c) || c < 1 || c > 1_000))
      throw invalid('confirmations', "must be 'solidified' or a depth from 1 to 1000");
    this.#depth = c === 'solidified' ? undefined : c;
    const rate = params.maxRequestsPerMinute ?? 120;
    if (!Number.isSafeInteger(rate) || rate < 2) throw invalid('maxRequestsPerMinute', 'must be a whole number, at least 2');
    this.#budget = new RequestBudget(clock, rate);
  }

  /** Node requests made so far (what the budget counted). */
  get requests(): number {
    return this.#budget.used;
  }

  /** The last block fully read (undefined before the first poll). */
  get cursor(): number | undefined {
    return this.#cursor;
  }

  async #open(): Promise<Journal> {
    if (this.#journal) return this.#journal;
    const signal = this.#params.signal;
    this.#token = await resolveToken(this.#node, this.#params.token ?? 'USDT', [...this.#watched][0]!, signal);
    let journal: Journal;
    if (this.#params.journal !== undefined) journal = await (await import('../store/file.js')).openJournalFile(this.#params.journal);
    else {
      if (!this.#params.store) {
        this.#store = (await import('../store/memory.js')).memoryStore();
        this.#ownsStore = true;
      } else this.#store = this.#params.store;
      journal = await this.#store.journal(this.#params.name ?? `watch-${this.#token.address}`);
    }
    await journal.hold();
    this.#journal = journal;
    for (const entry of (await journal.read()) as unknown as WatchEntry[]) this.#apply(entry);
    // A first block given: the cursor is written at once, so a restart before the first poll misses nothing either.
    if (this.#cursor === undefined && this.#params.fromBlock !== undefined) {
      await this.#append([
        { type: 'watch', token: this.#token.address, at: this.#clock.now() },
        { type: 'cursor', block: this.#params.fromBlock - 1 },
      ]);
    }
    return journal;
  }

  #apply(entry: WatchEntry): void {
    if (entry.type === 'watch' && this.#token && entry.token !== this.#token.address) {
      throw new TrxRentError({
        code: 'JOURNAL_MISMATCH',
        message: `The watch journal follows ${entry.token}, not ${this.#token.address}; give it another name`,
        details: { field: 'name' },
      });
    }
    if (entry.type === 'cursor') this.#cursor = Math.max(this.#cursor ?? entry.block, entry.block);
    else if (entry.type === 'deposit') {
      this.#seen.add(depositId(entry.deposit));
      this.#reported.push(entry.deposit);
      if (!entry.deposit.confirmed) this.#pending.set(depositId(entry.deposit), entry.deposit);
    } else if (entry.type === 'settled') this.#pending.delete(entry.id);
  }

  async #append(entries: WatchEntry[]): Promise<void> {
    await this.#journal!.append(entries as unknown as JournalRecord[]);
    for (const e of entries) this.#apply(e);
  }

  /** Every deposit reported so far, by this watch or an earlier one on the same journal (oldest first). */
  async reported(): Promise<readonly Deposit[]> {
    await this.#open();
    return this.#reported;
  }

  /**
   * Read what is new once: the blocks from the cursor up to the reporting depth (at most
   * `maxBlocksPerPoll`), then settle the unconfirmed deposits the solidity node has reached.
   * Each event is journaled before it is returned.
   */
  async poll(): Promise<WatchEvent[]> {
    await this.#open();
    const signal = this.#params.signal;
    const token = this.#token!;
    const events: WatchEvent[] = [];
    await this.#budget.take(signal);
    const solid = (await this.#node.getSolidifiedBlock({ signal })).number;
    let target = solid;
    if (this.#depth !== undefined) {
      await this.#budget.take(signal);
      // N blocks built on top of it: the head itself may still be taking transactions on some nodes.
      target = (await this.#node.getNowBlock({ signal })).number - this.#depth;
    }
    if (this.#cursor === undefined) {
      const first = this.#params.fromBlock ?? target;
      await this.#append([
        { type: 'watch', token: token.address, at: this.#clock.now() },
        { type: 'cursor', block: first - 1 },
      ]);
    }
    const last = Math.min(target, this.#cursor! + (this.#params.maxBlocksPerPoll ?? 100));
    for (let block = this.#cursor! + 1; block <= last; block++) {
      await this.#budget.take(signal);
      const confirmed = block <= solid;
      const infos = await this.#node.getTransactionInfoByBlockNum(block, { signal, solidified: this.#depth === undefined });
      const fresh = depositsIn(infos, token, this.#watched, confirmed).filter((d) => !this.#seen.has(depositId(d)));
      // The block's deposits and the cursor in one append: a restart reads the next block, or this one again (its deposits then skipped).
      await this.#append([...fresh.map((deposit): WatchEntry => ({ type: 'deposit', deposit })), { type: 'cursor', block }]);
      for (const deposit of fresh) events.push({ type: 'deposit', deposit });
    }
    for (const [id, deposit] of [...this.#pending]) {
      if (deposit.block > solid) continue;
      await this.#budget.take(signal);
      const info = await this.#node.getTransactionInfo(deposit.tx_id, { signal, solidified: true });
      const state = info && info.blockNumber === deposit.block && info.result !== 'FAILED' ? 'confirmed' : 'dropped';
      await this.#append([{ type: 'settled', id, state }]);
      events.push({ type: state, deposit: { ...deposit, confirmed: state === 'confirmed' } });
    }
    return events;
  }

  /** Poll until `signal` aborts, waiting `pollIntervalMs` whenever a poll found the cursor caught up. */
  async *[Symbol.asyncIterator](): AsyncIterator<WatchEvent> {
    const signal = this.#params.signal;
    try {
      for (let turn = 0; turn < Number.MAX_SAFE_INTEGER && !signal?.aborted; turn++) {
        const before = this.#cursor;
        let events: WatchEvent[];
        try {
          events = await this.poll();
        } catch (error) {
          if (signal?.aborted) return;
          throw error;
        }
        yield* events;
        if (this.#cursor === before) {
          try {
            await this.#clock.sleep(this.#params.pollIntervalMs ?? 3_000, signal);
          } catch {
            return;
          }
        }
      }
    } finally {
      await this.close();
    }
  }

  /** Release the journal (its lock). */
  async close(): Promise<void> {
    const journal = this.#journal;
    this.#journal = undefined;
    await journal?.close();
    if (this.#ownsStore) await this.#store?.close();
  }
}

/** A {@link TransferWatch} over `node` (see the module comment). */
export function watchTransfers(node: TronNode, clock: Clock, params: WatchTransfersParams): TransferWatch {
  return new TransferWatch(node, clock, params);
}
