import * as z from 'zod/mini';
import type { Known } from './known.js';
import { lenientEnum, looseTimestamp } from './common.js';
import { PERMISSIONS } from './enums.js';
import { described, withMeta } from './meta.js';
export { PERMISSIONS } from './enums.js';

/** One of {@link PERMISSIONS}, as a request sends it (strict). */
export const Permission = z.enum(PERMISSIONS);
export type Permission = Known<z.infer<typeof Permission>>;

/** Body of `createKey`. */
export const CreateKeyRequest = z.strictObject({
  /** Label for the key: 1 to 100 characters after trimming. */
  name: z.string().check(z.trim(), z.minLength(1, 'is required'), z.maxLength(100)),
  /**
   * A subset of {@link PERMISSIONS}, as the spec says; the empty subset is valid (a key that can
   * read only what needs no permission). Rules here are the spec's, no stricter.
   */
  permissions: z.array(Permission),
});
export type CreateKeyRequest = z.input<typeof CreateKeyRequest>;

/** An API key as `createKey` returns it (201). */
export const ApiKey = z.looseObject({
  /** Key identifier, the `:id` of `revokeKey`. */
  id: described(z.string(), 'Key identifier.'),
  /** Label given at creation. */
  name: described(z.string(), 'Label given at creation.'),
  /** Full secret (`sk_live_…`); this schema is the creation response, the only place it appears. */
  key: described(z.string(), 'Full secret key, prefix `sk_live_`; returned only in the creation response.'),
  /** Granted permissions; unknown values are kept. */
  permissions: described(z.array(lenientEnum(PERMISSIONS)), 'Subset of create_orders, view_orders, view_balance, broadcast.'),
  /** ISO 8601 per the spec; Unix time is accepted too. */
  created_at: described(looseTimestamp, 'ISO 8601.'),
});
export type ApiKey = Known<z.infer<typeof ApiKey>>;

/** Response of `revokeKey`: `revoked` is always true; the key stops working at once. */
export const RevokeKeyResponse = z.looseObject({
  revoked: withMeta(z.boolean(), { description: 'Always true: the key is invalid at once and irreversibly.', const: true }),
});
export type RevokeKeyResponse = Known<z.infer<typeof RevokeKeyResponse>>;
