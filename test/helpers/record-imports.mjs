// Module-resolution hook (runs off-thread): appends every resolved URL to $TRX_RENT_IMPORT_LOG.
import { appendFileSync } from 'node:fs';

export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (process.env.TRX_RENT_IMPORT_LOG) appendFileSync(process.env.TRX_RENT_IMPORT_LOG, `${result.url}\n`);
  return result;
}
