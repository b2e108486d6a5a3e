import * as z from 'zod';
import type { RequestOptions } from '../http/client.js';
import { validateRequest } from '../http/validate.js';
import { SignedTransaction } from '../schemas/deposits.js';
import type { Known } from '../schemas/known.js';
import { Resource } from './resource.js';

// Stand-in until the endpoint table defines POST /api/v1/broadcast: the same method name and
// shapes, so code built on it (transfers.send) does not change when the table version lands.

/** Body of POST /api/v1/broadcast: a signed transaction, in the same shape as deposit submit's. */
export const BroadcastRequest = z.strictObject({ signed_tx: SignedTransaction });
export type BroadcastRequest = z.input<typeof BroadcastRequest>;

/** Response of POST /api/v1/broadcast: the transaction id and the service's status for it. */
export const BroadcastResponse = z.looseObject({ tx_id: z.string(), status: z.string() });
export type BroadcastResponse = Known<z.infer<typeof BroadcastResponse>>;

/** `client.transactions`: hand a signed TRON transaction to the service to broadcast. */
export class Transactions extends Resource {
  /**
   * POST /api/v1/broadcast (permission `broadcast`; the spec does not show the shape, this follows
   * the natural design): the service checks the signed transaction and broadcasts it. 403 without
   * the permission; 502 BROADCAST_FAILED when the network refuses it. Not retried: a signed
   * transaction broadcast twice is refused as a duplicate, so a retry could only blur the answer.
   */
  broadcast(params: BroadcastRequest, options?: RequestOptions) {
    return this.call(() => {
      const body = validateRequest(BroadcastRequest, params);
      return { method: 'POST', path: '/api/v1/broadcast', body, schema: BroadcastResponse, options };
    });
  }
}
