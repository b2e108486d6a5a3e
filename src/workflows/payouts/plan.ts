/**
 * Planning a payout batch before anything is spent: what each row needs (energy simulated on the
 * node: about 65k to a holder, 130k to an empty address; bandwidth from the transaction's size),
 * what the batch rents (the total with a stated margin, less what the sender has, in as few
 * orders as the providers' availability allows), and what it costs against burning TRX and
 * against one `transfers.send` per row.
 * @module
 */
import { TrxRentError } from '../../errors/index.js';
import { LIMITS } from '../../schemas/limits.js';
import type { PreviewOption } from '../../schemas/prices.js';
import { trxToSun } from '../../utils/units.js';
import { type PayoutDeps, eachLimit } from './deps.js';
import type { PayoutRow } from './rows.js';
import { addressWord, encodeTransferArgs } from '../../protocol/abi.js';
import { bandwidthOf, defaultFeeLimit } from '../../tron/inputs.js';

/** What one row needs. */
export interface RowEstimate {
  id: string;
  energy: number;
  bandwidth: number;
  /** The recipient held the token already (an empty recipient needs about twice the energy). */
  holder: boolean;
}

/** One order the batch would place. */
export interface PlannedOrder {
  resource: 'ENERGY' | 'BANDWIDTH';
  amount: number;
  provider: string;
  price_sun: number;
  cost_sun: number;
}

/** A batch's plan: needs, rental, costs (exact SUN). */
export type PayoutPlan = {
  batch_key: string;
  from: string;
  rows: number;
  holders: number;
  empty_recipients: number;
  /** Total per token, in token units. */
  totals: Array<{ token: string; amount: string }>;
  /** The chain's fees: SUN per energy unit burnt, per bandwidth byte burnt. */
  fees: { energy_sun: number; bandwidth_sun: number };
  /** Energy: the rows' sum, with the margin, what the sender has, what is rented. */
  energy: {
    needed: number;
    margin_pct: number;
    with_margin: number;
    available: number;
    to_rent: number /** Beyond what the providers can rent now: bought by top-ups mid-batch. */;
    deferred: number;
  };
  bandwidth: { needed: number; available: number; to_rent: number };
  duration_sec: number;
  orders: PlannedOrder[];
  /** What the orders cost now. */
  rent_cost_sun: number;
  /** Burning TRX for all the energy and bandwidth instead. */
  burn_cost_sun: number;
  /** One `transfers.send` per row: one order each at max(its energy, the 65,000 minimum), bandwidth burnt. */
  single_sends_cost_sun: number;
  /** burn_cost_sun - rent_cost_sun. */
  saving_sun: number;
  /** What the energy the market cannot rent now (`energy.deferred`) would cost at today's best price: bought by top-ups. */
  deferred_cost_sun: number;
  /**
   * The most the rows could burn if the rented energy were not there when they run (a delegation
   * taken back, a node that overstated the sender's energy): each open row's fee_limit plus its
   * bandwidth at the chain's fee, plus the chain's getMultiSignFee per row when several signers
   * sign each row (a multi-signature account pays it whatever the energy).
   */
  worst_burn_sun: number;
  /** On a resume: what was done before (this plan covers what is left). */
  resume?:
    | {
        confirmed: number;
        failed: number;
        pending: number;
        spent_sun: number;
        /** The budget approved before. */
        budget_sun: number | undefined;
        /** The budget once this plan is confirmed (the rental left, with the margin, on top of what was spent). */
        budget_after_sun: number;
      }
    | undefined;
};

/** The most `estimates` could burn: each row's default fee_limit (the whole burn of its energy, plus 10 %) and its bandwidth. */
export function worstBurn(estimates: readonly RowEstimate[], fees: { energy_sun: number; bandwidth_sun: number }): number {
  return estimates.reduce((sum, e) => sum + defaultFeeLimit(e.energy, fees.energy_sun) + e.bandwidth * fees.bandwidth_sun, 0);
}

