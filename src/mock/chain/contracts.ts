/**
 * The TRC-20 contracts the simulated chain runs, as the TVM would run them: each call returns
 * its return word (or `Error(string)` data when it reverts), the energy it used and the part of
 * it that is dynamic energy's penalty. The node's constant calls and the chain's executed
 * transactions both run here, so a simulation and the real call agree.
 *
 * java-tron sources (tronprotocol/java-tron):
 * - dynamic energy: `actuator/.../vm/VM.java` (`penalty = energy * factor / 10_000 - energy`,
 *   factor = `10_000 + ContractStateCapsule.energy_factor`), `common/.../Constant.java`
 *   (`DYNAMIC_ENERGY_FACTOR_DECIMAL = 10_000`);
 * - a revert: `VMActuator.execute` sets the runtime error "REVERT opcode executed" and the
 *   return data (the `Error(string)` ABI data when the contract gives a reason).
 * @module
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { toTronAddress } from '../../utils/address.js';
import { encodeErrorString, encodeString, uintWord } from '../../protocol/abi.js';

/** java-tron `Constant.DYNAMIC_ENERGY_FACTOR_DECIMAL`: energy factors are in 1/10 000. */
export const DYNAMIC_ENERGY_FACTOR_DECIMAL = 10_000;

/**
 * The stablecoins' `energy_factor` unless a test sets another (`chain.setEnergyFactor`):
 * 30 000 (x4 in all), near mainnet's USDT, which sits at the maximum factor (34 000).
 */
export const DEFAULT_ENERGY_FACTOR = 30_000;

/**
 * Energy of a TRC-20 `transfer` before dynamic energy: to an address that already holds the
 * token, and to an empty one (a new storage slot). With {@link DEFAULT_ENERGY_FACTOR} they are
 * 65,000 and 130,000 in all (mainnet USDT today: about 64,285 and 130,285).
 */
export const TRC20_BASE_ENERGY = { existing: 16_250, empty: 32_500 } as const;

/** Energy a transfer uses before it reverts (checks run, nothing stored), before the penalty. */
export const TRC20_REVERT_BASE_ENERGY = 2_000;

/** Energy of the read-only calls, before the penalty. */
const VIEW_ENERGY = { balanceOf: 236, decimals: 50, symbol: 75, name: 75, totalSupply: 60 } as const;

/** 4-byte selectors (keccak-256 of the signature). */
export const SELECTORS = {
  transfer: 'a9059cbb',
  balanceOf: '70a08231',
  decimals: '313ce567',
  symbol: '95d89b41',
  name: '06fdde03',
  totalSupply: '18160ddd',
} as const;

/** The selector of a function signature such as `transfer(address,uint256)`. */
export function selectorOf(signature: string): string {
  return bytesToHex(keccak_256(new TextEncoder().encode(signature.replace(/\s/g, '')))).slice(0, 8);
}

/** Energy with dynamic energy's penalty for a contract at `factor` (java-tron VM.play). */
export function withPenalty(base: number, factor: number): { energy: number; penalty: number } {
  const penalty = factor > 0 ? Math.floor((base * (DYNAMIC_ENERGY_FACTOR_DECIMAL + factor)) / DYNAMIC_ENERGY_FACTOR_DECIMAL) - base : 0;
  return { energy: base + penalty, penalty };
}

/** What a call did. `result` is the return data (hex); on REVERT, the revert data ('' when none). */
export type CallOutcome =
  | { status: 'SUCCESS'; energy: number; penalty: number; result: string; transfer?: { to: string; amount: bigint } }
  | { status: 'REVERT'; energy: number; penalty: number; result: string; reason: string };

/** The state a token call reads. */
export interface TokenView {
  decimals: number;
  symbol: string;
  name: string;
  /** The token balance of `address`, atomic units. */
  balanceOf(address: string): bigint;
  /** All tokens in existence, atomic units. */
  totalSupply(): bigint;
  energyFactor: number;
  paused: boolean;
  /** Whether the token's blacklist holds `address` (its transfers revert). */
  blacklisted(address: string): boolean;
}

