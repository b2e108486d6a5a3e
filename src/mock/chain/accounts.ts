/**
 * Accounts, tokens and resources on the simulated chain: who is an account (only TRX or an
 * AccountCreate makes one on TRON; a TRC-20 balance lives in the contract's storage), TRX and
 * TRC-20 balances, the token contracts' own state (dynamic energy factor, pause, blacklist),
 * and energy and bandwidth delegated (rented) to an address, used, and taken back. The third
 * layer of `SimulatedChain`, over its records.
 * @module
 */
import { type CallOutcome, DEFAULT_ENERGY_FACTOR, TRC20_BASE_ENERGY, type TokenView, runTokenCall, withPenalty } from './contracts.js';
import { CHAIN_PARAMETERS } from './fees.js';
import { isTronAddress } from '../../utils/address.js';
import type { ChainAccount, ChainToken, ChainTransaction } from './types.js';
import { ChainLedger } from './ledger.js';
import { labelAddress } from './labels.js';
import { DelegationRecord } from './records.js';

/**
 * Energy a TRC-20 transfer uses at the default energy factor, penalty included: to an address
 * that already holds the token, and to an empty one (see contracts.ts).
 */
export const TRC20_ENERGY = {
  existing: withPenalty(TRC20_BASE_ENERGY.existing, DEFAULT_ENERGY_FACTOR).energy,
  empty: withPenalty(TRC20_BASE_ENERGY.empty, DEFAULT_ENERGY_FACTOR).energy,
} as const;

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
 * A DelegateResourceContract java-tron refuses before it reaches a block
 * (`DelegateResourceActuator.validate`): `code` is the broadcast's refusal code, `reason` the
 * order's failure_reason, the message java-tron's text after its "Contract validate error : ".
 */
export class DelegationRefusedError extends Error {
  readonly code = 'CONTRACT_VALIDATE_ERROR';
  constructor(
    readonly reason: 'TARGET_NOT_ACTIVATED' | 'TARGET_IS_CONTRACT',
    message: string,
  ) {
    super(`Contract validate error : ${message}`);
    this.name = 'DelegationRefusedError';
  }
}

/** Accounts, balances, token contract state and delegated resources. */
export class ChainAccounts extends ChainLedger {
  /** Source of mock transfers and funding (unlimited balance). */
  readonly faucet = labelAddress('faucet');
  /** Per token contract: dynamic energy's `energy_factor` (java-tron `ContractStateCapsule`). */
  readonly #energyFactors = new Map<string, number>();
  /** Paused token contracts, and `token address` pairs of blacklisted senders: their transfers revert. */
  readonly #paused = new Set<string>();
  readonly #blacklisted = new Set<string>();

  // ---- tokens ----

  /** A supported stablecoin by symbol or contract address. */
  token(ref: string): ChainToken | undefined {
    if (isTronAddress(ref)) return CHAIN_TOKENS.find((t) => t.address === ref);
    return CHAIN_TOKENS.find((t) => t.symbol === ref.toUpperCase());
  }

  // ---- accounts ----

  /**
   * An address's record (created, and activated, when `create`: only TRX or an AccountCreate
   * does that on TRON). A record that holds only TRC-20 balances is `inactive`.
   */
  account(address: string, create = false): ChainAccount | undefined {
    // Asked to create, the caller is about to change it: the solidified view keeps what it was.
    if (create) this.willChange(address);
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
    this.willChange(address);
    let account = this.accounts.get(address);
    if (!account) {
      account = {
        address,
        trx: 0n,
        tokens: new Map(),
        energyLimit: 0,
        energyUsed: 0,
        netLimit: 0,
        netUsed: 0,
        freeNetUsed: 0,
        createdAt: this.now(),
        inactive: true,
      };
      this.accounts.set(address, account);
    }
    return account;
  }

  /**
   * True when the address is an account on chain (the faucet, the token contracts and
   * {@link GENESIS_ACCOUNTS} always are); with `height`, as of the end of that block.
   */
  isActivated(address: string, height?: number): boolean {
    if (address === this.faucet || this.token(address) || GENESIS_ACCOUNTS.includes(address)) return true;
    const account = height === undefined ? this.accounts.get(address) : this.accountAt(address, height);
    return account !== undefined && !account.inactive;
  }

