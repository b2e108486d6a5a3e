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
import { TimeoutError, TrxRentError, ValidationError } from '../errors/index.js';
import type { HttpClient } from '../http/client.js';
import { sleep } from '../http/retry.js';
import { KNOWN_TOKENS, NETWORKS } from '../protocol/networks.js';
import { Orders } from '../resources/orders.js';
import { Transactions } from '../resources/transactions.js';
import { LIMITS } from '../schemas/limits.js';
import type { Order } from '../schemas/orders.js';
import type { PreviewOption } from '../schemas/prices.js';
import { isTronAddress, tronAddressToHex } from '../utils/address.js';
import { atomicToDecimal, decimalToAtomic, trxToSun } from '../utils/units.js';
import { type Spendable, type TronNode, spendable } from './node.js';

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
  /** Give up waiting for the fill and the delegation after this long. @default 120000 */
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
  | { step: 'signed'; tx_id: string }
  | { step: 'broadcast'; tx_id: string }
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
  /** Passed to the order (see {@link EnsureParams.idempotencyKey}). */
  idempotencyKey?: string | undefined;
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
  /** Give up waiting (fill, delegation, receipt) after this long. @default 120000 */
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
  estimate: TransferEstimate;
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
}

// ---- helpers ----

const DEFAULT_DURATION_SEC = 3600;
const DEFAULT_TIMEOUT_MS = 120_000;
const TRANSFER_SELECTOR = 'transfer(address,uint256)';
// Bytes a node adds to a transaction's size for its result when charging bandwidth (java-tron MAX_RESULT_SIZE_IN_TX).
const RESULT_BYTES = 64;

function invalid(field: string, message: string): ValidationError {
  return new ValidationError({ code: 'VALIDATION_ERROR', message: `${field}: ${message}`, details: { field } });
}

function address(value: unknown, field: string): string {
  if (typeof value !== 'string' || !isTronAddress(value)) throw invalid(field, `not a valid TRON address: ${String(value)}`);
  return value;
}

function positiveInt(value: unknown, field: string, allowZero = false): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < (allowZero ? 0 : 1)) {
    throw invalid(field, `must be a ${allowZero ? 'non-negative' : 'positive'} whole number, not ${String(value)}`);
  }
  return value;
}

