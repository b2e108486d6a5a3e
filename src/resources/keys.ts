import { ACCOUNT_WIRE as E } from '../api/account.js';
import type { RequestOptions } from '../http/client.js';
import type { CreateKeyRequest } from '../schemas/keys.js';
import { Resource } from './resource.js';

/** `client.keys`: create and revoke API keys (table entries `createKey`, `revokeKey`). */
export class Keys extends Resource {
  /** Create a key. The returned `key` is the only time the secret is shown. */
  create(params: CreateKeyRequest, options?: RequestOptions) {
    return this.call(E.createKey, { body: params }, options);
  }

  /** Revoke a key by id. Immediate and irreversible. */
  revoke(id: string, options?: RequestOptions) {
    return this.call(E.revokeKey, { params: { id } }, options);
  }
}
