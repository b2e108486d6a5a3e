import { validateRequest } from '../http/validate.js';
import type { RequestOptions } from '../http/client.js';
import { path } from '../http/path.js';
import { ApiKey, CreateKeyRequest, RevokeKeyResponse } from '../schemas/keys.js';
import { Resource } from './resource.js';

/** `client.keys`: create and revoke API keys (JWT-authenticated endpoints). */
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
    return this.call(() => ({ method: 'DELETE', path: path`/api/v1/keys/${id}`, schema: RevokeKeyResponse, options }));
  }
}
