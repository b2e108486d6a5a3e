/**
 * Planning a sweep before anything is spent: each source's token balance (`balanceOf`) and account
 * read on the node (bounded concurrency), those holding at least `min` kept; for each, whether it
 * must be activated first (a TRC-20 receipt creates no account on java-tron), the energy its
 * transfer to the treasury needs (simulated on the node from the source: `triggerconstantcontract`),
 * its bandwidth against what it has (an account's free 600 a day covers one transfer), and one
 * energy order (the spec's order has one target address, so sources cannot share one; each is at
 * least the service's minimum of 65,000). Costed against burning TRX at each source instead.
 * @module
 */
import { TrxRentError } from '../../errors/index.js';
import { encodeTransferArgs } from '../../protocol/abi.js';
import { LIMITS } from '../../schemas/limits.js';
import { DEFAULT_ACTIVATION_SUN } from '../../tron/activate.js';
import {
  DEFAULT_DURATION_SEC,
  NODE_BOUNDS,
  TRANSFER_SELECTOR,
  address,
  balanceOf,
  bandwidthOf,
  bounded,
  chainFees,
  defaultFeeLimit,
  invalid,
  optionCost,
  resolveToken,
} from '../../tron/inputs.js';
import { spendable } from '../../tron/node.js';
import { isAccount } from '../../tron/target.js';
import type { TokenInfo } from '../../tron/types.js';
import { sha256 } from '../../utils/base58check.js';
import { atomicToDecimal, decimalToAtomic } from '../../utils/units.js';
import { eachLimit } from '../payouts/deps.js';
import type { SweepDeps } from './deps.js';
import type { SweepPlan, SweepPlanSource } from './types.js';

/** What the account's free bandwidth is when the node reports none (java-tron's getFreeNetLimit on mainnet). */
const FREE_NET_LIMIT = 600;