const MAX_ORDERS = 8;
/** Estimate every row on the node (bounded concurrency), reading the sender's token balances first. */
export async function estimateRows(
  deps: PayoutDeps,
  from: string,
  rows: readonly PayoutRow[],
  /** `signatures` and `permissionId`: each row's size as a multi-signature account's signers will send it. */
  options: {
    concurrency?: number;
    signal?: AbortSignal;
    onProgress?: (done: number) => void;
    onRow?: (estimate: RowEstimate) => Promise<void>;
    signatures?: number;
    permissionId?: number;
  } = {},
): Promise<RowEstimate[]> {
  const { node, clock } = deps;
  const signal = options.signal;
  // A node simulates a transfer beyond the sender's balance as a revert: say so for the batch.
  const wanted = new Map<string, { symbol: string; decimals: number; atomic: bigint }>();
  for (const r of rows) {
    const w = wanted.get(r.contract) ?? { symbol: r.symbol, decimals: r.decimals, atomic: 0n };
    w.atomic += BigInt(r.amount_atomic);
    wanted.set(r.contract, w);
  }
  for (const [contract, w] of wanted) {
    const result = await node.triggerConstantContract(
      { owner: from, contract, functionSelector: 'balanceOf(address)', parameter: addressWord(from) },
      { signal },
    );
    const hex = result.constant_result?.[0] ?? '';
    const held = /^[0-9a-fA-F]{1,64}$/.test(hex) ? BigInt(`0x${hex}`) : 0n;
    if (held < w.atomic) {
      const { atomicToDecimal } = await import('../../utils/units.js');
      throw new TrxRentError({
        code: 'INSUFFICIENT_TOKEN_BALANCE',
        message: `${from} holds ${atomicToDecimal(held, w.decimals)} ${w.symbol}, less than the batch's ${atomicToDecimal(w.atomic, w.decimals)}; nothing was ordered or sent`,
        details: { field: 'payouts', token: w.symbol, balance: atomicToDecimal(held, w.decimals), needed: atomicToDecimal(w.atomic, w.decimals) },
      });
    }
  }
  const tx = await import('../../protocol/tron-transaction.js');
  const block = await node.getNowBlock({ signal });
  const out: RowEstimate[] = new Array(rows.length);
  let finished = 0;
  await eachLimit(
    rows,
    options.concurrency ?? 16,
    async (r, i) => {
      const parameter = encodeTransferArgs(r.to, BigInt(r.amount_atomic));
      const [simulated, balance] = await Promise.all([
        node.triggerConstantContract({ owner: from, contract: r.contract, functionSelector: 'transfer(address,uint256)', parameter }, { signal }),
        node.triggerConstantContract({ owner: from, contract: r.contract, functionSelector: 'balanceOf(address)', parameter: addressWord(r.to) }, { signal }),
      ]);
      const energy = simulated.energy_used;
      if (!(energy > 0))
        throw new TrxRentError({
          code: 'NODE_ERROR',
          message: `triggerconstantcontract reported no energy for row ${r.id}`,
          details: { field: 'payouts', row: r.id },
        });
      const unsigned = tx.buildTrc20Transfer({
        from,
        contract: r.contract,
        to: r.to,
        amount: BigInt(r.amount_atomic),
        refBlock: { number: block.number, hash: block.id },
        now: clock.now(),
        feeLimitSun: 100_000_000,
        permissionId: options.permissionId,
      });
      const held = /^[0-9a-fA-F]{1,64}$/.test(balance.constant_result?.[0] ?? '') ? BigInt(`0x${balance.constant_result![0]}`) : 0n;
      out[i] = { id: r.id, energy, bandwidth: bandwidthOf(unsigned.raw_data_hex, options.signatures), holder: held > 0n };
      await options.onRow?.(out[i]!);
      if (++finished % 25 === 0) options.onProgress?.(finished);
    },
    signal,
  );
  return out;
}

function optionCost(option: PreviewOption, amount: number): number {
  try {
    return trxToSun(String(option.cost_trx));
  } catch {
    return Math.ceil(amount * Number(option.price_sun));
  }
}

/**
 * The orders that rent `total` units: one when a provider can take it whole, else shares to the
 * providers with the most available now, largest first (never more than 8 orders). What the
 * market cannot take now is left to the run's top-ups (the plan's `energy.deferred`).
 */
export async function planOrders(
  deps: PayoutDeps,
  resource: 'ENERGY' | 'BANDWIDTH',
  total: number,
  duration: number,
  signal?: AbortSignal,
): Promise<PlannedOrder[]> {
  if (total <= 0) return [];
  const minimum = resource === 'ENERGY' ? LIMITS.MIN_ENERGY_AMOUNT : LIMITS.MIN_BANDWIDTH_AMOUNT;
  const whole = Math.max(total, minimum);
  const quote = async (amount: number): Promise<PlannedOrder | undefined> => {
    const preview = await deps.orders.preview({ resource, amount, duration }, { signal });
    const best = preview.best;
    return best ? { resource, amount, provider: best.provider, price_sun: Number(best.price_sun), cost_sun: optionCost(best, amount) } : undefined;
  };
  const one = await quote(whole);
  if (one) return [one];
  const providers = (await deps.prices.list({ signal }))
    .map((p) => ({ provider: p.provider, available: Number(resource === 'ENERGY' ? p.available_energy : p.available_bandwidth) || 0 }))
    .filter((p) => p.available >= minimum)
    .sort((a, b) => b.available - a.available);
  const out: PlannedOrder[] = [];
  let left = whole;
  for (const p of providers) {
    if (left <= 0 || out.length >= MAX_ORDERS) break;
    let amount = Math.min(left, p.available);
    // Leave no tail below the minimum: the last share takes what would be left over.
    if (left - amount > 0 && left - amount < minimum) amount = Math.max(minimum, left - minimum);
    const q = await quote(amount);
    if (!q) continue;
    out.push(q);
    left -= amount;
  }
  if (out.length === 0) {
    throw new TrxRentError({
      code: 'PROVIDER_UNAVAILABLE',
      message: `No provider can rent ${resource} for ${duration} s now; nothing was ordered`,
      details: { field: 'payouts', resource, amount: total },
    });
  }
  // What the market cannot take now is bought mid-batch by top-ups, when it is needed.
  return out;
}
