/**
 * Renting exactly what a transfer needs, on the endpoints the spec gives plus a TRON node:
 * estimate a TRC-20 transfer (energy and bandwidth simulated on the node, the burn at the
 * chain's own fee parameters, the rental at the best current price), ensure an address has the
 * energy (buy only the deficit, rounded up to the provider minimum; wait until the order is
 * FILLED and the delegation shows on the node), and send (estimate, ensure, build and sign the
 * transfer locally, broadcast through the service, wait for the receipt, report the saving).
 *
 * Loaded on first use of `client.transfers` / `client.resources` (see `facade.ts`), so the
 * core import stays small; signing code (secp256k1) loads only when a transfer is built.
 * @module
 */
import { TrxRentError, ValidationError } from '../errors/index.js';
import type { HttpClient } from '../http/client.js';
import { KNOWN_TOKENS, NETWORKS } from '../protocol/networks.js';
import { Orders } from '../resources/orders.js';
import { LIMITS } from '../schemas/limits.js';
import type { Order } from '../schemas/orders.js';
import type { PreviewOption } from '../schemas/prices.js';
import { isTronAddress, tronAddressToHex } from '../utils/address.js';
import { pollUntil } from '../utils/clock.js';
import { atomicToDecimal, decimalToAtomic, trxToSun } from '../utils/units.js';
import { type Deadline, startDeadline } from './deadline.js';
import type { TransferStore } from './identity.js';
import { ENSURE_LOCKS } from './mutex.js';
import { type Spendable, type TronNode, spendable } from './node.js';
import { SpendingCap } from '../utils/spending-cap.js';

// ---- public shapes ----

/** A TRC-20 token: a symbol this package knows (`USDT`, `USDC`, `USDD`) or a contract address. */
export type TokenRef = string;

/** What `client.transfers.estimate` estimates. */
export interface EstimateTransferParams {
  /** The sender (base58). */
  from: string;
  /** The recipient (base58). */
  to: string;
  /** `USDT`, `USDC`, `USDD` (TRON mainnet contracts) or a TRC-20 contract address. */
  token: TokenRef;
  /** Amount in token units, as a decimal string or number (`'10'`, `'0.5'`); never floating-point arithmetic. */
  amount: string | number;
  /**
   * How long the rental would last, in seconds.
   * @default 3600
   */
  duration?: number | undefined;
}

/** A token resolved on chain. */
export interface TokenInfo {
  address: string;
  symbol: string | undefined;
  decimals: number;
}

/** The rental that would cover an energy deficit, at the best current price. */
export interface RentalQuote {
  resource: 'ENERGY' | 'BANDWIDTH';
  /** Units to rent: the deficit rounded up to the provider minimum. */
  amount: number;
  duration_sec: number;
  provider: string;
  price_sun: number;
  /** What the order would cost, in SUN. */
  cost_sun: number;
}

/** What a TRC-20 transfer needs and costs (all SUN figures are exact integers). */
export interface TransferEstimate {
  from: string;
  to: string;
  token: TokenInfo;
  /** Amount in token units (decimal string) and atomic units (integer string). */
  amount: string;
  amount_atomic: string;
  /** Whether the recipient holds the token already (an empty recipient costs about twice the energy). */
  recipient_holds_token: boolean;
  energy: { needed: number; available: number; deficit: number };
  /** Bandwidth is all or nothing: a transaction that does not fit in what is left burns for all its bytes. */
  bandwidth: { needed: number; available: number; deficit: number };
  /** The chain's fee parameters (getchainparameters): SUN per energy unit and per bandwidth byte. */
  fees: { energy_sun: number; bandwidth_sun: number };
  /** Burning TRX for the deficits at those fees. */
  burn: { energy_sun: number; bandwidth_sun: number; total_sun: number };
  /** Renting the energy deficit instead (null when there is no deficit). */
  rent: RentalQuote | null;
  /** With the rental: its cost plus any bandwidth burn. */
  with_rental_sun: number;
  /** burn.total_sun - with_rental_sun (negative when renting would cost more). */
  saving_sun: number;
}

