/**
 * A PostgreSQL store's address: the connection URL as given (`postgres://user:password@host:5432/db`,
 * credentials included, only ever handed to `pg`), the schema its tables live in (the URL's
 * `?schema=` or the option, `trx_rent` by default) and the same address with its password masked,
 * which is the only form any message prints.
 * @module
 */
import { TrxRentError } from '../errors/index.js';

/** The schema a PostgreSQL store uses when none is named. */
export const DEFAULT_SCHEMA = 'trx_rent';

/** How long a PostgreSQL journal's holder keeps it without renewing, ms (`--lease`, `TRX_RENT_STORE_LEASE`). */
export const DEFAULT_LEASE_MS = 15_000;

/** A parsed PostgreSQL store address. */
export interface PostgresAddress {
  /** The URL for `pg` (credentials included; the store's own `schema` parameter removed). */
  readonly connectionString: string;
  /** The schema the store's tables live in: a plain lowercase identifier. */
  readonly schema: string;
  /** The URL for messages: the password replaced by `***`. */
  readonly where: string;
}

/** Whether `value` names a PostgreSQL store (`postgres://` or `postgresql://`). */
export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value.trim());
}

/** `url` with its password (and any `password=` parameter) replaced by `***`: safe to print. */
export function maskPostgresUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    for (const key of [...u.searchParams.keys()]) if (/pass/i.test(key)) u.searchParams.set(key, '***');
    return u.toString();
  } catch {
    // Not a URL we can take apart: print nothing of what may follow the scheme's user part.
    return url.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/** Parse a store URL: refuses anything but postgres(ql):// and a schema that is not a plain identifier. */
export function parsePostgresUrl(url: string, schema?: string): PostgresAddress {
  const bad = (why: string) =>
    new TrxRentError({ code: 'CONFIGURATION_ERROR', message: `The store address ${maskPostgresUrl(url)} ${why}`, details: { field: 'store' } });
  if (!isPostgresUrl(url)) throw bad('is not a postgres:// URL');
  let u: URL;
  try {
    u = new URL(url.trim());
  } catch {
    throw bad('is not a URL');
  }
  const named = schema ?? u.searchParams.get('schema') ?? DEFAULT_SCHEMA;
  u.searchParams.delete('schema');
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(named)) {
    throw bad(`names the schema ${JSON.stringify(named)}: a schema is lowercase letters, digits and _ (at most 63, not starting with a digit)`);
  }
  const connectionString = u.toString();
  const shown = new URL(connectionString);
  shown.searchParams.set('schema', named);
  return { connectionString, schema: named, where: maskPostgresUrl(shown.toString()) };
}
