/**
 * Settling a spend of unknown outcome from its journal, read-only: for a chain spend
 * (`effects.ts`), an order by its id (`orders.get`), an order request whose answer was lost by
 * replaying the SAME Idempotency-Key and body (the service answers with what the first request
 * created), and the signed transfer by its tx id on the node ({@link lookupTransfer}); for a
 * keyed POST an earlier process left (create_order, withdraw: {@link keyedReplay}), its request
 * replayed with its key. Nothing is signed, no new key is used, and the tool is never run again.
 * @module
 */
import type { TrxRent } from '../client.js';
import type { TrxRentError } from '../errors/index.js';
import type { ACCOUNT_WIRE } from '../api/account.js';
import type { BodyOf } from '../api/types.js';
import type { TransferState } from '../tron/identity.js';
import { type Effects, type OrderView, unsettled } from './effects.js';
import { type Currency, INCONCLUSIVE, type Known, type SpendJob, guardOutcome, keyedPost, money } from './outcome.js';
import type { OpenSpend } from './spend-journal.js';

/** What {@link lookupTransfer} found. */
export interface TransferLookup {
  tx_id: string;
  state: TransferState;
  block?: number | undefined;
  fee_sun?: number | undefined;
}

/**
 * What became of the transaction `txId`: the SDK's `client.transfers.status` (its receipt,
 * confirmed or failed, checked to be for `txId`; else `expired` once the solidified block has
 * passed `expiration`; else `pending`). Read-only.
 */
export async function lookupTransfer(api: TrxRent, txId: string, expiration?: number, signal?: AbortSignal): Promise<TransferLookup> {
  const status = await api.transfers.status(txId, { expiration, signal });
  return { tx_id: status.tx_id, state: status.state, block: status.block, fee_sun: status.receipt?.fee };
}

/** Looks up every unsettled order and the transfer of `effects`, each on its own (one failing leaves the others). */
export async function refresh(api: TrxRent, effects: Effects, signal: AbortSignal): Promise<void> {
  for (const slot of effects.slots) {
    if (!unsettled(slot)) continue;
    try {
      if (!slot.order && slot.key && slot.body !== undefined) {
        const body = JSON.parse(slot.body) as BodyOf<(typeof ACCOUNT_WIRE)['createOrder']>;
        slot.order = (await api.orders.create(body, { idempotencyKey: slot.key, signal })) as OrderView;
      }
      if (slot.order) slot.order = (await api.orders.get(slot.order.id, { signal })) as OrderView;
    } catch (error) {
      // The same key and body refused with a definite answer: the first request created nothing.
      if (!slot.order && guardOutcome(error) === 'refused' && !INCONCLUSIVE.has((error as TrxRentError).status ?? 0)) slot.refused = true;
      if (signal.aborted) return;
    }
  }
  const t = effects.transfer;
  if (t && t.sent !== false && (t.state === undefined || t.state === 'pending')) {
    try {
      const found = await lookupTransfer(api, t.tx_id, t.expiration, signal);
      Object.assign(t, { state: found.state, block: found.block, fee_sun: found.fee_sun });
    } catch {
      // the node did not answer: still pending
    }
  }
}

/**
 * The job of a chain spend: `run` inside the journal, its verdicts from the journal, its lookup
 * {@link refresh} then the journal again. `token` names the transfer's currency and amount
 * (send_token); without it only TRX (the orders) is settled.
 */
export function chainJob<T>(
  api: TrxRent,
  effects: Effects,
  run: (idempotencyKey: string) => Promise<T>,
  done: (result: T) => Known,
  token?: { currency: Currency; atomic: bigint; label: string },
): SpendJob<T> {
  return {
    journaled: { effects, token },
    run: (key) => effects.run(() => run(key)),
    done,
    failed(error) {
      effects.noteError(error);
      return effects.known(token);
    },
    async lookup(_key, signal) {
      await refresh(api, effects, signal);
      return effects.known(token);
    },
  };
}

/**
 * The job of a keyed POST an earlier process left in the journal (`open.request`): its run and
 * its lookup send the journaled body again with the spend's key as Idempotency-Key (the service
 * answers with what the first request did, or does it now within the reservation already held),
 * within the replay window from when it was written (`keyedPost`).
 */
export function keyedReplay(api: TrxRent, open: OpenSpend & { request: NonNullable<OpenSpend['request']> }, now?: () => number): SpendJob<unknown> {
  const currency = (Object.keys(open.held)[0] ?? 'TRX') as Currency;
  const journal = { request: open.request, sentAt: open.at ?? 0, now };
  if (open.request.endpoint === 'createOrder') {
    const body = open.request.body as BodyOf<(typeof ACCOUNT_WIRE)['createOrder']>;
    return keyedPost(
      currency,
      (idempotencyKey, signal) => api.orders.create(body, { idempotencyKey, signal }),
      (o) => `order ${o.id} (${o.status}) ${o.amount} ${o.resource_type} to ${o.target_address}`,
      (o) => (typeof o.total_cost_sun === 'number' ? BigInt(o.total_cost_sun) : undefined),
      journal,
    );
  }
  const body = open.request.body as BodyOf<(typeof ACCOUNT_WIRE)['createWithdrawal']>;
  return keyedPost(
    currency,
    (idempotencyKey, signal) => api.withdrawals.create(body, { idempotencyKey, signal }),
    (w) => `withdrawal ${w.id} (${w.status}) of ${money(BigInt(body.amount), body.currency)} to ${body.address}`,
    undefined,
    journal,
  );
}
