/**
 * The run's store setting: `--store URL` > `TRX_RENT_STORE`, and the lease `--lease 15s` >
 * `TRX_RENT_STORE_LEASE` > 15 s. Only a `postgres://` URL is a store to open from here (the file
 * store is the default everywhere and needs no setting); the URL's password is never printed
 * (`where` masks it).
 * @module
 */
import type { Context } from './context.js';
import { UsageError } from './errors.js';
import { parseDuration } from './parse.js';
import { ENV } from './settings.js';

/** The PostgreSQL store named by `--store` or `TRX_RENT_STORE`, or undefined when neither is set. */
export function storeSetting(ctx: Context, flag: string | undefined, lease?: string | undefined): { url: string; leaseMs: number | undefined } | undefined {
  const url = flag ?? ctx.env[ENV.store];
  if (!url) return undefined;
  if (!/^postgres(ql)?:\/\//i.test(url))
    throw new UsageError(
      `--store must be a postgres:// URL (${flag ? '--store' : ENV.store})`,
      'e.g. --store postgres://user@db.internal:5432/payouts?schema=trx_rent',
    );
  const leaseText = lease ?? ctx.env[ENV.storeLease];
  return { url, leaseMs: leaseText ? parseDuration(leaseText, lease ? '--lease' : ENV.storeLease) * 1_000 : undefined };
}

/** `storeSetting`, required: a UsageError naming the flag and the variable when neither is set. */
export function requireStore(ctx: Context, flag: string | undefined, lease?: string | undefined): { url: string; leaseMs: number | undefined } {
  const found = storeSetting(ctx, flag, lease);
  if (!found) throw new UsageError(`no store: pass --store postgres://… or set ${ENV.store}`);
  return found;
}
