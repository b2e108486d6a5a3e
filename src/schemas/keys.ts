import { z } from 'zod';
import { lenientEnum, looseTimestamp } from './common.js';

export const PERMISSIONS = ['create_orders', 'view_orders', 'view_balance', 'broadcast'] as const;
export const Permission = z.enum(PERMISSIONS);
export type Permission = z.infer<typeof Permission>;

/** POST /api/v1/keys */
export const CreateKeyRequest = z.strictObject({
  name: z.string().trim().min(1, 'is required').max(100),
  permissions: z.array(Permission).min(1, 'needs at least one permission'),
});
export type CreateKeyRequest = z.input<typeof CreateKeyRequest>;

export const ApiKey = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** Full secret (`sk_live_…`); present only in the creation response. */
  key: z.string().optional(),
  permissions: z.array(lenientEnum(PERMISSIONS)),
  created_at: looseTimestamp,
});
export type ApiKey = z.infer<typeof ApiKey>;

/** DELETE /api/v1/keys/:id */
export const RevokeKeyResponse = z.looseObject({ revoked: z.boolean() });
export type RevokeKeyResponse = z.infer<typeof RevokeKeyResponse>;