/** The sources' hash (the treasury, the token and the set of sources, in any order) and a key from it, or the caller's key. */
export function sweepKeyOf(to: string, token: string, addresses: readonly string[], given?: string): { key: string; hash: string } {
  const digest = sha256(new TextEncoder().encode(`${to}\n${token}\n${[...addresses].sort().join('\n')}`));
  const hash = Array.from(digest.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join('');
  if (given !== undefined && !/^[A-Za-z0-9._-]{1,20}$/.test(given)) throw invalid('key', 'letters, digits, . _ - only, at most 20 characters');
  return { key: given ?? `sw-${hash}`, hash };
}

/** The minimum to sweep, in atomic units (at least 1). */
export function minAtomic(min: string | number | undefined, token: TokenInfo): bigint {
  if (min === undefined) return 1n;
  const atomic = decimalToAtomic(typeof min === 'number' ? String(min) : min, token.decimals, 'min');
  return atomic < 1n ? 1n : atomic;
}

/** The token and its fees: read once for a plan. */
export async function sweepContext(deps: SweepDeps, to: string, tokenRef: string | undefined, signal?: AbortSignal) {
  const treasury = address(to, 'to');
  const token = await resolveToken(deps.node, tokenRef ?? 'USDT', treasury, signal);
  if (treasury === token.address) throw invalid('to', `is the ${token.symbol ?? 'token'} contract itself: tokens sent to it are lost`);
  const [fees, params] = await Promise.all([chainFees(deps.node, signal), deps.node.getChainParameters({ signal })]);
  const create = (params.get('getCreateNewAccountFeeInSystemContract') ?? 1_000_000) + (params.get('getCreateAccountFee') ?? 100_000);
  const freeNet = params.get('getFreeNetLimit') ?? FREE_NET_LIMIT;
  return { treasury, token, fees: { energy_sun: fees.energy_sun, bandwidth_sun: fees.bandwidth_sun, create_account_sun: create }, freeNet };
}

/** Read every source and plan (see the module comment). Spends nothing. */
export async function planSweep(
  deps: SweepDeps,
  addresses: readonly string[],
  options: {
    to: string;
    min?: string | number | undefined;
    token?: string | undefined;
    duration?: number | undefined;
    readConcurrency?: number | undefined;
    key?: string | undefined;
    signal?: AbortSignal | undefined;
    onRead?: (done: number) => void;
  },
): Promise<SweepPlan> {
  const { node } = deps;
  const signal = options.signal;
  if (addresses.length === 0) throw invalid('sources', 'give at least one source');
  const { treasury, token, fees, freeNet } = await sweepContext(deps, options.to, options.token, signal);
  if (new Set(addresses).size !== addresses.length) throw invalid('sources', 'an address is listed twice');
  if (addresses.includes(treasury)) throw invalid('to', 'is one of the sources');
  const min = minAtomic(options.min, token);
  const duration = options.duration ?? DEFAULT_DURATION_SEC;
  // The size of one sweep as it will be sent (every source's has the same fields and lengths, within a byte of the amount's).
  const { buildTrc20Transfer } = await import('../../protocol/tron-transaction.js');
  const head = await node.getNowBlock({ signal });
  const bandwidth = bandwidthOf(
    buildTrc20Transfer({
      from: addresses[0]!,
      contract: token.address,
      to: treasury,
      amount: 2n ** 64n,
      refBlock: { number: head.number, hash: head.id },
      now: deps.clock.now(),
      feeLimitSun: defaultFeeLimit(130_000, fees.energy_sun),
    }).raw_data_hex,
  );
  const prices = new Map<number, Promise<{ price_sun: number; cost_sun: number }>>();
  const price = (amount: number) => {
    let p = prices.get(amount);
    if (!p) {
      p = deps.orders.preview({ resource: 'ENERGY', amount, duration }, { signal }).then((preview) => {
        if (!preview.best)
          throw new TrxRentError({ code: 'PROVIDER_UNAVAILABLE', message: `No provider can rent ${amount} energy for ${duration} s now; nothing was ordered` });
        return { price_sun: Number(preview.best.price_sun), cost_sun: optionCost(preview.best, amount) };
      });
      prices.set(amount, p);
    }
    return p;
  };
  const rows: SweepPlanSource[] = new Array(addresses.length);
  let done = 0;
  await eachLimit(
    addresses,
    options.readConcurrency ?? 8,
    async (source, i) => {
      const [account, held] = await Promise.all([node.getAccount(source, { signal }), balanceOf(node, token, source, source, signal)]);
      const activated = isAccount(account);
      const base = { address: source, balance_atomic: held.toString(), balance: atomicToDecimal(held, token.decimals), activated };
      if (held < min) {
        rows[i] = {
          ...base,
          action: 'below_min',
          energy: 0,
          energy_available: 0,
          bandwidth: 0,
          bandwidth_available: 0,
          order: null,
          activation_sun: 0,
          burn_sun: 0,
        };
      } else {
        const [sim, resource] = await Promise.all([
          node.triggerConstantContract(
            { owner: source, contract: token.address, functionSelector: TRANSFER_SELECTOR, parameter: encodeTransferArgs(treasury, held) },
            { signal },
          ),
          activated ? node.getAccountResource(source, { signal }) : undefined,
        ]);
        const energy = bounded(sim.energy_used, NODE_BOUNDS.maxTransferEnergy, 'energy_used');
        const have = resource ? spendable(resource) : { energy: 0, bandwidth: freeNet, freeBandwidth: freeNet };
        const deficit = Math.max(0, energy - have.energy);
        const orderAmount = deficit > 0 ? Math.max(deficit, LIMITS.MIN_ENERGY_AMOUNT) : 0;
        const order = orderAmount ? { amount: orderAmount, ...(await price(orderAmount)) } : null;
        const bandwidthBurn = have.bandwidth >= bandwidth ? 0 : bandwidth * fees.bandwidth_sun;
        const activation = activated ? 0 : fees.create_account_sun + DEFAULT_ACTIVATION_SUN;
        rows[i] = {
          ...base,
          action: 'sweep',
          energy,
          energy_available: have.energy,
          bandwidth,
          bandwidth_available: have.bandwidth,
          order,
          activation_sun: activation,
          burn_sun: deficit * fees.energy_sun + bandwidthBurn,
        };
      }
      options.onRead?.(++done);
    },
    signal,
  );
  const sweeping = rows.filter((r) => r.action === 'sweep');
  const total = sweeping.reduce((s, r) => s + BigInt(r.balance_atomic), 0n);
  const rent = sweeping.reduce((s, r) => s + (r.order?.cost_sun ?? 0), 0);
  const activation = sweeping.reduce((s, r) => s + r.activation_sun, 0);
  const burn = sweeping.reduce((s, r) => s + r.burn_sun, 0) + activation;
  // A new sweep's key names this sweep, not only its sources: order Idempotency-Keys are `<key>:<address>`, and
  // sweeping the same sources again later (a new journal) must place new orders, not find the old ones.
  const { hash } = sweepKeyOf(treasury, token.address, addresses, options.key);
  const key = options.key ?? `sw-${hash.slice(0, 8)}${deps.clock.now().toString(36)}`;
  return {
    key,
    to: treasury,
    token: { address: token.address, symbol: token.symbol, decimals: token.decimals },
    min: atomicToDecimal(min, token.decimals),
    sources: addresses.length,
    to_sweep: sweeping.length,
    below_min: rows.length - sweeping.length,
    to_activate: sweeping.filter((r) => !r.activated).length,
    total: atomicToDecimal(total, token.decimals),
    total_atomic: total.toString(),
    fees,
    duration_sec: duration,
    orders: sweeping.filter((r) => r.order).length,
    order_note: `one energy order per source: an order has one target address, so sources cannot share one; each is at least the service's minimum of ${LIMITS.MIN_ENERGY_AMOUNT} energy`,
    rent_cost_sun: rent,
    activation_cost_sun: activation,
    total_cost_sun: rent + activation,
    burn_cost_sun: burn,
    saving_sun: burn - (rent + activation),
    rows,
  };
}