/** What `client.resources.ensure` makes sure an address has. */
export interface EnsureParams {
  /** The address that needs the resources (base58). */
  address: string;
  /** Energy it must be able to spend. */
  energy: number;
  /** Bandwidth it must be able to spend (optional; rented only when short). */
  bandwidth?: number | undefined;
  /** Rental duration in seconds. @default 3600 */
  duration?: number | undefined;
  /** Refuse (SPENDING_CAP_EXCEEDED, nothing ordered) when the orders would cost more, in SUN. */
  maxCostSun?: number | undefined;
  /** Reused for the order (and `<key>:bw` for a bandwidth order): a retried call never buys twice. */
  idempotencyKey?: string | undefined;
  /** The whole call (reads, order, fill, delegation) ends within this long: a TimeoutError after. @default 120000 */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Called with each step, for progress displays. */
  onProgress?: ((event: ProgressEvent) => void) | undefined;
  /**
   * Called with the plan when something would be bought, before ordering; return false (or
   * throw) to stop: nothing is ordered (error CANCELLED). Not called when nothing is missing.
   */
  confirm?: ((plan: EnsurePlan) => boolean | Promise<boolean>) | undefined;
}

/** What `client.resources.ensure` is about to buy (see {@link EnsureParams.confirm}). */
export interface EnsurePlan {
  address: string;
  before: Spendable;
  rentals: RentalQuote[];
  /** What the rentals cost at the best prices now, in SUN. */
  cost_sun: number;
}

// Type aliases (not interfaces) so they fit lenient, index-signature output schemas (MCP).
/** What `client.resources.ensure` did. */
export type EnsureResult = {
  address: string;
  /** What the address could spend before, and after the delegation showed on the node. */
  before: Spendable;
  after: Spendable;
  /** The energy order (null when nothing was bought), and a bandwidth order if one was needed. */
  order: Order | null;
  bandwidth_order: Order | null;
  bought: { energy: number; bandwidth: number };
  /** What the orders cost, in SUN (their total_cost_sun). */
  cost_sun: number;
};

/** Progress of ensure and send. */
export type ProgressEvent =
  | { step: 'estimated'; estimate: TransferEstimate }
  | { step: 'ordered'; order: Order }
  | { step: 'filled'; order: Order }
  | { step: 'delegated'; after: Spendable }
  | { step: 'signed'; tx_id: string; expiration: number }
  /** The broadcast request is about to leave: from here on the transfer may be sent. */
  | { step: 'broadcasting'; tx_id: string; expiration: number }
  | { step: 'broadcast'; tx_id: string }
  /** A retry found this key's transfer signed already: it is landed, never signed anew. */
  | { step: 'resumed'; tx_id: string; expiration: number }
  | { step: 'confirmed'; tx_id: string; block: number };

/** A TronWeb instance with a default account, as far as `transfers.send` uses one (it signs only). */
export interface SendTronWeb {
  defaultAddress?: { base58?: string | false } | undefined;
  trx: {
    /** Signs an unsigned transaction with the instance's key (or `privateKey`), as TronWeb's `trx.sign` does. */
    sign(tx: never, privateKey?: string): Promise<unknown>;
  };
}

/** Who signs a transfer: a private key (64 hex, used in this process only) or a TronWeb instance. */
export type TransferSigner = { privateKey: string } | SendTronWeb;

