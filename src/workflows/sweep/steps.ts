/**
 * The steps of sweeping one source before its transfer: activating it once from the funding wallet
 * (the signed activation and its bytes journaled before they are broadcast, so a resume broadcasts
 * and lands that one rather than signing another), and renting its energy (one order, journaled
 * before it is placed, at its confirmed max_price_sun; above it, the order waits for the market's
 * next price poll; an order that ends FAILED having charged nothing is followed by a new one under
 * the next key), then waiting for the delegation on the node.
 * @module
 */
import { TrxRentError } from '../../errors/index.js';
import type { OrderFailedError } from '../../errors/local.js';
import type { SignerInput } from '../../protocol/signer.js';
import { LIMITS } from '../../schemas/limits.js';
import type { SignedActivation } from '../../tron/activate.js';
import { landTransfer } from '../../tron/identity.js';
import { isAccount } from '../../tron/target.js';
import { pollUntil } from '../../utils/clock.js';
import type { SweepDeps } from './deps.js';
import type { SweepJournalEntry, SweepLedger } from './journal.js';
import type { SweepEvent, SweepPlan } from './types.js';

/** The most energy orders one source gets: a FAILED order that charged nothing is followed by a new one, up to this many in all. */
export const MAX_ORDERS_PER_SOURCE = 5;
/** The most activations one source gets: one that expired in no block (nothing sent) is followed by a new one. */
export const MAX_ACTIVATIONS_PER_SOURCE = 3;

/** The Idempotency-Key of a source's `attempt`-th energy order (the first keeps the plain `<sweep key>:<address>`). */
export function orderKey(sweepKey: string, address: string, attempt: number): string {
  return attempt <= 1 ? `${sweepKey}:${address}` : `${sweepKey}:${address}:${attempt}`;
}

/** What the steps work with. */
export interface StepContext {
  deps: SweepDeps;
  journal: SweepLedger;
  plan: SweepPlan;
  /** The most the sweep may spend in all, SUN. */
  budget: number;
  signal: AbortSignal;
  funding: SignerInput | undefined;
  emit: (event: SweepEvent) => void;
  overBudget: (what: string, cost: number) => TrxRentError;
}

type Planned = Extract<SweepJournalEntry, { type: 'planned' }>;
type ActivationEntry = Extract<SweepJournalEntry, { type: 'activation' }>;

/**
 * Activate `p` once (see the module comment); nothing when it needs none or is done. An activation
 * signed before (this run or a crashed one) is broadcast again and landed; one that expired in no
 * block is followed by a new one (at most {@link MAX_ACTIVATIONS_PER_SOURCE}); one the node refused
 * outright fails the source (TRANSFER_FAILED).
 */
export async function activateSource(ctx: StepContext, p: Planned): Promise<void> {
  const { journal, plan, budget, signal, overBudget } = ctx;
  const index = journal.index;
  const { clock, node, chain } = ctx.deps;
  if (!p.activate) return;
  for (let turn = 0; turn < MAX_ACTIVATIONS_PER_SOURCE; turn++) {
    const earlier = index.activations.get(p.address);
    if (earlier?.state === 'done') return;
    let landed: { tx_id?: string; fee_sun: number } | undefined;
    if (earlier?.state === 'signed' && earlier.tx_id) landed = await landActivation(ctx, earlier);
    if (!landed && isAccount(await node.getAccount(p.address, { signal }))) landed = { fee_sun: 0 };
    if (!landed) {
      if (index.spentSun + plan.fees.create_account_sun > budget) throw overBudget(`Activating ${p.address}`, plan.fees.create_account_sun);
      let signed: ActivationEntry | undefined;
      try {
        const done = await chain.activate({
          address: p.address,
          signer: ctx.funding!,
          signal,
          onSigned: async (tx) => {
            signed = {
              type: 'activation',
              address: p.address,
              state: 'signed',
              tx_id: tx.tx_id,
              expiration: tx.expiration,
              signed: tx.signed,
              at: clock.now(),
            };
            await journal.append(signed);
            ctx.emit({ event: 'activation', address: p.address, state: 'signed', tx_id: tx.tx_id });
          },
        });
        landed = done ? { tx_id: done.tx_id, fee_sun: done.fee_sun } : { fee_sun: 0 };
      } catch (error) {
        // A lost answer or a refusal after signing: the transaction decides, not the answer.
        if (!signed || signal.aborted) throw error;
        landed = await landActivation(ctx, signed);
        if (!landed) {
          // Expired in no block: nothing was sent. A node's outright refusal stands; a lost answer signs anew.
          const refused = 'node_code' in ((error as TrxRentError)?.details ?? {});
          if (refused || turn === MAX_ACTIVATIONS_PER_SOURCE - 1)
            throw new TrxRentError({
              code: 'TRANSFER_FAILED',
              message: `The activation of ${p.address} (tx ${signed.tx_id}) did not land: ${(error as Error).message}`,
              cause: error,
            });
          continue;
        }
      }
    }
    await journal.append({ type: 'activation', address: p.address, state: 'done', tx_id: landed.tx_id, fee_sun: landed.fee_sun, at: clock.now() });
    ctx.emit({ event: 'activation', address: p.address, state: 'done', tx_id: landed.tx_id, fee_sun: landed.fee_sun });
    return;
  }
  throw new TrxRentError({
    code: 'TRANSFER_FAILED',
    message: `${MAX_ACTIVATIONS_PER_SOURCE} activations of ${p.address} expired in no block; nothing was sent to it`,
  });
}

