import { validateRequest } from '../http/validate.js';
import type { RequestOptions } from '../http/client.js';
import { path } from '../http/path.js';
import { CreateWebhookRequest, DeleteWebhookResponse, Webhook, WebhookList } from '../schemas/webhooks.js';
import { Resource } from './resource.js';

/** `client.webhooks`: register, list and delete webhook endpoints (verify deliveries with `trx-rent/webhooks`). */
export class Webhooks extends Resource {
  /** POST /api/v1/webhooks. The returned `secret` (64 hex) is shown only here: store it. */
  create(params: CreateWebhookRequest, options?: RequestOptions) {
    return this.call(() => {
      const body = validateRequest(CreateWebhookRequest, params);
      return { method: 'POST', path: '/api/v1/webhooks', body, schema: Webhook, options };
    });
  }

  /** GET /api/v1/webhooks (follows the live service; secrets are not included). */
  list(options?: RequestOptions) {
    return this.call(() => ({ method: 'GET', path: '/api/v1/webhooks', schema: WebhookList, options }));
  }

  /** DELETE /api/v1/webhooks/:id (follows the live service). */
  delete(id: string, options?: RequestOptions) {
    return this.call(() => ({ method: 'DELETE', path: path`/api/v1/webhooks/${id}`, schema: DeleteWebhookResponse, options }));
  }
}
