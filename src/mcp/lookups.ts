/**
 * Settling a chain spend of unknown outcome from its journal (`effects.ts`), read-only: an
 * order by its id (`orders.get`), an order request whose answer was lost by replaying the SAME
 * Idempotency-Key and body (the service answers with what the first request created), and the
 * signed transfer by its tx id on the node ({@link lookupTransfer}). Nothing is signed, no new
 * key is used, and the tool is never run again.
 * @module
 */
import type { TrxRent } from '../client.js';
import { TrxRentError } from '../errors/index.js';
import type { CreateOrderRequest } from '../schemas/orders.js';
import { type Effects, type OrderView, type TransferState, unsettled } from './effects.js';
import { type Currency, INCONCLUSIVE, type Known, type SpendJob, outcomeOf } from './outcome.js';

/**
 * How far past a transaction's expiration the head block must be before it counts as expired:
 * the head is not yet solidified, and a transaction in a block that is then replaced could not
 * come back after its expiration anyway; the margin covers the solidification lag (about 19
 * blocks of 3 s).
 */
export const SOLIDIFY_MARGIN_MS = 60_000;

/** What {@link lookupTransfer} found. */
export interface TransferLookup {
  tx_id: string;
  state: TransferState;
  block?: number | undefined;
  fee_sun?: number | undefined;
}

/**
 * What became of the transaction `txId`: its receipt (confirmed or failed), else `expired` once
 * the chain has passed `expiration` (+ {@link SOLIDIFY_MARGIN_MS}), else `pending`. Read-only.
 * (One place: the SDK's `client.transfers.status(txId)` is to answer this.)
 */
export async function lookupTransfer(api: TrxRent, txId: string, expiration?: number, signal?: AbortSignal): Promise<TransferLookup> {
  const node = await api.resources.node();
  const info = await node.getTransactionInfo(txId, { signal });
  // A receipt must be for the transaction asked about.
  if (info && info.id?.toLowerCase() === txId.toLowerCase()) {
    const result = info.receipt?.result ?? info.result ?? 'SUCCESS';
    return { tx_id: txId, state: result === 'SUCCESS' ? 'confirmed' : 'failed', block: info.blockNumber, fee_sun: info.fee };
  }
  if (expiration !== undefined) {
    const head = await node.getNowBlock({ signal });
    if (head.timestamp !== undefined && head.timestamp > expiration + SOLIDIFY_MARGIN_MS) return { tx_id: txId, state: 'expired' };
  }
  return { tx_id: txId, state: 'pending' };
}

/** Looks up every unsettled order and the transfer of `effects`, each on its own (one failing leaves the others). */
export async function refresh(api: TrxRent, effects: Effects, signal: AbortSignal): Promise<void> {
  for (const slot of effects.slots) {
    if (!unsettled(slot)) continue;
    try {
      if (!slot.order && slot.key && slot.body !== undefined) {
        const body = JSON.parse(slot.body) as CreateOrderRequest;
        slot.order = (await api.orders.create(body, { idempotencyKey: slot.key, signal })) as OrderView;
      }
      if (slot.order) slot.order = (await api.orders.get(slot.order.id, { signal })) as OrderView;
    } catch (error) {
      // The same key and body refused with a definite answer: the first request created nothing.
      if (!slot.order && outcomeOf(error) === 'refused' && !INCONCLUSIVE.has((error as TrxRentError).status ?? 0)) slot.refused = true;
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
