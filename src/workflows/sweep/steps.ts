/**
 * The steps of sweeping one source before its transfer: activating it once from the funding wallet
 * (the signed activation journaled before it is broadcast, so a resume lands it rather than signing
 * another), and renting its energy (one order, journaled before it is placed, at its confirmed
 * max_price_sun; above it, the order waits for the market's next price poll), then waiting for the
 * delegation on the node.
 * @module
 */
import { TrxRentError } from '../../errors/index.js';
import type { SignerInput } from '../../protocol/signer.js';
import { transferStatus } from '../../tron/identity.js';
import { pollUntil } from '../../utils/clock.js';
import type { SweepDeps } from './deps.js';
import type { SweepJournalEntry, SweepLedger } from './journal.js';
import type { SweepEvent, SweepPlan } from './types.js';

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

/** Activate `p` once (see the module comment); nothing when it needs none or is done. */
export async function activateSource(ctx: StepContext, p: Planned): Promise<void> {
  const { journal, plan, budget, signal, overBudget } = ctx;
  const index = journal.index;
  const { clock, node, chain } = ctx.deps;
  // ---- activation: once per address ----
  if (p.activate && index.activations.get(p.address)?.state !== 'done') {
    const earlier = index.activations.get(p.address);
    let landed: { tx_id?: string; fee_sun: number } | undefined;
    if (earlier?.state === 'signed' && earlier.tx_id) landed = await landActivation(ctx, earlier.tx_id, earlier.expiration ?? 0);
    if (!landed) {
      const account = await node.getAccount(p.address, { signal });
      if (account.create_time || account.balance || account.address) landed = { fee_sun: 0 };
    }
    if (!landed) {
      if (index.spentSun + plan.fees.create_account_sun > budget) throw overBudget(`Activating ${p.address}`, plan.fees.create_account_sun);
      let signed: { tx_id: string; expiration: number } | undefined;
      try {
        const done = await chain.activate({
          address: p.address,
          signer: ctx.funding!,
          signal,
          onSigned: async (tx) => {
            signed = tx;
            await journal.append({ type: 'activation', address: p.address, state: 'signed', tx_id: tx.tx_id, expiration: tx.expiration, at: clock.now() });
            ctx.emit({ event: 'activation', address: p.address, state: 'signed', tx_id: tx.tx_id });
          },
        });
        landed = done ? { tx_id: done.tx_id, fee_sun: done.fee_sun } : { fee_sun: 0 };
      } catch (error) {
        // A lost answer or a refusal after signing: the transaction decides, not the answer.
        if (!signed || signal.aborted) throw error;
        landed = await landActivation(ctx, signed.tx_id, signed.expiration);
        if (!landed)
          throw new TrxRentError({
            code: 'TRANSFER_FAILED',
            message: `The activation of ${p.address} (tx ${signed.tx_id}) did not land: ${(error as Error).message}`,
            cause: error,
          });
      }
    }
    await journal.append({ type: 'activation', address: p.address, state: 'done', tx_id: landed.tx_id, fee_sun: landed.fee_sun, at: clock.now() });
    ctx.emit({ event: 'activation', address: p.address, state: 'done', tx_id: landed.tx_id, fee_sun: landed.fee_sun });
  }
}