/** What `client.transfers.send` sends. */
export interface SendTransferParams extends Omit<EstimateTransferParams, 'from'> {
  /** The key or TronWeb instance that signs; the sender is its address. */
  signer: TransferSigner;
  /** Refuse (SPENDING_CAP_EXCEEDED) before ordering when renting would cost more, in SUN. */
  maxCostSun?: number | undefined;
  /**
   * Most TRX the transaction may burn, in SUN (the transaction's fee_limit).
   * @default the burn cost of the energy it needs, plus 10 %
   */
  feeLimitSun?: number | undefined;
  /** Skip renting and burn TRX instead (the estimate and report still show the comparison). */
  burn?: boolean | undefined;
  /**
   * The transfer's identity: the transaction is signed once and kept with this key (in the
   * client's `transferStore`) before it is broadcast, and the rental's order uses `<key>:energy`
   * (`<key>:bw`). A retry with the same key re-broadcasts that same transaction and waits for it
   * (never signing anew while it may still land), and finds the same order: it neither buys nor
   * sends twice. Without a key, one is made for the call (a retry is then not covered).
   */
  idempotencyKey?: string | undefined;
  /** Where this call keeps its signed transfer (overrides the client's `transferStore`). */
  transferStore?: TransferStore | undefined;
  /**
   * The most fee_limit may be, in SUN, whatever the node's figures imply (the chain's own
   * getMaxFeeLimit caps it too).
   * @default 100 TRX (100000000)
   */
  maxFeeLimitSun?: number | undefined;
  /**
   * Called with the estimate before anything is spent; return false (or throw) to stop: nothing
   * is ordered or sent (error CANCELLED).
   */
  confirm?: ((estimate: TransferEstimate) => boolean | Promise<boolean>) | Confirmation | undefined;
  /**
   * Which receipt `send` waits for: `'included'` (in a block on the node, the default) or
   * `'solidified'` (in a solidified, irreversible block: `/walletsolidity/gettransactioninfobyid`,
   * about a minute later on mainnet). `confirm: 'solidified'` is the same, when no confirmation
   * callback is needed. The result's `confirmed` says which it waited for.
   * @default 'included'
   */
  confirmation?: Confirmation | undefined;
  /** The whole call (estimate, rental, broadcast, receipt) ends within this long. @default 120000 */
  timeoutMs?: number | undefined;
  /** Abort at any step; once aborted nothing more is ordered or broadcast. */
  signal?: AbortSignal | undefined;
  /** Called at each step (estimate, order, delegation, broadcast, receipt), for progress output. */
  onProgress?: ((event: ProgressEvent) => void) | undefined;
}

/** How far `send` waits: the transfer in a block (`included`) or in a solidified block (`solidified`). */
export type Confirmation = 'included' | 'solidified';

/** The outcome of `client.transfers.send`: what was sent and what it cost against burning. */
export type SentTransfer = {
  tx_id: string;
  /** What the receipt was read from: a block on the node (`included`) or a solidified block (`solidified`). */
  confirmed: Confirmation;
  from: string;
  to: string;
  token: TokenInfo;
  amount: string;
  amount_atomic: string;
  /** The receipt (gettransactioninfobyid). */
  receipt: { block: number; result: string; energy_used: number; energy_burned_sun: number; bandwidth_used: number; bandwidth_burned_sun: number; fee_sun: number };
  /** The estimate made before signing (null when a retry resumed a transfer signed earlier). */
  estimate: TransferEstimate | null;
  /** True when this call found the key's transfer signed by an earlier call and landed it. */
  resumed: boolean;
  /** The rental, or null when the sender had the energy (or `burn` was asked). */
  ensure: EnsureResult | null;
  /** What renting cost, what the network burned, and both together, in SUN. */
  rent_cost_sun: number;
  burned_sun: number;
  total_cost_sun: number;
  /** What burning TRX for all the energy and bandwidth used would have cost, at the chain's fees. */
  burn_cost_sun: number;
  /** burn_cost_sun - total_cost_sun. */
  saving_sun: number;
};

/** What the engine runs on. */
export interface EngineDeps {
  http: HttpClient;
  node: TronNode;
  /** Where send keeps each signed transfer with its idempotency key. @default a fresh memory store (one call) */
  store?: TransferStore | undefined;
}

// ---- helpers ----

const DEFAULT_DURATION_SEC = 3600;
export const DEFAULT_TIMEOUT_MS = 120_000;
const TRANSFER_SELECTOR = 'transfer(address,uint256)';
// Bytes a node adds to a transaction's size for its result when charging bandwidth (java-tron MAX_RESULT_SIZE_IN_TX).
const RESULT_BYTES = 64;

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

