/**
 * What the engine reads and checks on its way: the caller's inputs (named errors), the chain's
 * fees and limits (bounded: a node's absurd figure is NODE_ERROR), tokens and balances, and the
 * best rental quote for a deficit.
 * @module
 */
import { TrxRentError, ValidationError } from '../errors/index.js';
import { KNOWN_TOKENS, NETWORKS } from '../protocol/networks.js';
import { addressWord } from '../protocol/abi.js';
import type { Orders } from '../resources/orders.js';
import { LIMITS } from '../schemas/limits.js';
import type { PreviewOption } from '../schemas/prices.js';
import { isTronAddress } from '../utils/address.js';
import { trxToSun } from '../utils/units.js';
import type { TronNode } from './node.js';
import type { RentalQuote, TokenInfo, TokenRef } from './types.js';

export const DEFAULT_DURATION_SEC = 3600;
export const DEFAULT_TIMEOUT_MS = 120_000;
export const TRANSFER_SELECTOR = 'transfer(address,uint256)';
// Bytes a node adds to a transaction's size for its result when charging bandwidth (java-tron MAX_RESULT_SIZE_IN_TX).
export const RESULT_BYTES = 64;

/** A VALIDATION_ERROR naming `field`. */
export function invalid(field: string, message: string): ValidationError {
  return new ValidationError({ code: 'VALIDATION_ERROR', message: `${field}: ${message}`, details: { field } });
}

/** `value` if it is a base58 TRON address, else a VALIDATION_ERROR naming `field`. */
export function address(value: unknown, field: string): string {
  if (typeof value !== 'string' || !isTronAddress(value)) throw invalid(field, `not a valid TRON address: ${String(value)}`);
  return value;
}

/** `value` if it is a safe whole number above 0 (or 0 with `allowZero`), else a VALIDATION_ERROR. */
export function positiveInt(value: unknown, field: string, allowZero = false): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < (allowZero ? 0 : 1)) {
    throw invalid(field, `must be a ${allowZero ? 'non-negative' : 'positive'} whole number, not ${String(value)}`);
  }
  return value;
}

/** An optional SUN amount: undefined, or a safe whole number of at least 0. */
export function optionalSun(value: unknown, field: string): number | undefined {
  if (value === undefined) return undefined;
  return positiveInt(value, field, true);
}

/** What a preview option costs for `amount` units, exact SUN: the quoted TRX when given, else price x amount rounded up. */
export function optionCost(option: PreviewOption, amount: number): number {
  try {
    return trxToSun(String(option.cost_trx));
  } catch {
    return Math.ceil(amount * Number(option.price_sun));
  }
}

/** The default fee_limit: the burn cost of the energy the transfer needs, plus 10 %. */
export function defaultFeeLimit(energy: number, energyFeeSun: number): number {
  return Math.ceil(energy * energyFeeSun * 1.1);
}

/** Throw the signal's reason (or CANCELLED) once it has aborted. */
export function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new TrxRentError({ code: 'CANCELLED', message: 'Cancelled' });
}

/** Serialized size of a signed transaction (raw_data + `signatures` 65-byte signatures, one by default) plus the result bytes nodes charge. */
export function bandwidthOf(rawDataHex: string, signatures = 1): number {
  const raw = rawDataHex.length / 2;
  let lenBytes = 1;
  for (let n = raw; n >= 0x80; n >>>= 7) lenBytes++;
  return 1 + lenBytes + raw + signatures * (1 + 1 + 65) + RESULT_BYTES;
}

/** A token by symbol (mainnet) or contract address (its decimals() read on the node). */
export async function resolveToken(node: TronNode, ref: TokenRef, owner: string, signal?: AbortSignal): Promise<TokenInfo> {
  if (typeof ref !== 'string' || ref === '') throw invalid('token', 'a token symbol (USDT) or a TRC-20 contract address is required');
  const mainnet = KNOWN_TOKENS.filter((t) => t.network === NETWORKS.TRON_MAINNET);
  if (isTronAddress(ref)) {
    const known = mainnet.find((t) => t.address === ref);
    if (known) return { address: known.address, symbol: known.symbol, decimals: known.decimals };
    const result = await node.triggerConstantContract({ owner, contract: ref, functionSelector: 'decimals()', parameter: '' }, { signal });
    const decimals = Number.parseInt(result.constant_result?.[0] ?? '', 16);
    if (!Number.isSafeInteger(decimals) || decimals < 0 || decimals > 36)
      throw invalid('token', `${ref} answers no usable decimals(): is it a TRC-20 contract?`);
    return { address: ref, symbol: undefined, decimals };
  }
  const known = mainnet.find((t) => t.symbol === ref.toUpperCase());
  if (!known)
    throw invalid('token', `unknown token ${JSON.stringify(ref)}: use ${[...new Set(mainnet.map((t) => t.symbol))].join(', ')} or a contract address`);
  return { address: known.address, symbol: known.symbol, decimals: known.decimals };
}