/** Place `p`'s `attempt`-th order (journaled first, under its key), unless the budget forbids it. */
async function newOrder(ctx: StepContext, p: Planned, attempt: number) {
  const { journal, plan, budget, overBudget } = ctx;
  const index = journal.index;
  const cost = p.max_price_sun * p.order_amount;
  if (index.spentSun + cost > budget) throw overBudget(`Renting ${p.order_amount} energy for ${p.address}`, cost);
  await journal.append({
    type: 'order',
    key: orderKey(plan.key, p.address, attempt),
    address: p.address,
    state: 'placing',
    amount: p.order_amount,
    attempt,
    max_price_sun: p.max_price_sun,
    at: ctx.deps.clock.now(),
  });
  return index.orders.get(p.address)!;
}

/**
 * Rent `p`'s energy and wait until the node shows it. One order at a time under its key; an order
 * that ended FAILED having charged nothing (the market moved between the order and its execution:
 * a price above max_price_sun, no provider free) is followed, at the next price poll, by a new
 * order under the next key, at most {@link MAX_ORDERS_PER_SOURCE} in all; any other ending fails
 * the source (ORDER_FAILED).
 */
export async function rentEnergy(ctx: StepContext, p: Planned): Promise<void> {
  const { journal, signal } = ctx;
  const index = journal.index;
  const { clock, chain } = ctx.deps;
  if (p.order_amount <= 0) return;
  // Each round places one order, and every order but a filled one is journaled failed: bounded by the attempts.
  for (let round = 0; index.orders.get(p.address)?.state !== 'filled'; round++) {
    let order = index.orders.get(p.address);
    if (round > MAX_ORDERS_PER_SOURCE) throw new TrxRentError({ code: 'ORDER_FAILED', message: `No order for ${p.address} filled; nothing was swept from it` });
    if (order?.state === 'failed') {
      const attempt = order.attempt ?? 1;
      if (order.retry !== true || attempt >= MAX_ORDERS_PER_SOURCE)
        throw new TrxRentError({
          code: 'ORDER_FAILED',
          message: `The order for ${p.address} failed${attempt > 1 ? ` (${attempt} orders in all)` : ''}: ${order.reason ?? ''}; nothing was swept from it`,
        });
      const wait = order.at + LIMITS.PRICE_POLL_INTERVAL_MS - clock.now();
      if (wait > 0) await clock.sleep(wait, signal);
      order = await newOrder(ctx, p, attempt + 1);
    } else if (!order) {
      order = await newOrder(ctx, p, 1);
    }
    await placeOrder(ctx, p, order);
  }
  // FILLED is the service's word; the node's is the one the transfer meets.
  const after = await pollUntil(
    async () => {
      const now = await chain.read(p.address, { signal });
      return now.energy >= p.energy ? { done: true, value: now } : { done: false, last: now };
    },
    {
      timeoutMs: 120_000,
      clock,
      signal,
      intervalMs: 250,
      maxIntervalMs: 2_000,
      timeoutMessage: () => `The order for ${p.address} is FILLED but it cannot spend ${p.energy} energy on the node yet`,
    },
  );
  ctx.emit({ event: 'delegated', address: p.address, energy: after.energy });
}

