import { ACCOUNT_WIRE as E } from '../api/account.js';
import type { RequestOptions } from '../http/client.js';
import type { CreateWebhookRequest } from '../schemas/webhooks.js';
import { Resource } from './resource.js';

/** `client.webhooks`: register, list and delete webhook endpoints (verify deliveries with `trx-rent/webhooks`). */
export class Webhooks extends Resource {
  /** Register an endpoint. The returned `secret` (64 hex) is shown only here: store it. */
  create(params: CreateWebhookRequest, options?: RequestOptions) {
    return this.call(E.createWebhook, { body: params }, options);
  }

  /** Registered webhooks (follows the live service; secrets are not included). */
  list(options?: RequestOptions) {
    return this.call(E.listWebhooks, {}, options);
  }

  /** Delete a webhook by id (follows the live service). */
  delete(id: string, options?: RequestOptions) {
    return this.call(E.deleteWebhook, { params: { id } }, options);
  }
}
