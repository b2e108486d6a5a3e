/**
 * A store from one setting (`--store`, `TRX_RENT_STORE`, `new TrxRent({ store })`): a
 * `postgres://` URL opens the PostgreSQL store (its module and `pg` load only then), `memory` the
 * memory store, anything else is a folder for the file store.
 * @module
 */
import type { PostgresStoreOptions } from './postgres.js';
import { isPostgresUrl } from './postgres-url.js';
import type { Store } from './types.js';

/** Open the store that `spec` names: `postgres://…`, `memory`, or a folder path. */
export async function openStore(spec: string, options: PostgresStoreOptions = {}): Promise<Store> {
  if (isPostgresUrl(spec)) return (await import('./postgres.js')).postgresStore(spec, options);
  if (spec === 'memory') return (await import('./memory.js')).memoryStore();
  return (await import('./file.js')).fileStore(spec, options);
}
