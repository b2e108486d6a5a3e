import { ACCOUNT_WIRE as E } from '../api/account.js';
import type { RequestOptions } from '../http/client.js';
import type { BroadcastRequest } from '../schemas/transactions.js';
import { Resource } from './resource.js';

/** `client.transactions`: broadcast signed TRON transactions (needs a key with the `broadcast` permission). */
export class Transactions extends Resource {
  /**
   * Broadcast a signed transaction (`{ signed_tx }`, the form tronweb's `trx.sign` returns).
   * Answers `{ tx_id, status: 'pending' }`; a malformed or badly signed transaction is a
   * ValidationError, a refusal by the network a BROADCAST_FAILED error (502). Broadcasting the
   * same transaction again answers the same `tx_id`, so a retry is safe.
   */
  broadcast(params: BroadcastRequest, options?: RequestOptions) {
    return this.call(E.broadcastTransaction, { body: params }, options);
  }
}
