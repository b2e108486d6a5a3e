/**
 * A sweep read back from its journal: the plan of what is left on a resume, and the report (per
 * source: what was swept, its transaction, energy, activation and order cost).
 * @module
 */
import { TrxRentError } from '../../errors/index.js';
import { atomicToDecimal } from '../../utils/units.js';
import type { SweepDeps } from './deps.js';
import type { SweepIndex, SweepJournalEntry, SweepLedger } from './journal.js';
import { sweepContext, sweepKeyOf } from './plan.js';
import type { SweepOptions, SweepPlan, SweepReport, SweepReportRow } from './types.js';

/**
 * The plan of what a sweep's journal left to do (a resume): its sources and confirmed amounts, the
 * orders and activations not done yet at their confirmed prices. A journal of another sweep
 * (treasury, token, sources) is refused.
 */
export async function planFromJournal(
  deps: SweepDeps,
  journal: SweepLedger,
  head: Extract<SweepJournalEntry, { type: 'sweep' }>,
  addresses: readonly string[],
  o: SweepOptions,
  signal: AbortSignal,
): Promise<SweepPlan> {
  const index = journal.index;
  const ctx = await sweepContext(deps, o.to, o.token, signal);
  const { hash } = sweepKeyOf(ctx.treasury, ctx.token.address, addresses, o.key);
  const key = head.key;
  if (head.to !== ctx.treasury || head.token !== ctx.token.address || head.sources_hash !== hash || (o.key !== undefined && head.key !== o.key)) {
    throw new TrxRentError({
      code: 'JOURNAL_MISMATCH',
      message: `The journal ${journal.name} is another sweep's (${head.key}: ${head.sources} sources to ${head.to}); refusing to spend. Resume with the same sources, treasury and token; a new sweep needs a new journal`,
      details: { field: 'journal', key: head.key },
    });
  }
  const rows = [...index.planned.values()].map((p) => {
    const order = index.orders.get(p.address);
    const act = index.activations.get(p.address);
    const orderLeft = p.order_amount && order?.state !== 'filled' && !index.finals.has(p.address);
    const price = order?.max_price_sun ?? p.max_price_sun;
    return {
      address: p.address,
      balance_atomic: p.amount_atomic,
      balance: atomicToDecimal(BigInt(p.amount_atomic), ctx.token.decimals),
      action: 'sweep' as const,
      activated: !p.activate || act?.state === 'done',
      energy: p.energy,
      energy_available: 0,
      bandwidth: 0,
      bandwidth_available: 0,
      order: orderLeft ? { amount: p.order_amount, price_sun: price, cost_sun: price * p.order_amount } : null,
      activation_sun: p.activate && act?.state !== 'done' && !index.finals.has(p.address) ? ctx.fees.create_account_sun : 0,
      burn_sun: 0,
    };
  });
  const left = [...index.belowMin.values()].map((b) => ({
    address: b.address,
    balance_atomic: b.amount_atomic,
    balance: atomicToDecimal(BigInt(b.amount_atomic), ctx.token.decimals),
    action: 'below_min' as const,
    activated: true,
    energy: 0,
    energy_available: 0,
    bandwidth: 0,
    bandwidth_available: 0,
    order: null,
    activation_sun: 0,
    burn_sun: 0,
  }));
  const open = rows.filter((r) => !index.finals.has(r.address));
  const total = rows.reduce((s, r) => s + BigInt(r.balance_atomic), 0n);
  const rent = open.reduce((s, r) => s + (r.order?.cost_sun ?? 0), 0);
  const activation = open.reduce((s, r) => s + r.activation_sun, 0);
  return {
    key,
    to: ctx.treasury,
    token: { address: ctx.token.address, symbol: ctx.token.symbol, decimals: ctx.token.decimals },
    min: '',
    sources: head.sources,
    to_sweep: rows.length,
    below_min: head.sources - rows.length,
    to_activate: open.filter((r) => !r.activated).length,
    total: atomicToDecimal(total, ctx.token.decimals),
    total_atomic: total.toString(),
    fees: ctx.fees,
    duration_sec: o.duration ?? 3600,
    orders: open.filter((r) => r.order).length,
    order_note: 'one energy order per source (an order has one target address); orders already placed are waited for under their keys',
    rent_cost_sun: rent,
    activation_cost_sun: activation,
    total_cost_sun: rent + activation,
    burn_cost_sun: 0,
    saving_sun: 0,
    rows: [...rows, ...left],
    resume: { swept: index.swept, failed: index.failed, spent_sun: index.spentSun, budget_sun: index.approval?.budget_sun },
  };
}

/** A sweep's report from its journal's index and its plan (the sources below the minimum from the plan). */
export function buildSweepReport(index: SweepIndex, plan: SweepPlan, journalPath: string | undefined): SweepReport {
  const decimals = plan.token.decimals;
  const rows: SweepReportRow[] = [];
  let swept = 0n;
  for (const p of index.planned.values()) {
    const final = index.finals.get(p.address);
    const order = index.orders.get(p.address);
    const act = index.activations.get(p.address);
    const fee = final?.type === 'swept' ? final.fee_sun : 0;
    const orderCost = order?.state === 'filled' ? (order.cost_sun ?? 0) : 0;
    const actFee = act?.state === 'done' ? (act.fee_sun ?? 0) : 0;
    if (final?.type === 'swept') swept += BigInt(p.amount_atomic);
    rows.push({
      address: p.address,
      status: final ? final.type : 'pending',
      amount: atomicToDecimal(BigInt(p.amount_atomic), decimals),
      amount_atomic: p.amount_atomic,
      tx_id: final?.tx_id ?? index.records.get(`${plan.key}:${p.address}`)?.tx_id,
      energy_used: final?.type === 'swept' ? final.energy_used : undefined,
      activation_tx_id: act?.tx_id,
      activation_fee_sun: actFee,
      order_id: order?.order_id,
      order_cost_sun: orderCost,
      fee_sun: fee,
      cost_sun: fee + orderCost + actFee,
      reason: final?.type === 'failed' ? final.reason : undefined,
    });
  }
  for (const r of plan.rows) {
    if (r.action === 'below_min')
      rows.push({
        address: r.address,
        status: 'below_min',
        amount: r.balance,
        amount_atomic: r.balance_atomic,
        activation_fee_sun: 0,
        order_cost_sun: 0,
        fee_sun: 0,
        cost_sun: 0,
      });
  }
  const sum = (f: (r: SweepReportRow) => number) => rows.reduce((s, r) => s + f(r), 0);
  const pending = rows.filter((r) => r.status === 'pending').length;
  return {
    key: plan.key,
    to: plan.to,
    token: plan.token.address,
    complete: pending === 0,
    swept: index.swept,
    failed: index.failed,
    pending,
    total_swept: atomicToDecimal(swept, decimals),
    total_swept_atomic: swept.toString(),
    orders: [...index.orders.values()].filter((o) => o.state === 'filled').length,
    rent_cost_sun: sum((r) => r.order_cost_sun),
    activation_cost_sun: sum((r) => r.activation_fee_sun),
    burned_sun: sum((r) => r.fee_sun),
    total_cost_sun: sum((r) => r.cost_sun),
    journal: journalPath,
    rows,
  };
}
