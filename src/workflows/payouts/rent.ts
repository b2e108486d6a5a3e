/**
 * The batch's rental: place (or, on a resume, finish placing with the same keys) the planned
 * orders, each written down before it is placed with its share of the budget as max_price_sun
 * (a charge above it is SPENDING_CAP_EXCEEDED), then wait until the node shows the energy (FILLED
 * is the service's word; the node's is the one the transactions meet).
 * @module
 */
import { TrxRentError } from '../../errors/index.js';
import { pollUntil } from '../../utils/clock.js';
import type { PayoutDeps } from './deps.js';
import type { PayoutJournal, PayoutJournalEntry } from './journal.js';
import type { PayoutPlan } from './plan.js';
import type { PayoutEvent } from './types.js';

type OrderEntry = Extract<PayoutJournalEntry, { type: 'order' }>;

/** What {@link rentForBatch} works with (the run's state). */
export interface RentContext {
  deps: PayoutDeps;
  journal: PayoutJournal;
  /** The batch's key (order keys are `<key>:energy:N`, `<key>:bw:N`). */
  key: string;
  plan: PayoutPlan;
  /** The most the rental may cost in all, SUN. */
  budget: number;
  stop: AbortSignal;
  emit: (event: PayoutEvent) => void;
  /** Runs the journaling of the orders once for every worker sharing the journal (see the runner's `#shared`). @default runs it at once */
  shared?: ((fn: () => Promise<void>) => Promise<void>) | undefined;
  /** The most energy one row needs (on a shared journal, enough of the delegation to start with). */
  rowEnergyMax?: number | undefined;
}

/** The orders journaled so far, by key, latest state. */
function ordersOf(journal: PayoutJournal): OrderEntry[] {
  return [...journal.index.orders.values()];
}

/**
 * Place (or, on resume, finish placing with the same keys) the planned orders, each with its
 * share of the budget as max_price_sun (a charge above it is SPENDING_CAP_EXCEEDED); wait for
 * the delegation.
 */
export async function rentForBatch(ctx: RentContext): Promise<void> {
  const { deps, journal, key, plan, budget, stop, emit } = ctx;
  const { clock, orders } = deps;
  const from = plan.from;
  const place = async () => {
    if (ordersOf(journal).length > 0 || !plan.orders.length) return;
    // Each order's share of the budget, in proportion to its quote; written down before any is placed.
    const scale = plan.rent_cost_sun > 0 ? budget / plan.rent_cost_sun : 1;
    let n = 0;
    await journal.append(
      ...plan.orders.map(
        (q): PayoutJournalEntry => ({
          type: 'order',
          key: `${key}:${q.resource === 'ENERGY' ? 'energy' : 'bw'}:${++n}`,
          state: 'placing',
          resource: q.resource,
          amount: q.amount,
          max_price_sun: Math.max(1, Math.floor((q.cost_sun * scale) / q.amount)),
          at: clock.now(),
        }),
      ),
    );
  };
  await (ctx.shared ?? ((fn) => fn()))(place);
  // A worker that comes after the shared batch's rental filled: the worker that filled it
  // waited for the delegation, and the rows count the node's energy before each signature.
  const filledBefore = journal.claims !== undefined && ordersOf(journal).length > 0 && ordersOf(journal).every((o) => o.state === 'filled');
  // A top-up journaled as placing is one a run crashed on: its request is sent again with its key
  // (the service answers the same order if the first one got there) and its cost counted before
  // the rows go on, so a resume never rents past the budget by forgetting it.
  for (const o of ordersOf(journal).filter((e) => e.state === 'placing' && (!e.key.includes(':topup:') || e.max_price_sun !== undefined))) {
    if (stop.aborted) throw stop.reason;
    // A top-up's rows went before it: those are sent, the rest wait (the journal says which).
    const topUp = o.key.includes(':topup:');
    const unsent = topUp ? 'the rows not sent yet wait for it' : 'no row was sent';
    emit({ event: 'order', state: 'placing', key: o.key, resource: o.resource, amount: o.amount });
    const maxPrice = o.max_price_sun ?? Math.max(1, Math.floor(Math.max(0, budget - journal.index.spentSun) / o.amount));
    const created = await orders.create(
      { resource_type: o.resource, amount: o.amount, duration_sec: plan.duration_sec, target_address: from, max_price_sun: maxPrice },
      { idempotencyKey: o.key },
    );
    const done = await orders
      .waitFor(created.id, { timeoutMs: 600_000, pollIntervalMs: 250, maxPollIntervalMs: 2_000, signal: stop })
      .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    if (done instanceof Error) {
      // Stopped while waiting: the order stands; the resume waits for it under the same key.
      if (stop.aborted) throw stop.reason;
      const reason = done.message;
      await journal.append({
        type: 'order',
        key: o.key,
        state: 'failed',
        resource: o.resource,
        amount: o.amount,
        order_id: created.id,
        reason,
        at: clock.now(),
      });
      emit({ event: 'order', state: 'failed', key: o.key, resource: o.resource, amount: o.amount, order_id: created.id });
      throw new TrxRentError({
        code: 'ORDER_FAILED',
        message: `The batch's order ${created.id} did not fill (${reason}); ${unsent}`,
        details: { stage: 'order', ...(topUp ? {} : { transfer_sent: false }), order_id: created.id, idempotency_key: o.key },
        cause: done,
      });
    }
    const cost = Number(done.total_cost_sun ?? 0);
    await journal.append({
      type: 'order',
      key: o.key,
      state: 'filled',
      resource: o.resource,
      amount: o.amount,
      order_id: created.id,
      cost_sun: cost,
      at: clock.now(),
    });
    emit({ event: 'order', state: 'filled', key: o.key, resource: o.resource, amount: o.amount, order_id: created.id, cost_sun: cost });
    if (cost > maxPrice * o.amount || journal.index.spentSun > budget) {
      throw new TrxRentError({
        code: 'SPENDING_CAP_EXCEEDED',
        message: `The service charged ${cost} SUN for order ${created.id}, above its share of the batch's budget (${maxPrice * o.amount} SUN at most ${maxPrice} SUN per unit; ${budget} SUN in all); ${unsent}`,
        details: {
          stage: 'order',
          ...(topUp ? {} : { transfer_sent: false }),
          order_id: created.id,
          charged_sun: cost,
          max_cost_sun: maxPrice * o.amount,
          budget_sun: budget,
        },
      });
    }
  }
  if (filledBefore) return;
  // FILLED is the service's word; the node's is the one the transactions meet.
  let wanted = Math.min(plan.energy.with_margin, plan.energy.available + plan.energy.to_rent);
  // Shared: other workers spend the delegation as it lands; one row's energy shows it arrived.
  if (journal.claims) wanted = Math.min(wanted, ctx.rowEnergyMax ?? 0);
  const after = await pollUntil(
    async () => {
      const now = await deps.chain.read(from);
      return now.energy >= wanted ? { done: true, value: now } : { done: false, last: now };
    },
    {
      timeoutMs: 120_000,
      clock,
      signal: stop,
      intervalMs: 250,
      maxIntervalMs: 2_000,
      timeoutMessage: () => `The batch's orders are FILLED but ${from} cannot spend ${wanted} energy on the node yet`,
    },
  );
  emit({ event: 'delegated', energy: after.energy, bandwidth: after.bandwidth });
}
