/**
 * What one `transfers.send` knows as it goes (stage reached, whether the broadcast left, tx id,
 * order, keys), and how an error leaving it says so: `finish` puts that knowledge in the error's
 * `details` and message, so a caller knows whether the transfer may have been sent and how to
 * retry safely.
 * @module
 */
import { TrxRentError } from '../errors/index.js';
import { LIMITS } from '../schemas/limits.js';
import type { Deadline } from './deadline.js';
import { invalid } from './inputs.js';

/** The stage a send reached (in `error.details.stage`). */
export type SendStage = 'order' | 'delegation' | 'sign' | 'broadcast' | 'receipt';

/** What one send knows so far; every error leaving it carries this. */
export interface Known {
  stage: SendStage | undefined;
  /** Once the broadcast request has left, the transfer may be sent: never 'false' after. */
  left: boolean;
  tx_id?: string;
  expiration?: number;
  order_id?: string;
  /** The energy order's Idempotency-Key (`<key>:energy`), once an order may have been placed. */
  order_key?: string;
  idempotency_key: string;
  transfer_sent?: true;
}

/** The caller's idempotency key, checked: it must leave room for the order's `<key>:energy`. */
export function checkKey(key: unknown): string | undefined {
  if (key === undefined) return undefined;
  const max = LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH - ':energy'.length;
  if (typeof key !== 'string' || key === '' || key.length > max)
    throw invalid('idempotencyKey', `must be 1 to ${max} characters (the order's key is <key>:energy)`);
  return key;
}

/** The details of an error leaving send at this point. */
function detailsOf(known: Known): Record<string, unknown> {
  if (!known.stage) return { idempotency_key: known.idempotency_key };
  return {
    stage: known.stage,
    transfer_sent: known.transfer_sent ?? (known.left ? 'unknown' : false),
    ...(known.tx_id ? { tx_id: known.tx_id, expiration: known.expiration } : {}),
    ...(known.order_id ? { order_id: known.order_id } : {}),
    ...(known.order_key ? { order_key: known.order_key } : {}),
    idempotency_key: known.idempotency_key,
  };
}

/** What to say about the transfer at this point, for messages. */
function stateText(known: Known): string {
  if (known.left)
    return `transfer ${known.tx_id} may have been sent (outcome unknown): retry with the same idempotency key (${known.idempotency_key}) to finish it, never with a new one`;
  const order = known.order_id ? `; order ${known.order_id} was placed` : known.stage === 'order' ? '; an order may have been placed' : '';
  return `the transfer was not sent${order}; retry with the same idempotency key (${known.idempotency_key}) to finish without buying twice`;
}

/** Put what is known on the error (a TrxRentError keeps its class; anything else becomes CANCELLED/TIMEOUT). */
export function finish(error: unknown, known: Known, deadline: Deadline, timeoutMs: number): unknown {
  const translated = deadline.translate(
    error,
    `transfers.send did not finish within ${timeoutMs} ms (stage ${known.stage ?? 'estimate'}): ${stateText(known)}`,
  );
  let out = translated;
  // Nothing done yet: the error stays as it is (a prompt's own exit, a validation error).
  if (!known.stage && (!(out instanceof Error) || !('details' in out))) return out;
  if (!(out instanceof Error) || !('details' in out)) {
    out = new TrxRentError({ code: 'CANCELLED', message: `Cancelled (stage ${known.stage ?? 'estimate'}): ${stateText(known)}`, cause: translated });
  }
  const target = out as { details?: Record<string, unknown> };
  const own = detailsOf(known);
  // Where the failure happened knows more (a deeper stage, the order key); ours fills the rest.
  target.details = { ...target.details, ...own, ...(target.details?.order_key ? { order_key: target.details.order_key } : {}) };
  if (known.left && target.details.transfer_sent === false) target.details.transfer_sent = 'unknown';
  return out;
}