/**
 * Run one call of a TRC-20 contract (call data = selector + arguments) from `owner`. Pure: a
 * transfer is returned, not made. A transfer reverts when the token is paused or the sender
 * blacklisted (no reason, as USDT's `require`s give none) or the balance is short
 * (`Error(string)`, the reason OpenZeppelin-style tokens give).
 */
export function runTokenCall(token: TokenView, owner: string, data: string): CallOutcome {
  const selector = data.slice(0, 8).toLowerCase();
  const args = data.slice(8);
  const factor = token.energyFactor;
  const ok = (base: number, result: string) => ({ status: 'SUCCESS' as const, ...withPenalty(base, factor), result });
  const revert = (reason: string, result: string) => ({ status: 'REVERT' as const, ...withPenalty(TRC20_REVERT_BASE_ENERGY, factor), result, reason });
  const addressArg = (i: number) => toTronAddress(`41${args.slice(i * 64 + 24, i * 64 + 64)}`);
  switch (selector) {
    case SELECTORS.balanceOf:
      if (args.length < 64) return revert('', '');
      return ok(VIEW_ENERGY.balanceOf, uintWord(token.balanceOf(addressArg(0))));
    case SELECTORS.decimals:
      return ok(VIEW_ENERGY.decimals, uintWord(token.decimals));
    case SELECTORS.symbol:
      return ok(VIEW_ENERGY.symbol, encodeString(token.symbol));
    case SELECTORS.name:
      return ok(VIEW_ENERGY.name, encodeString(token.name));
    case SELECTORS.totalSupply:
      return ok(VIEW_ENERGY.totalSupply, uintWord(token.totalSupply()));
    case SELECTORS.transfer: {
      if (!/^[0-9a-fA-F]{128}/.test(args)) return revert('', '');
      const to = addressArg(0);
      const amount = BigInt(`0x${args.slice(64, 128)}`);
      if (token.paused || token.blacklisted(owner)) return revert('', '');
      if (token.balanceOf(owner) < amount) return revert('transfer amount exceeds balance', encodeErrorString('transfer amount exceeds balance'));
      const base = token.balanceOf(to) > 0n ? TRC20_BASE_ENERGY.existing : TRC20_BASE_ENERGY.empty;
      return { ...ok(base, uintWord(1)), transfer: { to, amount } };
    }
    default:
      // No such function and no fallback: the dispatcher reverts without data.
      return revert('', '');
  }
}

const abiEntry = (name: string, inputs: [string, string][], outputs: string[], mutability: 'View' | 'Nonpayable') => ({
  ...(mutability === 'View' ? { constant: true } : {}),
  inputs: inputs.map(([n, type]) => ({ name: n, type })),
  name,
  outputs: outputs.map((type) => ({ type })),
  stateMutability: mutability,
  type: 'Function',
});

/**
 * The stablecoins' ABI as java-tron's `getcontract` prints it (`abi.entrys`, enum names
 * `Function`/`View`/`Nonpayable`, which tronweb lower-cases): what `tronWeb.contract().at()` reads.
 */
export const TRC20_ABI = [
  abiEntry('name', [], ['string'], 'View'),
  abiEntry('symbol', [], ['string'], 'View'),
  abiEntry('decimals', [], ['uint8'], 'View'),
  abiEntry('totalSupply', [], ['uint256'], 'View'),
  abiEntry('balanceOf', [['who', 'address']], ['uint256'], 'View'),
  abiEntry(
    'transfer',
    [
      ['_to', 'address'],
      ['_value', 'uint256'],
    ],
    ['bool'],
    'Nonpayable',
  ),
  {
    anonymous: false,
    inputs: [
      { indexed: true, name: 'from', type: 'address' },
      { indexed: true, name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    name: 'Transfer',
    type: 'Event',
  },
];
