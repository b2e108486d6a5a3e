/**
 * A small simulated TRON chain: blocks every 3 s of mock time (ids derived from the height, so
 * any recent block can serve as a TAPOS reference), TRX and TRC-20 balances, delegated energy,
 * signed transactions that really verify (txID = sha256(raw_data_hex), secp256k1 signature by
 * the owner, expiration, TAPOS, no duplicates), and TRC-20 Transfer events that watchers
 * (watch, receive, invoices) subscribe to. It backs the simulated node (/wallet/*), the paid
 * endpoints and the deposit flow, so everything runs offline.
 * @module
 */
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils';
import { type DecodedTransaction, type SignedTransactionLike, verifySignedTransaction } from '../../protocol/tron-transaction.js';
import { isTronAddress, toTronAddress, tronAddressToHex } from '../../utils/address.js';
import { Fifo } from '../state/fifo.js';

export const BLOCK_INTERVAL_MS = 3_000;
const GENESIS_HEIGHT = 70_000_000;

/** Chain parameters the node reports (mainnet-like values). */
export const CHAIN_PARAMETERS = {
  getEnergyFee: 100, // SUN per energy unit burnt
  getTransactionFee: 1_000, // SUN per bandwidth byte burnt
  getFreeNetLimit: 600,
  getCreateAccountFee: 100_000,
  getCreateNewAccountFeeInSystemContract: 1_000_000,
  getMaintenanceTimeInterval: 21_600_000,
  getTotalEnergyLimit: 180_000_000_000,
  getTotalEnergyCurrentLimit: 180_000_000_000,
  getMemoFee: 1_000_000,
} as const;

/** Energy a TRC-20 transfer uses: to an address that already holds the token, and to an empty one. */
export const TRC20_ENERGY = { existing: 65_000, empty: 130_000 } as const;

export interface ChainToken {
  symbol: string;
  name: string;
  address: string;
  decimals: number;
}