function word(hex: string): string {
  return hex.padStart(64, '0');
}

/** ABI arguments of transfer(address,uint256), without the selector. */
function transferParameter(to: string, amount: bigint): string {
  return word(tronAddressToHex(to).slice(2)) + word(amount.toString(16));
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

/** Serialized size of a signed transaction (raw_data + one 65-byte signature) plus the result bytes nodes charge. */
export function bandwidthOf(rawDataHex: string): number {
  const raw = rawDataHex.length / 2;
  let lenBytes = 1;
  for (let n = raw; n >= 0x80; n >>>= 7) lenBytes++;
  return 1 + lenBytes + raw + (1 + 1 + 65) + RESULT_BYTES;
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
    if (!Number.isSafeInteger(decimals) || decimals < 0 || decimals > 36) throw invalid('token', `${ref} answers no usable decimals(): is it a TRC-20 contract?`);
    return { address: ref, symbol: undefined, decimals };
  }
  const known = mainnet.find((t) => t.symbol === ref.toUpperCase());
  if (!known) throw invalid('token', `unknown token ${JSON.stringify(ref)}: use ${[...new Set(mainnet.map((t) => t.symbol))].join(', ')} or a contract address`);
  return { address: known.address, symbol: known.symbol, decimals: known.decimals };
}