export async function balanceOf(node: TronNode, token: TokenInfo, owner: string, who: string, signal?: AbortSignal): Promise<bigint> {
  const result = await node.triggerConstantContract(
    { owner, contract: token.address, functionSelector: 'balanceOf(address)', parameter: addressWord(who) },
    { signal },
  );
  const hex = result.constant_result?.[0] ?? '';
  return /^[0-9a-fA-F]{1,64}$/.test(hex) ? BigInt(`0x${hex}`) : 0n;
}

/**
 * Bounds on what a node says, so a lying or broken node cannot make the SDK sign an absurd
 * fee_limit: fees per unit well above any TRON has had (energy 420 SUN at most so far), energy
 * far above any TRC-20 transfer (about 130 000 at most), the chain's fee_limit ceiling (15 000 TRX).
 */
export const NODE_BOUNDS = { maxEnergyFeeSun: 10_000, maxBandwidthFeeSun: 100_000, maxTransferEnergy: 5_000_000, maxFeeLimitSun: 15_000_000_000 } as const;

/** The stated ceiling of a transfer's fee_limit unless `maxFeeLimitSun` says otherwise: 100 TRX. */
export const DEFAULT_MAX_FEE_LIMIT_SUN = 100_000_000;

export function bounded(value: number, max: number, what: string): number {
  if (!Number.isSafeInteger(value) || value <= 0 || value > max) {
    throw new TrxRentError({
      code: 'NODE_ERROR',
      message: `The node reports ${what} = ${value}, outside 1…${max}; nothing was ordered or sent`,
      details: { field: what, value, max },
    });
  }
  return value;
}

/** The chain's fee parameters, bounded; `max_fee_limit_sun` is getMaxFeeLimit when the node reports it. */
export async function chainFees(
  node: TronNode,
  signal?: AbortSignal,
): Promise<{ energy_sun: number; bandwidth_sun: number; max_fee_limit_sun: number | undefined }> {
  const params = await node.getChainParameters({ signal });
  const energy = params.get('getEnergyFee');
  const bandwidth = params.get('getTransactionFee');
  if (energy === undefined || bandwidth === undefined)
    throw new TrxRentError({ code: 'NODE_ERROR', message: 'getchainparameters reports no getEnergyFee/getTransactionFee' });
  const maxFeeLimit = params.get('getMaxFeeLimit');
  return {
    energy_sun: bounded(energy, NODE_BOUNDS.maxEnergyFeeSun, 'getEnergyFee'),
    bandwidth_sun: bounded(bandwidth, NODE_BOUNDS.maxBandwidthFeeSun, 'getTransactionFee'),
    max_fee_limit_sun: maxFeeLimit === undefined ? undefined : bounded(maxFeeLimit, NODE_BOUNDS.maxFeeLimitSun, 'getMaxFeeLimit'),
  };
}

export async function fees(node: TronNode, signal?: AbortSignal): Promise<{ energy_sun: number; bandwidth_sun: number }> {
  const { energy_sun, bandwidth_sun } = await chainFees(node, signal);
  return { energy_sun, bandwidth_sun };
}

export async function quote(orders: Orders, resource: 'ENERGY' | 'BANDWIDTH', deficit: number, duration: number, signal?: AbortSignal): Promise<RentalQuote> {
  const minimum = resource === 'ENERGY' ? LIMITS.MIN_ENERGY_AMOUNT : LIMITS.MIN_BANDWIDTH_AMOUNT;
  const amount = Math.max(deficit, minimum);
  const preview = await orders.preview({ resource, amount, duration }, { signal });
  if (!preview.best) {
    throw new TrxRentError({ code: 'PROVIDER_UNAVAILABLE', message: `No provider can rent ${amount} ${resource} for ${duration} s now; nothing was ordered` });
  }
  return {
    resource,
    amount,
    duration_sec: duration,
    provider: preview.best.provider,
    price_sun: Number(preview.best.price_sun),
    cost_sun: optionCost(preview.best, amount),
  };
}