/** TRC-20 contracts the simulated chain runs (mainnet addresses). */
export const CHAIN_TOKENS: readonly ChainToken[] = [
  { symbol: 'USDT', name: 'Tether USD', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', decimals: 6 },
  { symbol: 'USDC', name: 'USD Coin', address: 'TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8', decimals: 6 },
  { symbol: 'USDD', name: 'Decentralized USD', address: 'TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn', decimals: 18 },
  { symbol: 'USDD', name: 'Decentralized USD', address: 'TXDk8mbtRbXeYuMNS83CfKPaYYT8XWv9Hz', decimals: 18 },
];

export interface ChainAccount {
  address: string;
  trx: bigint;
  tokens: Map<string, bigint>;
  /** Energy delegated to the account (rented), and used in the current window. */
  energyLimit: number;
  energyUsed: number;
  /** Bandwidth delegated to the account (rented), and used of it. */
  netLimit: number;
  netUsed: number;
  freeNetUsed: number;
  createdAt: number;
}

export interface Trc20Transfer {
  txid: string;
  token: ChainToken;
  from: string;
  to: string;
  amount: bigint;
  block: number;
  timestamp: number;
}

export interface ChainTransaction {
  txid: string;
  /** The signed transaction as submitted (JSON form), or a synthetic one for mock transfers. */
  tx: Record<string, unknown>;
  block: number;
  timestamp: number;
  result: 'SUCCESS' | 'REVERT';
  owner: string;
  contractType: string;
  energyUsed: number;
  netUsed: number;
  /** TRX burnt in all (energy_fee + net_fee), in SUN. */
  feeSun: number;
  /** The burnt parts, when the transaction paid any: for energy, for bandwidth. */
  energyFeeSun?: number;
  netFeeSun?: number;
  /** The receipt's result when it says more than REVERT (OUT_OF_ENERGY). */
  receiptResult?: string;
  transfer?: Trc20Transfer;
  trxTransfer?: { from: string; to: string; amountSun: bigint; memoHex?: string };
}

export type BroadcastResult =
  | { result: true; txid: string; code: 'SUCCESS'; transaction: ChainTransaction }
  | { result: false; txid?: string; code: string; message: string };

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

  /** True when (ref_block_bytes, ref_block_hash) name one of the last 65 536 blocks. */
  taposMatches(refBlockBytes: string, refBlockHash: string): boolean {
    const low = Number.parseInt(refBlockBytes, 16);
    if (!Number.isFinite(low)) return false;
    const head = this.height();
    let candidate = head - ((head - low) & 0xffff);
    for (; candidate >= GENESIS_HEIGHT && candidate > head - 65_536; candidate -= 65_536) {
      if (this.blockId(candidate).slice(16, 32) === refBlockHash.toLowerCase()) return true;
    }
    return false;
  }

  // ---- accounts ----

  /** An address's on-chain account (created empty when `create`). */
  account(address: string, create = false): ChainAccount | undefined {
    let account = this.accounts.get(address);
    if (!account && create) {
      account = { address, trx: 0n, tokens: new Map(), energyLimit: 0, energyUsed: 0, netLimit: 0, netUsed: 0, freeNetUsed: 0, createdAt: this.now() };
      this.accounts.set(address, account);
    }
    return account;
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

  /** Delegate (rent) energy to an address. */
  delegateEnergy(address: string, amount: number): void {
    this.account(address, true)!.energyLimit += amount;
  }

  /** Energy a TRC-20 transfer of `token` to `to` uses. */
  trc20TransferEnergy(token: string, to: string): number {
    return this.tokenBalance(to, token) > 0n ? TRC20_ENERGY.existing : TRC20_ENERGY.empty;
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
      const source = this.account(from, true)!;
      const have = source.tokens.get(token.address) ?? 0n;
      if (have < amount) {
        if (!mint) return false;
        source.tokens.set(token.address, 0n);
      } else source.tokens.set(token.address, have - amount);
    }
    const target = this.account(to, true)!;
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
   * Validate and execute a signed transaction, as a node's broadcasttransaction does. The
   * all-zero reference block that `buildTrxTransfer` uses offline is accepted (a real node
   * would answer TAPOS_ERROR); any other reference must be one of this chain's recent blocks.
   */
  broadcast(signed: SignedTransactionLike & Record<string, unknown>, options: { fundShortfall?: boolean | 'trx' } = {}): BroadcastResult {
    const verified = verifySignedTransaction(signed);
    if (!verified.ok) return { result: false, code: 'SIGERROR', message: `validate signature error: ${verified.reason}` };
    const d = verified.decoded;
    const txid = d.txID.toLowerCase();
    if (this.#broadcasted.has(txid) || this.transactions.has(txid)) return { result: false, txid, code: 'DUP_TRANSACTION_ERROR', message: 'dup transaction' };
    const now = this.now();
    if (d.expiration <= now) return { result: false, txid, code: 'TRANSACTION_EXPIRATION_ERROR', message: 'transaction expired' };
    if (d.expiration > now + 24 * 3_600_000) return { result: false, txid, code: 'TRANSACTION_EXPIRATION_ERROR', message: 'expiration more than 24 h ahead' };
    const offline = /^0+$/.test(d.refBlockHash) && /^0+$/.test(d.refBlockBytes);
    if (!offline && !this.taposMatches(d.refBlockBytes, d.refBlockHash)) {
      return { result: false, txid, code: 'TAPOS_ERROR', message: 'Tapos check error: reference block not found' };
    }
    if (options.fundShortfall) this.#fundShortfall(d, options.fundShortfall === 'trx');
    return this.#execute(signed, d);
  }

  /** Top up the owner so the transaction can execute (test wallets have no on-chain history here). */
  #fundShortfall(d: DecodedTransaction, trxOnly: boolean): void {
    if (d.contractType === 'TransferContract' && d.amountSun !== undefined) {
      const short = d.amountSun - this.trxBalance(d.ownerAddress);
      if (short > 0n) this.fundTrx(d.ownerAddress, short);
    } else if (d.trc20Transfer && d.contractAddress && !trxOnly) {
      const token = this.token(d.contractAddress);
      const short = token ? d.trc20Transfer.amount - this.tokenBalance(d.ownerAddress, token.address) : 0n;
      if (token && short > 0n) this.syntheticTransfer({ token, to: d.ownerAddress, amount: short, label: 'top-up' });
    }
  }

  #execute(signed: Record<string, unknown>, d: DecodedTransaction): BroadcastResult {
    const txid = d.txID.toLowerCase();
    const owner = d.ownerAddress;
    const rawLength = ((signed.raw_data_hex as string | undefined)?.length ?? 0) / 2;
    const signatures = (signed.signature as string[] | undefined)?.length ?? 1;
    // java-tron charges the serialized Transaction (raw_data field, one 65-byte field per
    // signature) plus 64 bytes for its result.
    const netUsed = 1 + varintLength(rawLength) + rawLength + signatures * 67 + 64;
    const json = { ...signed, txID: txid };
    if (d.contractType === 'TransferContract' && d.toAddress && d.amountSun !== undefined) {
      const from = this.account(owner, true)!;
      if (from.trx < d.amountSun) {
        return { result: false, txid, code: 'CONTRACT_VALIDATE_ERROR', message: 'Validate TransferContract error, balance is not sufficient.' };
      }
      from.trx -= d.amountSun;
      const to = this.account(d.toAddress, true)!;
      to.trx += d.amountSun;
      const netFeeSun = this.#chargeBandwidth(from, netUsed);
      const feeSun = netFeeSun;
      const transaction = this.#record({
        txid,
        tx: json,
        result: 'SUCCESS',
        owner,
        contractType: d.contractType,
        energyUsed: 0,
        netUsed,
        feeSun,
        ...(netFeeSun ? { netFeeSun } : {}),
        trxTransfer: { from: owner, to: d.toAddress, amountSun: d.amountSun, ...(d.dataHex ? { memoHex: d.dataHex } : {}) },
      });
      return { result: true, txid, code: 'SUCCESS', transaction };
    }
    if (d.contractType === 'TriggerSmartContract' && d.contractAddress) {
      const token = this.token(d.contractAddress);
      const from = this.account(owner, true)!;
      if (!token || !d.trc20Transfer) {
        const transaction = this.#record({ txid, tx: json, result: 'REVERT', owner, contractType: d.contractType, energyUsed: 0, netUsed, feeSun: 0 });
        return { result: true, txid, code: 'SUCCESS', transaction };
      }
      const energy = this.trc20TransferEnergy(token.address, d.trc20Transfer.to);
      const netFeeSun = this.#chargeBandwidth(from, netUsed);
      const charged = this.#chargeEnergy(from, energy, d.feeLimit);
      // Out of energy (the burn would pass fee_limit): the call reverts and fee_limit is burnt.
      const moved = charged.ok && this.#moveToken(token, owner, d.trc20Transfer.to, d.trc20Transfer.amount, false);
      const energyFeeSun = charged.burnt;
      const feeSun = energyFeeSun + netFeeSun;
      const transfer: Trc20Transfer = { txid, token, from: owner, to: d.trc20Transfer.to, amount: d.trc20Transfer.amount, block: 0, timestamp: 0 };
      const transaction = this.#record({
        txid,
        tx: json,
        result: moved ? 'SUCCESS' : 'REVERT',
        owner,
        contractType: d.contractType,
        energyUsed: energy,
        netUsed,
        feeSun,
        ...(energyFeeSun ? { energyFeeSun } : {}),
        ...(netFeeSun ? { netFeeSun } : {}),
        ...(charged.ok ? {} : { receiptResult: 'OUT_OF_ENERGY' }),
        ...(moved ? { transfer } : {}),
      });
      return { result: true, txid, code: 'SUCCESS', transaction };
    }
    return { result: false, txid, code: 'CONTRACT_VALIDATE_ERROR', message: `contract ${d.contractType} is not simulated` };
  }

  /**
   * Energy comes from what is staked or delegated to the account first; TRX is burnt for the
   * rest at getEnergyFee. A burn beyond fee_limit is out of energy: fee_limit is burnt, the call fails.
   */
  #chargeEnergy(account: ChainAccount, energy: number, feeLimit?: number): { burnt: number; ok: boolean } {
    const free = Math.max(0, account.energyLimit - account.energyUsed);
    const fromLimit = Math.min(free, energy);
    account.energyUsed += fromLimit;
    let burnt = (energy - fromLimit) * CHAIN_PARAMETERS.getEnergyFee;
    const ok = feeLimit === undefined || burnt <= feeLimit;
    if (!ok) burnt = feeLimit!;
    account.trx = account.trx > BigInt(burnt) ? account.trx - BigInt(burnt) : 0n;
    return { burnt, ok };
  }

  /**
   * An address spends `energy` outside any transaction we model (a usage pattern,
   * `usage.ts`): delegated energy first, TRX burnt for the rest at getEnergyFee.
   */
  spendEnergy(address: string, energy: number): { fromDelegation: number; burntSun: number } {
    const account = this.account(address, true)!;
    const free = Math.max(0, account.energyLimit - account.energyUsed);
    const { burnt } = this.#chargeEnergy(account, energy);
    return { fromDelegation: Math.min(free, energy), burntSun: burnt };
  }

  /** Bandwidth: staked or delegated first, then the free daily allowance, else TRX burnt for every byte. */
  #chargeBandwidth(account: ChainAccount, bytes: number): number {
    if (account.netUsed + bytes <= account.netLimit) {
      account.netUsed += bytes;
      return 0;
    }
    if (account.freeNetUsed + bytes <= CHAIN_PARAMETERS.getFreeNetLimit) {
      account.freeNetUsed += bytes;
      return 0;
    }
    const burnt = bytes * CHAIN_PARAMETERS.getTransactionFee;
    account.trx = account.trx > BigInt(burnt) ? account.trx - BigInt(burnt) : 0n;
    return burnt;
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
    const callData = `a9059cbb${tronAddressToHex(input.to).slice(2).padStart(64, '0')}${input.amount.toString(16).padStart(64, '0')}`;
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
   */
  delegateResource(input: { from: string; to: string; resource: 'ENERGY' | 'BANDWIDTH'; amount: number; lockSec: number; success: boolean; label: string }): ChainTransaction {
    const txid = hashHex(`trx-rent mock delegation ${this.seed} ${++this.#synthetic} ${input.label} ${this.now()}`);
    if (input.success) {
      const target = this.account(input.to, true)!;
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

  /** A transaction as `gettransactionbyid` shows it. */
  transactionJson(txid: string): Record<string, unknown> | undefined {
    const tx = this.transactions.get(txid.toLowerCase());
    if (!tx) return undefined;
    return { ...tx.tx, ret: [{ contractRet: tx.result }] };
  }

  /** A transaction's receipt as `gettransactioninfobyid` shows it. */
  transactionInfo(txid: string): Record<string, unknown> | undefined {
    const tx = this.transactions.get(txid.toLowerCase());
    if (!tx) return undefined;
    const info: Record<string, unknown> = {
      id: tx.txid,
      blockNumber: tx.block,
      blockTimeStamp: this.blockTime(tx.block),
      contractResult: [''],
      // java-tron's receipt: energy from stake (energy_usage), TRX burnt for the rest (energy_fee),
      // both together (energy_usage_total); bandwidth from stake or the free allowance
      // (net_usage) or burnt (net_fee, net_usage then absent).
      receipt: {
        ...(tx.energyUsed && tx.energyUsed - Math.floor((tx.energyFeeSun ?? 0) / CHAIN_PARAMETERS.getEnergyFee) > 0
          ? { energy_usage: tx.energyUsed - Math.floor((tx.energyFeeSun ?? 0) / CHAIN_PARAMETERS.getEnergyFee) }
          : {}),
        ...(tx.energyUsed ? { energy_usage_total: tx.energyUsed } : {}),
        ...(tx.energyFeeSun ? { energy_fee: tx.energyFeeSun } : {}),
        ...(tx.netFeeSun ? { net_fee: tx.netFeeSun } : { net_usage: tx.netUsed }),
        result: tx.receiptResult ?? tx.result,
      },
    };
    if (tx.feeSun) info.fee = tx.feeSun;
    if (tx.transfer) {
      const t = tx.transfer;
      info.contract_address = tronAddressToHex(t.token.address);
      info.log = [
        {
          address: tronAddressToHex(t.token.address).slice(2),
          topics: [
            'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
            tronAddressToHex(t.from).slice(2).padStart(64, '0'),
            tronAddressToHex(t.to).slice(2).padStart(64, '0'),
          ],
          data: t.amount.toString(16).padStart(64, '0'),
        },
      ];
    }
    if (tx.result === 'REVERT') info.result = 'FAILED';
    return info;
  }

  /** Node-style decode of a broadcasthex payload: Transaction { raw_data = 1; signature = 2 }. */
  static decodeTransactionHex(hex: string): SignedTransactionLike & Record<string, unknown> {
    const bytes = hexToBytes(hex.replace(/^0x/, ''));
    let i = 0;
    let raw: Uint8Array | undefined;
    const signature: string[] = [];
    const varint = () => {
      let result = 0;
      let shift = 0;
      for (;;) {
        if (i >= bytes.length) throw new Error('truncated');
        const b = bytes[i++]!;
        result += (b & 0x7f) * 2 ** shift;
        if (!(b & 0x80)) return result;
        shift += 7;
      }
    };
    while (i < bytes.length) {
      const key = varint();
      if ((key & 7) !== 2) throw new Error('unexpected wire type');
      const len = varint();
      const value = bytes.subarray(i, i + len);
      i += len;
      if (key >> 3 === 1) raw = value;
      else if (key >> 3 === 2) signature.push(bytesToHex(value));
    }
    if (!raw) throw new Error('no raw_data');
    const raw_data_hex = bytesToHex(raw);
    return { txID: bytesToHex(sha256(raw)), raw_data_hex, signature };
  }
}

/** Bytes of a protobuf varint holding `n`. */
function varintLength(n: number): number {
  let length = 1;
  for (let v = n; v >= 0x80; v = Math.floor(v / 128)) length++;
  return length;
}
