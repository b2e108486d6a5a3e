/**
 * A small simulated TRON chain: blocks every 3 s of mock time (ids derived from the height, so
 * any recent block can serve as a TAPOS reference), TRX and TRC-20 balances, delegated energy,
 * signed transactions that really verify, and TRC-20 Transfer events that watchers (watch,
 * receive, invoices) subscribe to. It backs the simulated node (/wallet/*), the paid endpoints
 * and the deposit flow, so everything runs offline.
 *
 * The rules are java-tron's (tronprotocol/java-tron), each cited where it is applied:
 * `Wallet.broadcastTransaction` (refusal codes and texts), `Manager.processTransaction`
 * (signature, TAPOS, expiration, duplicates, in that order), `BandwidthProcessor` (bandwidth,
 * accounts that do not exist), `TransferActuator` (account creation), `VMActuator`
 * (`getAccountEnergyLimitWithFixRatio`: the energy cap), `ReceiptCapsule.payEnergyBill` (stake
 * first, then TRX burnt). src/mock/README.md lists them with what the mock leaves out.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils';
import {
  type DecodedTransaction,
  type SignedTransactionLike,
  decodeRawDataHex,
  encodeRawDataJson,
} from '../../protocol/tron-transaction.js';
import { isTronAddress, toTronAddress, tronAddressToHex } from '../../utils/address.js';
import { Fifo } from '../state/fifo.js';
import type { ChainAccount, ChainToken, ChainTransaction, Trc20Transfer } from './types.js';
import { CHAIN_PARAMETERS, bandwidthBytes, bandwidthPlan, payBandwidth, runEnergy } from './fees.js';
import { decodeTransactionHex, transactionInfoJson } from './views.js';
import { recoverSigner } from './signatures.js';
import { type CallOutcome, DEFAULT_ENERGY_FACTOR, TRC20_BASE_ENERGY, type TokenView, runTokenCall, withPenalty } from './contracts.js';
import { encodeTransferCall } from '../../protocol/abi.js';

export const BLOCK_INTERVAL_MS = 3_000;
const GENESIS_HEIGHT = 70_000_000;

export { CHAIN_PARAMETERS } from './fees.js';
export type { ChainAccount, ChainToken, ChainTransaction, Trc20Transfer } from './types.js';

/**
 * Energy a TRC-20 transfer uses at the default energy factor, penalty included: to an address
 * that already holds the token, and to an empty one (see contracts.ts).
 */
export const TRC20_ENERGY = {
  existing: withPenalty(TRC20_BASE_ENERGY.existing, DEFAULT_ENERGY_FACTOR).energy,
  empty: withPenalty(TRC20_BASE_ENERGY.empty, DEFAULT_ENERGY_FACTOR).energy,
} as const;

/**
 * How many blocks the solidified block trails the head: 19 = 27 super representatives x 70 %
 * confirming, rounded up (java-tron `DynamicPropertiesStore.getSolidifiedBlockNum` from the
 * witnesses' latest blocks at `SOLIDIFIED_THRESHOLD` 70 %). `/walletsolidity/*` serves this view.
 */
export const SOLIDIFIED_LAG_BLOCKS = 19;

/** TAPOS: a reference block must be one of the last 65,536 (java-tron `RecentBlockStore`, keyed by 2 bytes of the number). */
export const TAPOS_WINDOW_BLOCKS = 65_536;

/** java-tron `Constant.MAXIMUM_TIME_UNTIL_EXPIRATION`: a transaction expires at most 24 h after the head block. */
export const MAX_EXPIRATION_MS = 24 * 3_600_000;

/**
 * Addresses that are accounts on mainnet and that the docs, the demo and the README use as rental
 * targets (TRON's developer docs' example address): accounts on the simulated chain from genesis.
 */
export const GENESIS_ACCOUNTS: readonly string[] = ['TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW'];