/** Rent `p`'s energy (one order) and wait until the node shows it. */
export async function rentEnergy(ctx: StepContext, p: Planned): Promise<void> {
  const { journal, plan, budget, signal, overBudget } = ctx;
  const index = journal.index;
  const { clock, orders, chain } = ctx.deps;
  const maxPrice = p.max_price_sun;
  if (p.order_amount > 0) {
    let order = index.orders.get(p.address);
    if (order?.state === 'failed') throw new TrxRentError({ code: 'ORDER_FAILED', message: `The order for ${p.address} failed: ${order.reason ?? ''}` });
    if (order?.state !== 'filled') {
      if (!order) {
        if (index.spentSun + maxPrice * p.order_amount > budget)
          throw overBudget(`Renting ${p.order_amount} energy for ${p.address}`, maxPrice * p.order_amount);
        await journal.append({
          type: 'order',
          key: `${plan.key}:${p.address}`,
          address: p.address,
          state: 'placing',
          amount: p.order_amount,
          max_price_sun: maxPrice,
          at: clock.now(),
        });
        order = index.orders.get(p.address)!;
      }
      ctx.emit({ event: 'order', address: p.address, state: 'placing', amount: p.order_amount });
      const price = order.max_price_sun ?? maxPrice;
      // Above its confirmed price now, or no provider free: nothing was ordered (the key is still
      // unused); wait for the market's next price poll (30 s) rather than pay more, for up to 10 minutes.
      const created = await pollUntil(
        async () => {
          try {
            const placed = await orders.create(
              { resource_type: 'ENERGY', amount: p.order_amount, duration_sec: plan.duration_sec, target_address: p.address, max_price_sun: price },
              { idempotencyKey: order!.key, signal },
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
          intervalMs: 30_000,
          factor: 1,
          clock,
          signal,
          timeoutMessage: () =>
            `No provider rented ${p.order_amount} energy for ${p.address} at ${price} SUN or less in 10 minutes; nothing was ordered for it`,
        },
      );
      const done = await orders
        .waitFor(created.id, { timeoutMs: 600_000, pollIntervalMs: 250, maxPollIntervalMs: 2_000, signal })
        .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      if (done instanceof Error) {
        if (signal.aborted) throw signal.reason;
        if ((done as TrxRentError).code !== 'ORDER_FAILED') throw done;
        await journal.append({
          type: 'order',
          key: order.key,
          address: p.address,
          state: 'failed',
          amount: p.order_amount,
          order_id: created.id,
          reason: done.message,
          at: clock.now(),
        });
        ctx.emit({ event: 'order', address: p.address, state: 'failed', amount: p.order_amount, order_id: created.id });
        throw new TrxRentError({
          code: 'ORDER_FAILED',
          message: `The order ${created.id} for ${p.address} did not fill (${done.message}); nothing was swept from it`,
          cause: done,
        });
      }
      const cost = Number(done.total_cost_sun ?? 0);
      await journal.append({
        type: 'order',
        key: order.key,
        address: p.address,
        state: 'filled',
        amount: p.order_amount,
        order_id: created.id,
        cost_sun: cost,
        at: clock.now(),
      });
      ctx.emit({ event: 'order', address: p.address, state: 'filled', amount: p.order_amount, order_id: created.id, cost_sun: cost });
      if (cost > price * p.order_amount) throw overBudget(`Order ${created.id} charged above its max_price_sun`, cost);
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
}

/** Land an activation signed earlier: its fee once confirmed, undefined once it can never land (a new one may be signed). */
export async function landActivation(ctx: StepContext, txId: string, expiration: number): Promise<{ tx_id: string; fee_sun: number } | undefined> {
  const { node, clock } = ctx.deps;
  const signal = ctx.signal;
  const status = await pollUntil(
    async () => {
      const now = await transferStatus(node, txId, expiration || undefined, { signal });
      return now.state === 'pending' ? { done: false, last: now } : { done: true, value: now };
    },
    {
      timeoutMs: Math.max(120_000, expiration - clock.now() + 120_000),
      clock,
      signal,
      intervalMs: 500,
      maxIntervalMs: 3_000,
      timeoutMessage: () => `The activation ${txId} is in no block yet; its outcome is unknown`,
    },
  );
  if (status.state === 'confirmed') return { tx_id: txId, fee_sun: status.receipt?.fee ?? 0 };
  if (status.state === 'failed')
    throw new TrxRentError({ code: 'TRANSFER_FAILED', message: `The activation ${txId} failed on chain (${status.result ?? 'FAILED'})` });
  return undefined;
}