function optionalSun(value: unknown, field: string): number | undefined {
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
function defaultFeeLimit(energy: number, energyFeeSun: number): number {
  return Math.ceil(energy * energyFeeSun * 1.1);
}

function checkAbort(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new TrxRentError({ code: 'CANCELLED', message: 'Cancelled' });
}

/** Serialized size of a signed transaction (raw_data + one 65-byte signature) plus the result bytes nodes charge. */
function bandwidthOf(rawDataHex: string): number {
  const raw = rawDataHex.length / 2;
  let lenBytes = 1;
  for (let n = raw; n >= 0x80; n >>>= 7) lenBytes++;
  return 1 + lenBytes + raw + (1 + 1 + 65) + RESULT_BYTES;
}

async function resolveToken(node: TronNode, ref: TokenRef, owner: string, signal?: AbortSignal): Promise<TokenInfo> {
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

async function fees(node: TronNode, signal?: AbortSignal): Promise<{ energy_sun: number; bandwidth_sun: number }> {
  const params = await node.getChainParameters({ signal });
  const energy = params.get('getEnergyFee');
  const bandwidth = params.get('getTransactionFee');
  if (!energy || !bandwidth) throw new TrxRentError({ code: 'NODE_ERROR', message: 'getchainparameters reports no getEnergyFee/getTransactionFee' });
  return { energy_sun: energy, bandwidth_sun: bandwidth };
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
  // The size of the transaction as it will be sent (signing code loads here, not with the core).
  const { buildTrc20Transfer } = await import('../protocol/tron-transaction.js');
  const unsigned = buildTrc20Transfer({ from, contract: token.address, to, amount: atomic, refBlock: { number: block.number, hash: block.id }, now: Date.now(), feeLimitSun: defaultFeeLimit(energyNeeded, fee.energy_sun) });
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

/**
 * Make sure `address` can spend `energy` (and `bandwidth`): read what it has on the node, buy
 * only the deficit (rounded up to the provider minimum), wait until the order is FILLED and the
 * delegation shows on the node. Finding enough already, it buys nothing.
 */
export async function ensureResources(deps: EngineDeps, params: EnsureParams): Promise<EnsureResult> {
  const { target, energy, bandwidth, duration, maxCost, key, orders, plan } = await prepareEnsure(deps, params);
  const { signal, onProgress } = params;
  const deadline = Date.now() + (params.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const { before, rentals: quotes, cost_sun: quoted } = plan;
  if (maxCost !== undefined && quoted > maxCost) {
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
    // With a cap, the price per unit is capped too, so a market move cannot take the order past it.
    const capShare = maxCost === undefined ? undefined : Math.floor((maxCost * q.cost_sun) / Math.max(quoted, 1));
    const maxPrice = capShare === undefined ? undefined : capShare / q.amount;
    const created = await orders.create(
      { resource_type: q.resource, amount: q.amount, duration_sec: duration, target_address: target, ...(maxPrice ? { max_price_sun: maxPrice } : {}) },
      { signal, idempotencyKey: key === undefined ? undefined : q.resource === 'ENERGY' ? key : `${key}:bw` },
    );
    onProgress?.({ step: 'ordered', order: created });
    const filled = await orders.waitFor(created.id, { signal, timeoutMs: Math.max(1_000, deadline - Date.now()), pollIntervalMs: 250, maxPollIntervalMs: 2_000 });
    onProgress?.({ step: 'filled', order: filled });
    if (q.resource === 'ENERGY') {
      result.order = filled;
      result.bought.energy = q.amount;
    } else {
      result.bandwidth_order = filled;
      result.bought.bandwidth = q.amount;
    }
    result.cost_sun += Number(filled.total_cost_sun ?? q.cost_sun);
  }
  if (quotes.length === 0) return result;

  // FILLED is the service's word; the node's is the one a transaction will meet.
  for (let interval = 250; ; interval = Math.min(2_000, interval * 2)) {
    const now = spendable(await deps.node.getAccountResource(target, { signal }));
    if (now.energy >= energy && now.bandwidth >= bandwidth) {
      result.after = now;
      onProgress?.({ step: 'delegated', after: now });
      return result;
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new TimeoutError(
        `The order is FILLED but ${target} can spend only ${now.energy} energy and ${now.bandwidth} bandwidth on the node (wanted ${energy} and ${bandwidth}) after ${params.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`,
      );
    }
    await sleep(Math.min(interval, left), signal);
  }
}

// ---- send ----

function signerAddress(signer: TransferSigner, toAddress: (key: string) => string): { from: string; privateKey?: string; tronWeb?: SendTronWeb } {
  if (signer && typeof signer === 'object' && 'trx' in signer) {
    const from = signer.defaultAddress?.base58 || '';
    if (!isTronAddress(from)) throw invalid('signer', 'the TronWeb instance has no default address');
    return { from, tronWeb: signer };
  }
  const key = (signer as { privateKey?: unknown } | undefined)?.privateKey;
  try {
    return { from: toAddress(String(key ?? '')), privateKey: String(key).replace(/^0x/i, '') };
  } catch {
    throw invalid('signer.privateKey', 'must be 64 hex characters (with or without 0x), or pass a TronWeb instance');
  }
}

/**
 * Send a TRC-20 transfer without burning TRX for its energy: estimate, ensure (rent the
 * deficit), build and sign locally, broadcast through the service (`client.transactions.broadcast`),
 * wait for the receipt, and report the cost against burning. If the order fails, nothing is
 * signed or sent and the error says why.
 */
export async function sendTransfer(deps: EngineDeps, params: SendTransferParams): Promise<SentTransfer> {
  const tx = await import('../protocol/tron-transaction.js');
  const { signal, onProgress } = params ?? {};
  const who = signerAddress(params?.signer, tx.privateKeyToTronAddress);
  const maxCost = optionalSun(params.maxCostSun, 'maxCostSun');
  const feeLimitGiven = optionalSun(params.feeLimitSun, 'feeLimitSun');
  const deadline = Date.now() + (params.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const confirmed = confirmationOf(params);
  const estimate = await estimateTransfer(deps, { from: who.from, to: params.to, token: params.token, amount: params.amount, duration: params.duration }, { signal });
  onProgress?.({ step: 'estimated', estimate });

  // Refuse what cannot succeed before anything is rented (the estimate has checked the tokens).
  const account = await deps.node.getAccount(who.from, { signal });
  const mustBurn = params.burn ? estimate.burn.total_sun : estimate.burn.bandwidth_sun;
  if (account.balance < mustBurn) {
    throw new TrxRentError({
      code: 'INSUFFICIENT_TRX',
      message: `${who.from} holds ${account.balance} SUN but the transfer would burn ${mustBurn} SUN; nothing was ordered or sent`,
      details: { balance_sun: account.balance, needed_sun: mustBurn },
    });
  }
  if (typeof params.confirm === 'function' && !(await params.confirm(estimate))) {
    throw new TrxRentError({ code: 'CANCELLED', message: 'Cancelled before anything was ordered or sent' });
  }
  checkAbort(signal);

  let ensured: EnsureResult | null = null;
  if (!params.burn && estimate.energy.deficit > 0) {
    try {
      ensured = await ensureResources(deps, {
        address: who.from,
        energy: estimate.energy.needed,
        duration: params.duration,
        maxCostSun: maxCost,
        idempotencyKey: params.idempotencyKey,
        timeoutMs: Math.max(1_000, deadline - Date.now()),
        signal,
        onProgress,
      });
    } catch (error) {
      if (error instanceof TrxRentError && error.code !== 'CANCELLED') {
        const reason = error.code === 'ORDER_FAILED' ? orderFailure(error) : error.message;
        throw new TrxRentError({
          code: error.code,
          message: `The transfer was not sent: renting energy failed (${reason})`,
          status: error.status,
          details: { ...error.details, transfer_sent: false },
          cause: error,
        });
      }
      throw error;
    }
  }
  checkAbort(signal);

  const block = await deps.node.getNowBlock({ signal });
  const feeLimit = feeLimitGiven ?? defaultFeeLimit(estimate.energy.needed, estimate.fees.energy_sun);
  const unsigned = tx.buildTrc20Transfer({
    from: who.from,
    contract: estimate.token.address,
    to: estimate.to,
    amount: BigInt(estimate.amount_atomic),
    refBlock: { number: block.number, hash: block.id },
    now: Date.now(),
    feeLimitSun: feeLimit,
  });
  const signed = (who.privateKey ? tx.signTransaction(unsigned, who.privateKey) : await who.tronWeb!.trx.sign(unsigned as never)) as typeof unsigned & { signature: string[] };
  // Trust only raw_data_hex: it must be exactly the transfer built here, signed by the sender.
  const check = tx.verifySignedTransaction(signed);
  const d = check.ok ? check.decoded : undefined;
  if (!d || d.txID !== unsigned.txID || d.ownerAddress !== who.from || d.trc20Transfer?.to !== estimate.to || d.trc20Transfer.amount !== BigInt(estimate.amount_atomic)) {
    throw new TrxRentError({ code: 'INVALID_TRANSACTION', message: `The signed transfer is not the one built${check.ok ? '' : ` (${check.reason})`}; nothing was sent` });
  }
  onProgress?.({ step: 'signed', tx_id: d.txID });
  checkAbort(signal);
  // No signal on the broadcast itself: once it is on its way, an abort could only hide the outcome.
  const broadcast = await new Transactions(deps.http).broadcast({ signed_tx: signed });
  const txId = broadcast.tx_id || d.txID;
  onProgress?.({ step: 'broadcast', tx_id: txId });

  let info;
  for (let interval = 500; ; interval = Math.min(3_000, interval * 2)) {
    info = await deps.node.getTransactionInfo(txId, { signal, solidified: confirmed === 'solidified' });
    if (info) break;
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new TimeoutError(`Transfer ${txId} was broadcast but is in no ${confirmed === 'solidified' ? 'solidified ' : ''}block after ${params.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms; check it before sending again`);
    }
    await sleep(Math.min(interval, left), signal);
  }
  const receipt = info.receipt;
  const result = receipt?.result ?? info.result ?? 'SUCCESS';
  onProgress?.({ step: 'confirmed', tx_id: txId, block: info.blockNumber! });
  const energyUsed = receipt?.energy_usage_total || (receipt?.energy_usage ?? 0) + (receipt?.origin_energy_usage ?? 0);
  const report: SentTransfer = {
    tx_id: txId,
    confirmed,
    from: who.from,
    to: estimate.to,
    token: estimate.token,
    amount: estimate.amount,
    amount_atomic: estimate.amount_atomic,
    receipt: {
      block: info.blockNumber!,
      result,
      energy_used: energyUsed,
      energy_burned_sun: receipt?.energy_fee ?? 0,
      bandwidth_used: receipt?.net_usage ?? 0,
      bandwidth_burned_sun: receipt?.net_fee ?? 0,
      fee_sun: info.fee,
    },
    estimate,
    ensure: ensured,
    rent_cost_sun: ensured?.cost_sun ?? 0,
    burned_sun: info.fee,
    total_cost_sun: (ensured?.cost_sun ?? 0) + info.fee,
    burn_cost_sun: energyUsed * estimate.fees.energy_sun + (receipt?.net_fee ?? 0),
    saving_sun: 0,
  };
  report.saving_sun = report.burn_cost_sun - report.total_cost_sun;
  if (result !== 'SUCCESS') {
    throw new TrxRentError({
      code: 'TRANSFER_FAILED',
      message: `Transfer ${txId} was mined but failed: ${result}${info.resMessage ? ` (${info.resMessage})` : ''}`,
      details: { report },
    });
  }
  return report;
}

/** `confirmation`, or `confirm` given as a level; anything else is a VALIDATION_ERROR naming the field. */
function confirmationOf(params: SendTransferParams): Confirmation {
  const level = params.confirmation ?? (typeof params.confirm === 'string' ? params.confirm : undefined) ?? 'included';
  if (level !== 'included' && level !== 'solidified') throw invalid(params.confirmation !== undefined ? 'confirmation' : 'confirm', `must be 'included' or 'solidified', not ${String(level)}`);
  return level;
}

function orderFailure(error: TrxRentError): string {
  const order = (error.details?.order ?? {}) as { id?: unknown; status?: unknown; failure_reason?: unknown; failure_message?: unknown };
  const why = [order.failure_reason, order.failure_message].filter((v) => typeof v === 'string' && v).join(': ');
  return `order ${String(order.id)} ended ${String(order.status ?? 'FAILED')}${why ? `: ${why}` : ''}`;
}