/** TRC-20 contracts the simulated chain runs (mainnet addresses). */
export const CHAIN_TOKENS: readonly ChainToken[] = [
  { symbol: 'USDT', name: 'Tether USD', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', decimals: 6 },
  { symbol: 'USDC', name: 'USD Coin', address: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8', decimals: 6 },
  { symbol: 'USDD', name: 'Decentralized USD', address: 'TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn', decimals: 18 },
  { symbol: 'USDD', name: 'Decentralized USD', address: 'TXDk8mbtRbXeYuMNS83CfKPaYYT8XWv9Hz', decimals: 18 },
];

/**
 * A broadcast's outcome. Refusal codes and texts are java-tron's (`Wallet.broadcastTransaction`:
 * `SIGERROR` "Validate signature error: …", `DUP_TRANSACTION_ERROR` "Dup transaction.",
 * `TAPOS_ERROR` "Tapos check error.", `TRANSACTION_EXPIRATION_ERROR` "Transaction expired",
 * `BANDWITH_ERROR` "Account resource insufficient error.", `CONTRACT_VALIDATE_ERROR`
 * "Contract validate error : …").
 */
export type BroadcastResult =
  | { result: true; txid: string; code: 'SUCCESS'; transaction: ChainTransaction }
  | { result: false; txid?: string; code: string; message: string };

/** What {@link SimulatedChain.broadcast} may relax for the mock's own callers. */
export interface BroadcastOptions {
  /** Top the owner up (and activate it) so the transaction can execute: test wallets have no history. `'trx'`: TRX only, no tokens minted. */
  fundShortfall?: boolean | 'trx';
  /**
   * Broadcast as the node's `broadcasttransaction` does: the all-zero offline reference block of
   * `buildTrxTransfer` is a TAPOS error. The mock's own callers (deposits) may still use it.
   */
  strictTapos?: boolean;
}

export interface ChainOptions {
  now: () => number;
  seed?: number;
  /** Transaction ids already accepted elsewhere in the mock (shared duplicate check). */
  broadcasted?: Set<string>;
  /** Most transactions kept; past it the oldest are forgotten (their block lists too). @default Infinity */
  maxTransactions?: number;
  /** Time of the genesis block (a restored chain keeps its own). @default 1 000 blocks before now */
  genesisTime?: number;
}

const ZERO_HASH = '0'.repeat(64);
const CONTRACT_VALIDATE = 'Contract validate error : ';

const ENCODER = new TextEncoder();
const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * Lower-case hex of the text's SHA-256, as one flat string: joined, not grown with `+=`. A
 * `+=` chain leaves a tree of small string pieces behind the id, and every transaction id is
 * kept for the chain's retention: that tree was 0.9 KB of the 5.6 KB each order left in the
 * old generation (allocation profile of POST /orders).
 */
function hashHex(text: string): string {
  const digest = sha256(ENCODER.encode(text));
  const parts = new Array<string>(digest.length);
  for (let i = 0; i < digest.length; i++) parts[i] = BYTE_HEX[digest[i]!]!;
  return parts.join('');
}

/** A deterministic TRON address for a label (mock treasuries, invoice addresses, …). */
export function labelAddress(label: string): string {
  return toTronAddress(`41${hashHex(`trx-rent mock address ${label}`).slice(0, 40)}`);
}

/**
 * A simulated TRON chain: accounts (TRX, TRC-20 balances, energy), blocks every 3 s of mock time,
 * transactions with receipts. Deposits, order fills, paid sends and the node routes all land here.
 */
export class SimulatedChain {
  /** The owning state's clock. */
  readonly now: () => number;
  readonly seed: number;
  readonly genesisTime: number;
  readonly accounts = new Map<string, ChainAccount>();
  readonly transactions = new Map<string, ChainTransaction>();
  /** Transaction ids per block, in the order they landed (a queue: retention drops them from the front). */
  readonly #byBlock = new Map<number, Fifo<string>>();
  readonly #listeners = new Set<(transfer: Trc20Transfer) => void>();
  readonly #broadcasted: Set<string>;
  /** Source of mock transfers and funding (unlimited balance). */
  readonly faucet = labelAddress('faucet');
  #synthetic = 0;
  readonly #maxTransactions: number;
  /** Per token contract: dynamic energy's `energy_factor` (java-tron `ContractStateCapsule`). */
  readonly #energyFactors = new Map<string, number>();
  /** Paused token contracts, and `token address` pairs of blacklisted senders: their transfers revert. */
  readonly #paused = new Set<string>();
  readonly #blacklisted = new Set<string>();

  constructor(options: ChainOptions) {
    this.now = options.now;
    this.#maxTransactions = options.maxTransactions ?? Infinity;
    this.seed = options.seed ?? 1;
    this.genesisTime = options.genesisTime ?? Math.floor(options.now() / BLOCK_INTERVAL_MS) * BLOCK_INTERVAL_MS - 1_000 * BLOCK_INTERVAL_MS;
    this.#broadcasted = options.broadcasted ?? new Set();
  }

  // ---- tokens ----

  /** A supported stablecoin by symbol or contract address. */
  token(ref: string): ChainToken | undefined {
    if (isTronAddress(ref)) return CHAIN_TOKENS.find((t) => t.address === ref);
    return CHAIN_TOKENS.find((t) => t.symbol === ref.toUpperCase());
  }

  // ---- blocks ----

  /** The block height at a time (default now). */
  height(at = this.now()): number {
    return GENESIS_HEIGHT + Math.max(0, Math.floor((at - this.genesisTime) / BLOCK_INTERVAL_MS));
  }

  /** When block `height` was produced (ms since the epoch). */
  blockTime(height: number): number {
    return this.genesisTime + (height - GENESIS_HEIGHT) * BLOCK_INTERVAL_MS;
  }

  /** Block id: 8 bytes of height then 24 bytes of hash, as on TRON. */
  blockId(height: number): string {
    return height.toString(16).padStart(16, '0') + hashHex(`trx-rent mock block ${this.seed} ${height}`).slice(16);
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

  /** True when (ref_block_bytes, ref_block_hash) name one of the last 65 536 blocks (java-tron `Manager.validateTapos`). */
  taposMatches(refBlockBytes: string, refBlockHash: string): boolean {
    const low = Number.parseInt(refBlockBytes, 16);
    if (!Number.isFinite(low)) return false;
    const head = this.height();
    let candidate = head - ((head - low) & 0xffff);
    for (; candidate >= GENESIS_HEIGHT && candidate > head - TAPOS_WINDOW_BLOCKS; candidate -= TAPOS_WINDOW_BLOCKS) {
      if (this.blockId(candidate).slice(16, 32) === refBlockHash.toLowerCase()) return true;
    }
    return false;
  }

  // ---- accounts ----

  /**
   * An address's record (created, and activated, when `create`: only TRX or an AccountCreate
   * does that on TRON). A record that holds only TRC-20 balances is `inactive`.
   */
  account(address: string, create = false): ChainAccount | undefined {
    let account = this.accounts.get(address);
    if (!account && create) {
      account = { address, trx: 0n, tokens: new Map(), energyLimit: 0, energyUsed: 0, netLimit: 0, netUsed: 0, freeNetUsed: 0, createdAt: this.now() };
      this.accounts.set(address, account);
    } else if (account?.inactive && create) {
      delete account.inactive;
      account.createdAt = this.now();
    }
    return account;
  }

  /** The record holding an address's token balances, without making it an account (a TRC-20 transfer creates none). */
  #holder(address: string): ChainAccount {
    let account = this.accounts.get(address);
    if (!account) {
      account = { address, trx: 0n, tokens: new Map(), energyLimit: 0, energyUsed: 0, netLimit: 0, netUsed: 0, freeNetUsed: 0, createdAt: this.now(), inactive: true };
      this.accounts.set(address, account);
    }
    return account;
  }

  /** True when the address is an account on chain (the faucet, the token contracts and {@link GENESIS_ACCOUNTS} always are). */
  isActivated(address: string): boolean {
    if (address === this.faucet || this.token(address) || GENESIS_ACCOUNTS.includes(address)) return true;
    const account = this.accounts.get(address);
    return account !== undefined && !account.inactive;
  }

  /** Make an address an account (as an AccountCreateContract would), with no TRX. */
  activate(address: string): void {
    this.account(address, true);
  }

  // ---- token contract state ----

  /** A token contract's dynamic-energy factor (`getcontractinfo` `contract_state.energy_factor`). */
  energyFactor(contract: string): number {
    return this.#energyFactors.get(contract) ?? DEFAULT_ENERGY_FACTOR;
  }

  /** Set a token contract's energy factor (0 = no penalty; mainnet's maximum is 34 000). */
  setEnergyFactor(contract: string, factor: number): void {
    if (!this.token(contract)) throw new RangeError(`${contract} is not a token contract of the simulated chain`);
    if (!Number.isSafeInteger(factor) || factor < 0) throw new RangeError('energy factor must be a non-negative integer');
    this.#energyFactors.set(contract, factor);
  }

  /** Pause or unpause a token: a paused token's transfers revert. */
  setPaused(contract: string, paused: boolean): void {
    if (paused) this.#paused.add(contract);
    else this.#paused.delete(contract);
  }

  /** Blacklist a sender on a token (USDT's `addBlackList`): its transfers revert. */
  setBlacklisted(contract: string, address: string, blacklisted: boolean): void {
    if (blacklisted) this.#blacklisted.add(`${contract} ${address}`);
    else this.#blacklisted.delete(`${contract} ${address}`);
  }

  /** What a token call reads, for contracts.ts. */
  tokenView(token: ChainToken): TokenView {
    return {
      decimals: token.decimals,
      symbol: token.symbol,
      name: token.name,
      balanceOf: (address) => this.tokenBalance(address, token.address),
      totalSupply: () => {
        let total = 0n;
        for (const a of this.accounts.values()) total += a.tokens.get(token.address) ?? 0n;
        return total;
      },
      energyFactor: this.energyFactor(token.address),
      paused: this.#paused.has(token.address),
      blacklisted: (address) => this.#blacklisted.has(`${token.address} ${address}`),
    };
  }

  /** Run a token call from `owner` without changing anything (a constant call). */
  callToken(token: ChainToken, owner: string, data: string): CallOutcome {
    return runTokenCall(this.tokenView(token), owner, data);
  }

  /** The solidified block: {@link SOLIDIFIED_LAG_BLOCKS} behind the head. */
  solidifiedHeight(at = this.now()): number {
    return Math.max(GENESIS_HEIGHT, this.height(at) - SOLIDIFIED_LAG_BLOCKS);
  }

  /** TRX held, in SUN. */
  trxBalance(address: string): bigint {
    return address === this.faucet ? 10n ** 30n : (this.accounts.get(address)?.trx ?? 0n);
  }

  /** A TRC-20 balance in atomic units. */
  tokenBalance(address: string, token: string): bigint {
    if (address === this.faucet) return 10n ** 40n;
    return this.accounts.get(address)?.tokens.get(token) ?? 0n;
  }

  /** Energy the address can spend now (delegated minus used). */
  availableEnergy(address: string): number {
    const a = this.accounts.get(address);
    return a ? Math.max(0, a.energyLimit - a.energyUsed) : 0;
  }

  /** Delegate (rent) energy to an address (the x402 side's rentals; its payers are funded test wallets). */
  delegateEnergy(address: string, amount: number): void {
    this.#holder(address).energyLimit += amount;
  }

  /** Energy a TRC-20 transfer of `token` to `to` uses, dynamic energy included. */
  trc20TransferEnergy(token: string, to: string): number {
    return withPenalty(this.tokenBalance(to, token) > 0n ? TRC20_BASE_ENERGY.existing : TRC20_BASE_ENERGY.empty, this.energyFactor(token)).energy;
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

  #moveToken(token: ChainToken, from: string, to: string, amount: bigint, mint: boolean): boolean {
    if (from !== this.faucet) {
      const source = this.#holder(from);
      const have = source.tokens.get(token.address) ?? 0n;
      if (have < amount) {
        if (!mint) return false;
        source.tokens.set(token.address, 0n);
      } else source.tokens.set(token.address, have - amount);
    }
    // The balance lives in the contract's storage: the recipient does not become an account.
    const target = this.#holder(to);
    target.tokens.set(token.address, (target.tokens.get(token.address) ?? 0n) + amount);
    return true;
  }

  #record(entry: Omit<ChainTransaction, 'block' | 'timestamp'>): ChainTransaction {
    const block = this.height();
    const tx: ChainTransaction = { ...entry, block, timestamp: this.now() };
    this.transactions.set(tx.txid, tx);
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

  /** Accounts and transactions, as plain data (Maps and bigints: see state/persist.ts). */
  dump() {
    return { genesis_time: this.genesisTime, synthetic: this.#synthetic, accounts: this.accounts, transactions: this.transactions };
  }

  /** Load a {@link dump} (the chain must have been created with its `genesisTime`). */
  load(d: ReturnType<SimulatedChain['dump']>): void {
    this.#synthetic = d.synthetic;
    this.accounts.clear();
    for (const [address, account] of d.accounts) this.accounts.set(address, account);
    this.transactions.clear();
    this.#byBlock.clear();
    this.#age.clear();
    for (const [txid, tx] of d.transactions) {
      this.transactions.set(txid, tx);
      this.#age.push(tx);
      this.#broadcasted.add(txid);
      this.#blockList(tx.block).push(txid);
    }
  }

  readonly #hexes = new Map<string, string>();
  /** Transactions oldest first, for retention (iterating the Map from its start walks deleted slots). */
  readonly #age = new Fifo<ChainTransaction>();

  /** tronAddressToHex, cached for the few addresses fills repeat (a base58check decode per fill showed in profiles). */
  #hexOf(address: string): string {
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
    if (!oldest || this.transactions.get(oldest.txid) !== oldest) return;
    this.transactions.delete(oldest.txid);
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

  /**
   * Validate and execute a signed transaction, as java-tron's `broadcasttransaction` does. The
   * transaction is what its `raw_data` JSON encodes (java-tron's `Util.packTransaction` rebuilds
   * it from the JSON and ignores `raw_data_hex` and `txID`); `raw_data_hex` is read only when
   * the JSON is absent or of a contract this chain does not encode. Checks in java-tron's order
   * (`Wallet.broadcastTransaction`, then `Manager.pushTransaction`/`processTransaction`):
   * expiration against the next slot, signature, TAPOS, expiration window, duplicate, then
   * bandwidth and the contract's own validation. A refusal changes nothing.
   */
  broadcast(signed: SignedTransactionLike & Record<string, unknown>, options: BroadcastOptions = {}): BroadcastResult {
    let rawHex: string | undefined;
    if (signed.raw_data !== undefined) {
      try {
        rawHex = encodeRawDataJson(signed.raw_data);
      } catch {
        rawHex = undefined; // a contract type the encoder does not know: fall back to the bytes
      }
    }
    if (rawHex === undefined && typeof signed.raw_data_hex === 'string' && /^([0-9a-fA-F]{2})+$/.test(signed.raw_data_hex)) rawHex = signed.raw_data_hex.toLowerCase();
    if (rawHex === undefined) return { result: false, code: 'SIGERROR', message: 'Validate signature error: miss sig or contract' };
    const txid = bytesToHex(sha256(hexToBytes(rawHex)));
    let d: DecodedTransaction;
    try {
      d = decodeRawDataHex(rawHex);
    } catch (error) {
      return { result: false, txid, code: 'OTHER_ERROR', message: `Error: ${(error as Error).message}` };
    }
    // Wallet.broadcastTransaction: TransactionCapsule.checkExpiration(next block slot time).
    const head = this.height();
    const headTime = this.blockTime(head);
    const expired = { result: false as const, txid, code: 'TRANSACTION_EXPIRATION_ERROR', message: 'Transaction expired' };
    if (d.expiration < headTime + BLOCK_INTERVAL_MS) return expired;
    // TransactionCapsule.validateSignature: the signature over sha256(raw_data) must come from the owner.
    const signature = Array.isArray(signed.signature) ? signed.signature[0] : undefined;
    if (typeof signature !== 'string' || !/^[0-9a-fA-F]+$/.test(signature)) return { result: false, txid, code: 'SIGERROR', message: 'Validate signature error: miss sig or contract' };
    if (signature.length < 130) return { result: false, txid, code: 'SIGERROR', message: `Validate signature error: Signature size is ${signature.length / 2}` };
    const signer = recoverSigner(txid, signature);
    if (signer !== d.ownerAddress) {
      return { result: false, txid, code: 'SIGERROR', message: `Validate signature error: ${signature.toLowerCase()} is signed by ${signer ?? 'nobody'} but it is not contained of permission.` };
    }
    // Manager.validateTapos: the reference must be one of the last 65,536 blocks.
    const offline = /^0+$/.test(d.refBlockHash) && /^0+$/.test(d.refBlockBytes);
    if (!(offline && !options.strictTapos) && !this.taposMatches(d.refBlockBytes, d.refBlockHash)) {
      return { result: false, txid, code: 'TAPOS_ERROR', message: 'Tapos check error.' };
    }
    // Manager.validateCommon: expiration after the head block, and at most 24 h after it.
    if (d.expiration <= headTime || d.expiration > headTime + MAX_EXPIRATION_MS) return expired;
    // Manager.validateDup.
    if (this.#broadcasted.has(txid) || this.transactions.has(txid)) return { result: false, txid, code: 'DUP_TRANSACTION_ERROR', message: 'Dup transaction.' };
    if (options.fundShortfall) this.#fundShortfall(d, rawHex, options.fundShortfall === 'trx');
    return this.#execute({ ...signed, txID: txid, raw_data_hex: rawHex }, d, rawHex);
  }

  /** Top up (and activate) the owner so the transaction can execute: test wallets have no on-chain history here. */
  #fundShortfall(d: DecodedTransaction, rawHex: string, trxOnly: boolean): void {
    const owner = d.ownerAddress;
    this.activate(owner);
    let needSun = BigInt(bandwidthBytes(rawHex, 1) * CHAIN_PARAMETERS.getTransactionFee);
    if (d.contractType === 'TransferContract' && d.amountSun !== undefined) {
      needSun += d.amountSun;
      if (d.toAddress && !this.isActivated(d.toAddress)) needSun += BigInt(CHAIN_PARAMETERS.getCreateNewAccountFeeInSystemContract + CHAIN_PARAMETERS.getCreateAccountFee);
    } else if (d.trc20Transfer && d.contractAddress) {
      const token = this.token(d.contractAddress);
      if (!token) return;
      const short = d.trc20Transfer.amount - this.tokenBalance(owner, token.address);
      if (short > 0n && !trxOnly) this.syntheticTransfer({ token, to: owner, amount: short, label: 'top-up' });
      const energy = Math.max(0, this.trc20TransferEnergy(token.address, d.trc20Transfer.to) - this.availableEnergy(owner));
      needSun += BigInt(Math.min(energy * CHAIN_PARAMETERS.getEnergyFee, d.feeLimit ?? 0));
    }
    const short = needSun - this.trxBalance(owner);
    if (short > 0n) this.fundTrx(owner, short);
  }

  #execute(signed: Record<string, unknown>, d: DecodedTransaction, rawHex: string): BroadcastResult {
    const txid = d.txID.toLowerCase();
    const owner = d.ownerAddress;
    const signatures = (signed.signature as string[] | undefined)?.length ?? 1;
    const netUsed = bandwidthBytes(rawHex, signatures);
    const json: Record<string, unknown> = { ...signed, txID: txid };
    delete json.visible;
    const refuse = (code: string, message: string): BroadcastResult => ({ result: false, txid, code, message });
    // BandwidthProcessor.consume: the owner must exist ("account [...] does not exist").
    const from = this.accounts.get(owner);
    if (!from || from.inactive) return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}account [${owner}] does not exist`);
    if (d.contractType === 'TransferContract' && d.toAddress && d.amountSun !== undefined) {
      const createsAccount = !this.isActivated(d.toAddress);
      const bandwidth = bandwidthPlan(from, netUsed, createsAccount);
      if (!bandwidth) return refuse('BANDWITH_ERROR', 'Account resource insufficient error.');
      // TransferActuator.validate: amount + the 1 TRX account-creation fee, after the bandwidth burn.
      const createFee = createsAccount ? CHAIN_PARAMETERS.getCreateNewAccountFeeInSystemContract : 0;
      if (d.amountSun <= 0n) return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}Amount must be greater than 0.`);
      if (d.toAddress === owner) return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}Cannot transfer TRX to yourself.`);
      if (from.trx - BigInt(bandwidth.burnt) < d.amountSun + BigInt(createFee)) {
        return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}Validate TransferContract error, balance is not sufficient.`);
      }
      payBandwidth(from, netUsed, bandwidth);
      from.trx -= d.amountSun + BigInt(createFee);
      this.account(d.toAddress, true)!.trx += d.amountSun;
      const netFeeSun = bandwidth.burnt;
      const transaction = this.#record({
        txid,
        tx: json,
        result: 'SUCCESS',
        owner,
        contractType: d.contractType,
        energyUsed: 0,
        netUsed,
        feeSun: netFeeSun + createFee,
        ...(netFeeSun ? { netFeeSun } : {}),
        ...(createFee ? { contractFeeSun: createFee } : {}),
        trxTransfer: { from: owner, to: d.toAddress, amountSun: d.amountSun, ...(d.dataHex ? { memoHex: d.dataHex } : {}) },
      });
      return { result: true, txid, code: 'SUCCESS', transaction };
    }
    if (d.contractType === 'TriggerSmartContract' && d.contractAddress) {
      const token = this.token(d.contractAddress);
      // VMActuator.validate: the called address must hold a contract; fee_limit within the chain's maximum.
      if (!token) return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}No contract or not a valid smart contract`);
      const feeLimit = d.feeLimit ?? 0;
      if (feeLimit < 0 || feeLimit > CHAIN_PARAMETERS.getMaxFeeLimit) {
        return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}feeLimit must be >= 0 and <= ${CHAIN_PARAMETERS.getMaxFeeLimit}`);
      }
      const bandwidth = bandwidthPlan(from, netUsed, false);
      if (!bandwidth) return refuse('BANDWITH_ERROR', 'Account resource insufficient error.');
      payBandwidth(from, netUsed, bandwidth);
      const outcome = this.callToken(token, owner, d.callData ?? '');
      const run = runEnergy(from, outcome, feeLimit);
      const moved = run.result === 'SUCCESS' && outcome.status === 'SUCCESS' && outcome.transfer
        ? this.#moveToken(token, owner, outcome.transfer.to, outcome.transfer.amount, false)
        : run.result === 'SUCCESS';
      const transfer: Trc20Transfer | undefined = outcome.status === 'SUCCESS' && outcome.transfer && run.result === 'SUCCESS'
        ? { txid, token, from: owner, to: outcome.transfer.to, amount: outcome.transfer.amount, block: 0, timestamp: 0 }
        : undefined;
      const netFeeSun = bandwidth.burnt;
      const transaction = this.#record({
        txid,
        tx: json,
        result: moved ? 'SUCCESS' : 'REVERT',
        owner,
        contractType: d.contractType,
        energyUsed: run.used,
        netUsed,
        feeSun: run.burnt + netFeeSun,
        energyFromStake: run.fromStake,
        ...(run.penalty ? { energyPenalty: run.penalty } : {}),
        ...(run.burnt ? { energyFeeSun: run.burnt } : {}),
        ...(netFeeSun ? { netFeeSun } : {}),
        ...(run.result === 'OUT_OF_ENERGY' ? { receiptResult: 'OUT_OF_ENERGY' } : {}),
        contractResult: run.result === 'OUT_OF_ENERGY' ? '' : outcome.result,
        ...(run.message ? { resMessage: run.message } : {}),
        ...(transfer ? { transfer } : {}),
      });
      return { result: true, txid, code: 'SUCCESS', transaction };
    }
    if (d.contractType === 'Contract0') {
      // AccountCreateContract (type 0): owner_address = 1, account_address = 2, both 21 bytes.
      const ownerHex = tronAddressToHex(owner).toLowerCase();
      const at = rawHex.indexOf(`0a15${ownerHex}1215`);
      const accountHex = at === -1 ? undefined : rawHex.slice(at + 50, at + 92);
      if (!accountHex || !/^41[0-9a-f]{40}$/.test(accountHex)) return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}Invalid account address`);
      const created = toTronAddress(accountHex);
      // CreateAccountActuator.validate: the account must not exist; the owner pays 1 TRX
      // (getCreateNewAccountFeeInSystemContract); bandwidth as for a new account (BandwidthProcessor).
      if (this.isActivated(created)) return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}Account has existed`);
      const bandwidth = bandwidthPlan(from, netUsed, true);
      if (!bandwidth) return refuse('BANDWITH_ERROR', 'Account resource insufficient error.');
      const fee = CHAIN_PARAMETERS.getCreateNewAccountFeeInSystemContract;
      if (from.trx - BigInt(bandwidth.burnt) < BigInt(fee)) return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}Validate CreateAccountActuator error, insufficient fee.`);
      payBandwidth(from, netUsed, bandwidth);
      from.trx -= BigInt(fee);
      this.activate(created);
      const transaction = this.#record({
        txid,
        tx: json,
        result: 'SUCCESS',
        owner,
        contractType: 'AccountCreateContract',
        energyUsed: 0,
        netUsed,
        feeSun: bandwidth.burnt + fee,
        ...(bandwidth.burnt ? { netFeeSun: bandwidth.burnt } : {}),
        contractFeeSun: fee,
      });
      return { result: true, txid, code: 'SUCCESS', transaction };
    }
    return refuse('CONTRACT_VALIDATE_ERROR', `${CONTRACT_VALIDATE}contract ${d.contractType} is not simulated`);
  }

  /**
   * A TRC-20 transfer the mock makes itself (no signature): funding from the faucet, the
   * `/__mock/` transfer helper, x402 settlements. With `mint`, a payer short of funds is not an
   * error (the mock does not require x402 payers to hold tokens unless configured to).
   */
  syntheticTransfer(input: { token: ChainToken; from?: string; to: string; amount: bigint; mint?: boolean; label?: string }): ChainTransaction {
    const from = input.from ?? this.faucet;
    const txid = hashHex(`trx-rent mock tx ${this.seed} ${++this.#synthetic} ${input.label ?? ''} ${this.now()}`);
    const moved = this.#moveToken(input.token, from, input.to, input.amount, input.mint ?? false);
    const transfer: Trc20Transfer = { txid, token: input.token, from, to: input.to, amount: input.amount, block: 0, timestamp: 0 };
    const callData = encodeTransferCall(input.to, input.amount);
    return this.#record({
      txid,
      tx: {
        txID: txid,
        raw_data: {
          contract: [
            {
              parameter: {
                value: { owner_address: tronAddressToHex(from), contract_address: tronAddressToHex(input.token.address), data: callData },
                type_url: 'type.googleapis.com/protocol.TriggerSmartContract',
              },
              type: 'TriggerSmartContract',
            },
          ],
          timestamp: this.now(),
          expiration: this.now() + 60_000,
        },
        signature: [],
      },
      result: moved ? 'SUCCESS' : 'REVERT',
      owner: from,
      contractType: 'TriggerSmartContract',
      energyUsed: this.trc20TransferEnergy(input.token.address, input.to),
      netUsed: 345,
      feeSun: 0,
      ...(moved ? { transfer } : {}),
    });
  }

  /**
   * A provider delegates (rents out) energy or bandwidth to `to`: a DelegateResourceContract on
   * the chain. A failed delegation is recorded as reverted and changes nothing. The resource shows
   * on `getaccountresource` until {@link SimulatedChain.undelegateResource} takes it back.
   * Delegating to an address that is no account fails (java-tron `DelegateResourceActuator.validate`:
   * "Account [...] does not exist"); the order engine checks first, so this is a last guard.
   */
  delegateResource(input: { from: string; to: string; resource: 'ENERGY' | 'BANDWIDTH'; amount: number; lockSec: number; success: boolean; label: string }): ChainTransaction {
    const txid = hashHex(`trx-rent mock delegation ${this.seed} ${++this.#synthetic} ${input.label} ${this.now()}`);
    if (input.success && !this.isActivated(input.to)) input = { ...input, success: false };
    if (input.success) {
      const target = this.#holder(input.to); // an account: isActivated said so (a contract has no record of its own)
      if (input.resource === 'ENERGY') target.energyLimit += input.amount;
      else target.netLimit += input.amount;
    }
    return this.#record({
      txid,
      tx: {
        txID: txid,
        raw_data: {
          contract: [
            {
              parameter: {
                value: {
                  owner_address: this.#hexOf(input.from),
                  receiver_address: this.#hexOf(input.to),
                  resource: input.resource,
                  // The simulated chain has no staking: the delegated amount stands in for the staked SUN.
                  balance: input.amount,
                  lock: true,
                  lock_period: Math.ceil(input.lockSec / 3),
                },
                type_url: 'type.googleapis.com/protocol.DelegateResourceContract',
              },
              type: 'DelegateResourceContract',
            },
          ],
          timestamp: this.now(),
          expiration: this.now() + 60_000,
        },
        signature: [],
      },
      result: input.success ? 'SUCCESS' : 'REVERT',
      owner: input.from,
      contractType: 'DelegateResourceContract',
      energyUsed: 0,
      netUsed: 280,
      feeSun: 0,
    });
  }

  /** The rental ended: take back what {@link SimulatedChain.delegateResource} gave. */
  undelegateResource(to: string, resource: 'ENERGY' | 'BANDWIDTH', amount: number): void {
    const target = this.accounts.get(to);
    if (!target) return;
    // Its share of the usage goes with it (java-tron's UnDelegateResource moves usage in
    // proportion to the resource taken back), so one rental ending leaves the others' energy.
    if (resource === 'ENERGY') {
      const before = target.energyLimit;
      target.energyLimit = Math.max(0, before - amount);
      const share = before > 0 ? Math.ceil((target.energyUsed * Math.min(amount, before)) / before) : target.energyUsed;
      target.energyUsed = Math.min(Math.max(0, target.energyUsed - share), target.energyLimit);
    } else {
      target.netLimit = Math.max(0, target.netLimit - amount);
      target.netUsed = Math.min(target.netUsed, target.netLimit);
    }
  }

  /**
   * A TRX transfer the mock makes itself (the platform paying a withdrawal, an on-chain deposit
   * simulated by memo). The sender is funded for any shortfall first: the mock's treasury and its
   * test wallets have no on-chain history.
   */
  syntheticTrxTransfer(input: { from: string; to: string; amountSun: bigint; memo?: string; label: string }): ChainTransaction {
    const txid = hashHex(`trx-rent mock trx ${this.seed} ${++this.#synthetic} ${input.label} ${this.now()}`);
    const from = this.account(input.from, true)!;
    if (from.trx < input.amountSun) from.trx = input.amountSun;
    from.trx -= input.amountSun;
    this.account(input.to, true)!.trx += input.amountSun;
    const memoHex = input.memo === undefined ? undefined : bytesToHex(new TextEncoder().encode(input.memo));
    return this.#record({
      txid,
      tx: {
        txID: txid,
        raw_data: {
          contract: [
            {
              parameter: {
                value: { owner_address: tronAddressToHex(input.from), to_address: tronAddressToHex(input.to), amount: Number(input.amountSun) },
                type_url: 'type.googleapis.com/protocol.TransferContract',
              },
              type: 'TransferContract',
            },
          ],
          ...(memoHex ? { data: memoHex } : {}),
          timestamp: this.now(),
          expiration: this.now() + 60_000,
        },
        signature: [],
      },
      result: 'SUCCESS',
      owner: input.from,
      contractType: 'TransferContract',
      energyUsed: 0,
      netUsed: 268,
      feeSun: 0,
      trxTransfer: { from: input.from, to: input.to, amountSun: input.amountSun, ...(memoHex ? { memoHex } : {}) },
    });
  }

  /** Give an address TRX (SUN), from the faucet. */
  fundTrx(address: string, amountSun: bigint): void {
    this.account(address, true)!.trx += amountSun;
  }

  /**
   * An address spends `energy` outside any transaction we model (a usage pattern, `usage.ts`):
   * what is staked or delegated to it first, TRX burnt for the rest at getEnergyFee while its
   * balance lasts (as `ReceiptCapsule.payEnergyBill` pays a call's bill).
   */
  spendEnergy(address: string, energy: number): { fromDelegation: number; burntSun: number } {
    const account = this.account(address, true)!;
    const price = CHAIN_PARAMETERS.getEnergyFee;
    const fromDelegation = Math.min(Math.max(0, account.energyLimit - account.energyUsed), energy);
    account.energyUsed += fromDelegation;
    const wanted = BigInt((energy - fromDelegation) * price);
    const burnt = account.trx < wanted ? account.trx : wanted;
    account.trx -= burnt;
    return { fromDelegation, burntSun: Number(burnt) };
  }

  /** Record a swap or other synthetic contract call (no balance effects). */
  recordCall(owner: string, label: string, energyUsed = 0): ChainTransaction {
    const txid = hashHex(`trx-rent mock call ${this.seed} ${++this.#synthetic} ${label} ${this.now()}`);
    return this.#record({
      txid,
      tx: { txID: txid, raw_data: { contract: [{ type: 'TriggerSmartContract', parameter: { value: { owner_address: tronAddressToHex(owner) } } }], timestamp: this.now() }, signature: [] },
      result: 'SUCCESS',
      owner,
      contractType: 'TriggerSmartContract',
      energyUsed,
      netUsed: 345,
      feeSun: 0,
    });
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

  /** Node-style decode of a broadcasthex payload: Transaction { raw_data = 1; signature = 2 }. */
  static decodeTransactionHex(hex: string): SignedTransactionLike & Record<string, unknown> {
    return decodeTransactionHex(hex);
  }
}
