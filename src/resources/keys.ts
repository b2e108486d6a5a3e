import { validateRequest } from '../http/validate.js';
import type { RequestOptions } from '../http/client.js';
import { ApiKey, CreateKeyRequest, RevokeKeyResponse } from '../schemas/keys.js';
import { OrderId } from '../schemas/orders.js';
import { Resource, segment } from './resource.js';

export class Keys extends Resource {
  /** POST /api/v1/keys. The returned `key` is the only time the secret is shown. */
  create(params: CreateKeyRequest, options?: RequestOptions) {
    return this.call(() => {
      const body = validateRequest(CreateKeyRequest, params);
      return { method: 'POST', path: '/api/v1/keys', body, schema: ApiKey, options };
    });
  }

  /** DELETE /api/v1/keys/:id. Immediate and irreversible. */
  revoke(id: string, options?: RequestOptions) {
    return this.call(() => {
      validateRequest(OrderId, id);
      return { method: 'DELETE', path: `/api/v1/keys/${segment(id)}`, schema: RevokeKeyResponse, options };
    });
  }
}