async function balanceOf(node: TronNode, token: TokenInfo, owner: string, who: string, signal?: AbortSignal): Promise<bigint> {
  const result = await node.triggerConstantContract(
    { owner, contract: token.address, functionSelector: 'balanceOf(address)', parameter: word(tronAddressToHex(who).slice(2)) },
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

function bounded(value: number, max: number, what: string): number {
  if (!Number.isSafeInteger(value) || value <= 0 || value > max) {
    throw new TrxRentError({ code: 'NODE_ERROR', message: `The node reports ${what} = ${value}, outside 1…${max}; nothing was ordered or sent`, details: { field: what, value, max } });
  }
  return value;
}

/** The chain's fee parameters, bounded; `max_fee_limit_sun` is getMaxFeeLimit when the node reports it. */
export async function chainFees(node: TronNode, signal?: AbortSignal): Promise<{ energy_sun: number; bandwidth_sun: number; max_fee_limit_sun: number | undefined }> {
  const params = await node.getChainParameters({ signal });
  const energy = params.get('getEnergyFee');
  const bandwidth = params.get('getTransactionFee');
  if (energy === undefined || bandwidth === undefined) throw new TrxRentError({ code: 'NODE_ERROR', message: 'getchainparameters reports no getEnergyFee/getTransactionFee' });
  const maxFeeLimit = params.get('getMaxFeeLimit');
  return {
    energy_sun: bounded(energy, NODE_BOUNDS.maxEnergyFeeSun, 'getEnergyFee'),
    bandwidth_sun: bounded(bandwidth, NODE_BOUNDS.maxBandwidthFeeSun, 'getTransactionFee'),
    max_fee_limit_sun: maxFeeLimit === undefined ? undefined : bounded(maxFeeLimit, NODE_BOUNDS.maxFeeLimitSun, 'getMaxFeeLimit'),
  };
}

async function fees(node: TronNode, signal?: AbortSignal): Promise<{ energy_sun: number; bandwidth_sun: number }> {
  const { energy_sun, bandwidth_sun } = await chainFees(node, signal);
  return { energy_sun, bandwidth_sun };
}

async function quote(orders: Orders, resource: 'ENERGY' | 'BANDWIDTH', deficit: number, duration: number, signal?: AbortSignal): Promise<RentalQuote> {
  const minimum = resource === 'ENERGY' ? LIMITS.MIN_ENERGY_AMOUNT : LIMITS.MIN_BANDWIDTH_AMOUNT;
  const amount = Math.max(deficit, minimum);
  const preview = await orders.preview({ resource, amount, duration }, { signal });
  if (!preview.best) {
    throw new TrxRentError({ code: 'PROVIDER_UNAVAILABLE', message: `No provider can rent ${amount} ${resource} for ${duration} s now; nothing was ordered` });
  }
  return { resource, amount, duration_sec: duration, provider: preview.best.provider, price_sun: Number(preview.best.price_sun), cost_sun: optionCost(preview.best, amount) };
}

// ---- estimate ----

/**
 * What makes a transfer fail on chain, refused before anything is rented (send calls estimate
 * first): a sender the chain does not know (java-tron answers `getaccount` with `{}` until TRX
 * or an AccountCreate reaches it; it could pay no fee), a token balance below the amount, and a
 * simulation that fails (a blacklisted sender, a paused token: the contract's revert reason).
 * Returns the successful simulation.
 */
async function refuseEarly(node: TronNode, t: { from: string; to: string; token: TokenInfo; atomic: bigint }, signal?: AbortSignal) {
  const { from, token, atomic } = t;
  const account = await node.getAccount(from, { signal });
  if (account.address === undefined && account.balance === 0 && account.create_time === 0) {
    throw new TrxRentError({
      code: 'SENDER_NOT_ACTIVATED',
      message: `${from} does not exist on chain (never activated): send it TRX first (any amount activates it, and it pays the bandwidth); nothing was ordered or sent`,
      details: { field: 'from', address: from },
    });
  }
  // A node simulates the transfer by running it: beyond the sender's balance it reverts. Say so plainly.
  const held = await balanceOf(node, token, from, from, signal);
  if (held < atomic) {
    throw new TrxRentError({
      code: 'INSUFFICIENT_TOKEN_BALANCE',
      message: `${from} holds ${atomicToDecimal(held, token.decimals)} ${token.symbol ?? token.address}, less than ${atomicToDecimal(atomic, token.decimals)}; nothing was ordered or sent`,
      details: { field: 'amount', balance: atomicToDecimal(held, token.decimals) },
    });
  }
  try {
    return await node.triggerConstantContract({ owner: from, contract: token.address, functionSelector: TRANSFER_SELECTOR, parameter: transferParameter(t.to, atomic) }, { signal });
  } catch (error) {
    if (!(error instanceof TrxRentError) || error.code !== 'SIMULATION_FAILED') throw error;
    const why = String(error.details?.reason ?? error.message);
    throw new TrxRentError({
      code: 'SIMULATION_FAILED',
      message: `The transfer would fail on chain: the node's simulation ${error.details?.reverted ? 'reverted' : 'failed'} (${why}); nothing was ordered or sent`,
      details: { ...error.details, field: 'from' },
      cause: error,
    });
  }
}

/** What a TRC-20 transfer needs and costs: burning TRX for it against renting the energy. Spends nothing. */
export async function estimateTransfer(deps: EngineDeps, params: EstimateTransferParams, options: { signal?: AbortSignal | undefined } = {}): Promise<TransferEstimate> {
  const { node } = deps;
  const signal = options.signal;
  const from = address(params?.from, 'from');
  const to = address(params?.to, 'to');
  if (from === to) throw invalid('to', 'is the sender');
  const duration = params.duration === undefined ? DEFAULT_DURATION_SEC : positiveInt(params.duration, 'duration');
  const token = await resolveToken(node, params.token, from, signal);
  if (typeof params.amount !== 'string' && typeof params.amount !== 'number') throw invalid('amount', 'a decimal amount of the token is required');
  const atomic = decimalToAtomic(params.amount, token.decimals, 'amount');
  if (atomic <= 0n) throw invalid('amount', 'must be more than 0');
  if (atomic >= 2n ** 256n) throw invalid('amount', 'is too large');

  const simulated = await refuseEarly(node, { from, to, token, atomic }, signal);
  const [resource, fee, recipientBalance, block] = await Promise.all([
    node.getAccountResource(from, { signal }),
    fees(node, signal),
    balanceOf(node, token, from, to, signal),
    node.getNowBlock({ signal }),
  ]);
  const energyNeeded = simulated.energy_used;
  if (!(energyNeeded > 0)) throw new TrxRentError({ code: 'NODE_ERROR', message: 'triggerconstantcontract reported no energy for the transfer' });
  bounded(energyNeeded, NODE_BOUNDS.maxTransferEnergy, 'energy_used');
  // The size of the transaction as it will be sent (signing code loads here, not with the core).
  const { buildTrc20Transfer } = await import('../protocol/tron-transaction.js');
  const unsigned = buildTrc20Transfer({ from, contract: token.address, to, amount: atomic, refBlock: { number: block.number, hash: block.id }, now: deps.http.clock.now(), feeLimitSun: defaultFeeLimit(energyNeeded, fee.energy_sun) });
  const bandwidthNeeded = bandwidthOf(unsigned.raw_data_hex);

  const have = spendable(resource);
  const energyDeficit = Math.max(0, energyNeeded - have.energy);
  const bandwidthDeficit = have.bandwidth >= bandwidthNeeded ? 0 : bandwidthNeeded;
  const burn = { energy_sun: energyDeficit * fee.energy_sun, bandwidth_sun: bandwidthDeficit * fee.bandwidth_sun, total_sun: 0 };
  burn.total_sun = burn.energy_sun + burn.bandwidth_sun;
  const rent = energyDeficit > 0 ? await quote(new Orders(deps.http), 'ENERGY', energyDeficit, duration, signal) : null;
  const withRental = (rent?.cost_sun ?? 0) + burn.bandwidth_sun;
  return {
    from,
    to,
    token,
    amount: atomicToDecimal(atomic, token.decimals),
    amount_atomic: atomic.toString(),
    recipient_holds_token: recipientBalance > 0n,
    energy: { needed: energyNeeded, available: have.energy, deficit: energyDeficit },
    bandwidth: { needed: bandwidthNeeded, available: have.bandwidth, deficit: bandwidthDeficit },
    fees: fee,
    burn,
    rent,
    with_rental_sun: withRental,
    saving_sun: burn.total_sun - withRental,
  };
}

// ---- ensure ----

async function prepareEnsure(deps: EngineDeps, params: EnsureParams) {
  const target = address(params?.address, 'address');
  const energy = positiveInt(params.energy, 'energy', true);
  const bandwidth = params.bandwidth === undefined ? 0 : positiveInt(params.bandwidth, 'bandwidth', true);
  const duration = params.duration === undefined ? DEFAULT_DURATION_SEC : positiveInt(params.duration, 'duration');
  const maxCost = optionalSun(params.maxCostSun, 'maxCostSun');
  const key = params.idempotencyKey;
  if (key !== undefined && (typeof key !== 'string' || key === '' || key.length > LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH - 3)) {
    throw invalid('idempotencyKey', `must be 1 to ${LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH - 3} characters`);
  }
  const orders = new Orders(deps.http);
  const before = spendable(await deps.node.getAccountResource(target, { signal: params.signal }));
  const rentals: RentalQuote[] = [];
  const energyDeficit = Math.max(0, energy - before.energy);
  const bandwidthDeficit = Math.max(0, bandwidth - before.bandwidth);
  if (energyDeficit > 0) rentals.push(await quote(orders, 'ENERGY', energyDeficit, duration, params.signal));
  if (bandwidthDeficit > 0) rentals.push(await quote(orders, 'BANDWIDTH', bandwidthDeficit, duration, params.signal));
  const plan: EnsurePlan = { address: target, before, rentals, cost_sun: rentals.reduce((sum, q) => sum + q.cost_sun, 0) };
  return { target, energy, bandwidth, duration, maxCost, key, orders, plan };
}

/** What `client.resources.ensure` would buy now and what it would cost (reads and previews; orders nothing). */
export async function planEnsure(deps: EngineDeps, params: EnsureParams): Promise<EnsurePlan> {
  return (await prepareEnsure(deps, params)).plan;
}

/** How `transfers.send` runs an ensure inside its own call: its order keys and deadline. */
export interface EnsureInternals {
  /** Idempotency-Key of the energy order and of the bandwidth order (`K:energy`, `K:bw`). */
  orderKeys?: { energy: string; bandwidth: string } | undefined;
  /** The caller's deadline (send's total timeout). */
  deadline?: Deadline | undefined;
}

/** Attach what is known (stage, order id, keys) to an error from a step that may have had an effect. */
export function withDetails(error: unknown, extra: Record<string, unknown>): unknown {
  if (error instanceof TrxRentError || (error instanceof Error && 'details' in error)) {
    const known = (error as { details?: Record<string, unknown> }).details ?? {};
    // The first stage that caught it is the one that knows best; later layers only add.
    (error as { details: Record<string, unknown> }).details = { ...extra, ...known, ...('stage' in known ? {} : { stage: extra.stage }) };
    return error;
  }
  if (error instanceof Error && error.name === 'AbortError') {
    return new TrxRentError({ code: 'CANCELLED', message: `Cancelled (${String(extra.stage)} stage)`, details: extra, cause: error });
  }
  return error;
}

/**
 * Make sure `address` can spend `energy` (and `bandwidth`): read what it has on the node, buy
 * only the deficit (rounded up to the provider minimum), wait until the order is FILLED and the
 * delegation shows on the node. Finding enough already, it buys nothing. One process runs one
 * ensure per address at a time (a second waits, then finds the first one's delegation).
 * `timeoutMs` bounds the whole call. With `maxCostSun`, every order carries `max_price_sun`,
 * and a fill charged above the cap is an error (SPENDING_CAP_EXCEEDED naming the order).
 */
export async function ensureResources(deps: EngineDeps, params: EnsureParams, internals: EnsureInternals = {}): Promise<EnsureResult> {
  const target = address(params?.address, 'address');
  const clock = deps.http.clock;
  const timeoutMs = params.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = internals.deadline ?? startDeadline(clock, positiveInt(timeoutMs, 'timeoutMs'), params.signal);
  const run = () => ensureLocked(deps, { ...params, signal: deadline.signal }, internals, deadline);
  try {
    return await ENSURE_LOCKS.run(target, run, deadline.signal);
  } catch (error) {
    throw deadline.translate(error, `resources.ensure for ${target} did not finish within ${timeoutMs} ms`);
  }
}

async function ensureLocked(deps: EngineDeps, params: EnsureParams, internals: EnsureInternals, deadline: Deadline): Promise<EnsureResult> {
  const { target, energy, bandwidth, duration, maxCost, key, orders, plan } = await prepareEnsure(deps, params);
  const { signal, onProgress } = params;
  const { before, rentals: quotes, cost_sun: quoted } = plan;
  // The call's cap is the shared primitive's per-call limit (utils/spending-cap.ts), as the x402 budget and the MCP guard.
  if (maxCost !== undefined && new SpendingCap({ perCall: BigInt(maxCost) }).refusal(BigInt(quoted)) !== undefined) {
    throw new TrxRentError({
      code: 'SPENDING_CAP_EXCEEDED',
      message: `Renting ${quotes.map((q) => `${q.amount} ${q.resource}`).join(' and ')} costs ${quoted} SUN now, above the cap of ${maxCost} SUN; nothing was ordered`,
      details: { cost_sun: quoted, max_cost_sun: maxCost },
    });
  }
  if (quotes.length && params.confirm && !(await params.confirm(plan))) {
    throw new TrxRentError({ code: 'CANCELLED', message: 'Cancelled before anything was ordered' });
  }
  const result: EnsureResult = { address: target, before, after: before, order: null, bandwidth_order: null, bought: { energy: 0, bandwidth: 0 }, cost_sun: 0 };
  for (const q of quotes) {
    checkAbort(signal);
    // With a cap, the price per unit is capped too, so a market move cannot take the order past
    // it; a quote of 0 still shares the cap out (by amount), so the cap always reaches the service.
    const capShare =
      maxCost === undefined ? undefined : quoted > 0 ? Math.floor((maxCost * q.cost_sun) / quoted) : Math.floor((maxCost * q.amount) / quotes.reduce((n, r) => n + r.amount, 0));
    const maxPrice = capShare === undefined ? undefined : capShare / q.amount;
    if (maxPrice !== undefined && !(maxPrice > 0)) {
      throw new TrxRentError({
        code: 'SPENDING_CAP_EXCEEDED',
        message: `A cap of ${maxCost} SUN leaves no price per unit for ${q.amount} ${q.resource}; nothing was ordered`,
        details: { field: 'maxCostSun', max_cost_sun: maxCost },
      });
    }
    const orderKey = internals.orderKeys ? (q.resource === 'ENERGY' ? internals.orderKeys.energy : internals.orderKeys.bandwidth) : key === undefined ? undefined : q.resource === 'ENERGY' ? key : `${key}:bw`;
    let created: Order;
    try {
      created = await orders.create(
        { resource_type: q.resource, amount: q.amount, duration_sec: duration, target_address: target, ...(maxPrice !== undefined ? { max_price_sun: maxPrice } : {}) },
        { signal, idempotencyKey: orderKey, timeoutMs: deadline.budget() },
      );
    } catch (error) {
      // The request may have created the order: its key finds it again without buying twice.
      throw withDetails(error, { stage: 'order', ...(orderKey ? { order_key: orderKey } : {}) });
    }
    onProgress?.({ step: 'ordered', order: created });
    let filled: Order;
    try {
      filled = await orders.waitFor(created.id, { signal, timeoutMs: Math.max(1, deadline.left()), pollIntervalMs: 250, maxPollIntervalMs: 2_000 });
    } catch (error) {
      throw withDetails(error, { stage: 'delegation', order_id: created.id, ...(orderKey ? { order_key: orderKey } : {}) });
    }
    onProgress?.({ step: 'filled', order: filled });
    const charged = Number(filled.total_cost_sun ?? q.cost_sun);
    if (capShare !== undefined && charged > capShare) {
      throw new TrxRentError({
        code: 'SPENDING_CAP_EXCEEDED',
        message: `Order ${filled.id} was charged ${charged} SUN, above its share of the cap (${capShare} of ${maxCost} SUN); stopped here`,
        details: { stage: 'order', order_id: filled.id, charged_sun: charged, max_cost_sun: maxCost, cap_share_sun: capShare },
      });
    }
    if (q.resource === 'ENERGY') {
      result.order = filled;
      result.bought.energy = q.amount;
    } else {
      result.bandwidth_order = filled;
      result.bought.bandwidth = q.amount;
    }
    result.cost_sun += charged;
  }
  if (quotes.length === 0) return result;

  // FILLED is the service's word; the node's is the one a transaction will meet.
  const orderIds = { order_id: result.order?.id ?? result.bandwidth_order?.id };
  try {
    result.after = await pollUntil<Spendable>(
      async () => {
        const now = spendable(await deps.node.getAccountResource(target, { signal, timeoutMs: deadline.budget() }));
        return now.energy >= energy && now.bandwidth >= bandwidth ? { done: true, value: now } : { done: false, last: now };
      },
      {
        timeoutMs: deadline.left(),
        clock: deps.http.clock,
        signal,
        intervalMs: 250,
        maxIntervalMs: 2_000,
        factor: 2,
        timeoutMessage: (last) => {
          const now = last as Spendable | undefined;
          return `The order is FILLED but ${target} can spend only ${now?.energy ?? 0} energy and ${now?.bandwidth ?? 0} bandwidth on the node (wanted ${energy} and ${bandwidth}) after ${params.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`;
        },
      },
    );
  } catch (error) {
    throw withDetails(error, { stage: 'delegation', ...orderIds });
  }
  onProgress?.({ step: 'delegated', after: result.after });
  return result;
}