  /** True when the address holds a contract (`getaccount` type Contract): the token contracts. */
  isContract(address: string): boolean {
    return this.token(address) !== undefined;
  }

  /**
   * Why java-tron would refuse a DelegateResourceContract to `to`, in its words
   * (`DelegateResourceActuator.validate`: the receiver must exist, "Account[<hex>] not exists",
   * and, checked after that, must not be a contract, "Do not allow delegate resources to
   * contract addresses"); undefined when it may receive one. `reason` is the order's
   * failure_reason for the same refusal.
   */
  delegationRefusal(to: string): { reason: 'TARGET_NOT_ACTIVATED' | 'TARGET_IS_CONTRACT'; message: string } | undefined {
    if (!this.isActivated(to)) return { reason: 'TARGET_NOT_ACTIVATED', message: `Account[${this.hexOf(to).toLowerCase()}] not exists` };
    if (this.isContract(to)) return { reason: 'TARGET_IS_CONTRACT', message: 'Do not allow delegate resources to contract addresses' };
    return undefined;
  }

  /**
   * Genesis allocation: `address` is an account from the first block, holding `trxSun` and the
   * token balances given, with no transaction (as a genesis block's accounts). For a new chain
   * only: an address that is already known is left as it is.
   */
  allocate(address: string, trxSun: bigint, tokens: ReadonlyArray<readonly [ChainToken, bigint]> = []): void {
    if (this.accounts.has(address)) return;
    const balances = new Map(tokens.map(([token, amount]) => [token.address, amount] as const));
    this.accounts.set(address, {
      address,
      trx: trxSun,
      tokens: balances,
      energyLimit: 0,
      energyUsed: 0,
      netLimit: 0,
      netUsed: 0,
      freeNetUsed: 0,
      createdAt: this.genesisTime,
    });
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

  // ---- balances and energy ----

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

  /** Move a token balance (the faucet's is unlimited); false when the sender is short and `mint` is off. */
  protected moveToken(token: ChainToken, from: string, to: string, amount: bigint, mint: boolean): boolean {
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

  // ---- delegated resources ----

  /**
   * A provider delegates (rents out) energy or bandwidth to `to`: a DelegateResourceContract on
   * the chain. A failed delegation is recorded as reverted and changes nothing. The resource shows
   * on `getaccountresource` until {@link undelegateResource} takes it back.
   * A receiver java-tron refuses (no account, or a contract: {@link delegationRefusal}) gets no
   * transaction at all, as a contract that fails validation never reaches a block: this throws
   * `DelegationRefusedError` with java-tron's text. The order engine checks first (the
   * order fails with the refusal's reason), so this is a last guard.
   */
  delegateResource(input: {
    from: string;
    to: string;
    resource: 'ENERGY' | 'BANDWIDTH';
    amount: number;
    lockSec: number;
    success: boolean;
    label: string;
  }): ChainTransaction {
    const refusal = this.delegationRefusal(input.to);
    if (refusal) throw new DelegationRefusedError(refusal.reason, refusal.message);
    const txid = this.syntheticTxid();
    if (input.success) {
      const target = this.#holder(input.to); // an account: isActivated said so (a contract has no record of its own)
      if (input.resource === 'ENERGY') target.energyLimit += input.amount;
      else target.netLimit += input.amount;
    }
    // The body is built when read (records.ts); its time is the record's, one clock read.
    const record = new DelegationRecord(txid, input.success, {
      owner: input.from,
      ownerHex: this.hexOf(input.from),
      receiverHex: this.hexOf(input.to),
      resource: input.resource,
      balance: input.amount,
      lockPeriod: Math.ceil(input.lockSec / 3),
    });
    return this.record(record);
  }

  /** The rental ended: take back what {@link delegateResource} gave. */
  undelegateResource(to: string, resource: 'ENERGY' | 'BANDWIDTH', amount: number): void {
    if (!this.accounts.has(to)) return;
    this.willChange(to);
    const target = this.accounts.get(to)!;
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
}