/** Place one journaled order (its key replayed if it was placed before) and wait for it: `filled` or `failed` journaled. */
async function placeOrder(ctx: StepContext, p: Planned, order: Extract<SweepJournalEntry, { type: 'order' }>): Promise<void> {
  const { journal, plan, signal, overBudget } = ctx;
  const { clock, orders } = ctx.deps;
  const attempt = order.attempt ?? 1;
  ctx.emit({ event: 'order', address: p.address, state: 'placing', amount: p.order_amount });
  const price = order.max_price_sun ?? p.max_price_sun;
  // Above its confirmed price now, or no provider free: nothing was ordered (the key is still
  // unused); wait for the market's next price poll (30 s) rather than pay more, for up to 10 minutes.
  const created = await pollUntil(
    async () => {
      try {
        const placed = await orders.create(
          { resource_type: 'ENERGY', amount: p.order_amount, duration_sec: plan.duration_sec, target_address: p.address, max_price_sun: price },
          { idempotencyKey: order.key, signal },
        );
        return { done: true as const, value: placed };
      } catch (error) {
        const code = String((error as TrxRentError)?.code);
        if (code !== 'PRICE_EXCEEDED' && code !== 'PROVIDER_UNAVAILABLE') throw error;
        ctx.emit({ event: 'order', address: p.address, state: 'waiting', amount: p.order_amount, reason: (error as Error).message });
        return { done: false as const, last: error };
      }
    },
    {
      timeoutMs: 600_000,
      intervalMs: LIMITS.PRICE_POLL_INTERVAL_MS,
      factor: 1,
      clock,
      signal,
      timeoutMessage: () => `No provider rented ${p.order_amount} energy for ${p.address} at ${price} SUN or less in 10 minutes; nothing was ordered for it`,
    },
  );
  const done = await orders
    .waitFor(created.id, { timeoutMs: 600_000, pollIntervalMs: 250, maxPollIntervalMs: 2_000, signal })
    .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  if (done instanceof Error) {
    if (signal.aborted) throw signal.reason;
    if ((done as TrxRentError).code !== 'ORDER_FAILED') throw done;
    // FAILED and nothing charged: no energy was delegated, so a new order may follow.
    const ended = (done as OrderFailedError).details as { status?: unknown; order?: { total_cost_sun?: unknown } } | undefined;
    const retry = ended?.status === 'FAILED' && Number(ended.order?.total_cost_sun ?? 0) === 0;
    await journal.append({
      type: 'order',
      key: order.key,
      address: p.address,
      state: 'failed',
      amount: p.order_amount,
      attempt,
      order_id: created.id,
      reason: done.message,
      retry,
      at: clock.now(),
    });
    ctx.emit({ event: 'order', address: p.address, state: 'failed', amount: p.order_amount, order_id: created.id, reason: done.message });
    return;
  }
  const cost = Number(done.total_cost_sun ?? 0);
  await journal.append({
    type: 'order',
    key: order.key,
    address: p.address,
    state: 'filled',
    amount: p.order_amount,
    attempt,
    order_id: created.id,
    cost_sun: cost,
    at: clock.now(),
  });
  ctx.emit({ event: 'order', address: p.address, state: 'filled', amount: p.order_amount, order_id: created.id, cost_sun: cost });
  if (cost > price * p.order_amount) throw overBudget(`Order ${created.id} charged above its max_price_sun`, cost);
}

/**
 * Land an activation signed earlier: its same bytes broadcast again while it may land (a crash
 * between the journal and the broadcast sent nothing), its receipt polled. Its fee once confirmed;
 * undefined once it can never land (expired in no block: a new one may be signed).
 */
export async function landActivation(ctx: StepContext, earlier: ActivationEntry): Promise<{ tx_id: string; fee_sun: number } | undefined> {
  const { node, clock } = ctx.deps;
  const txId = earlier.tx_id!;
  const expiration = earlier.expiration ?? 0;
  const bytes = earlier.signed;
  const status = await landTransfer(
    node,
    { tx_id: txId, expiration, signed: (bytes ?? { txID: txId, raw_data: {}, raw_data_hex: '', signature: [] }) as SignedActivation },
    {
      clock,
      signal: ctx.signal,
      deadline: clock.now() + Math.max(120_000, expiration - clock.now() + 120_000),
      // Journals written before the bytes were kept: nothing to broadcast, the receipt decides.
      broadcast: async (signed) => {
        if (!bytes) return;
        const answer = await node.broadcastTransaction({ ...signed, visible: false }, { signal: ctx.signal });
        if (answer.result !== true && !/DUP_TRANSACTION/i.test(String(answer.code)))
          throw new TrxRentError({ code: 'TRANSFER_FAILED', message: `The node refused the activation ${txId}: ${String(answer.code ?? 'refused')}` });
      },
    },
  );
  if (status.state === 'confirmed') return { tx_id: txId, fee_sun: status.receipt?.fee ?? 0 };
  if (status.state === 'failed')
    throw new TrxRentError({ code: 'TRANSFER_FAILED', message: `The activation ${txId} failed on chain (${status.result ?? 'FAILED'})` });
  return undefined;
}
