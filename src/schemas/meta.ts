/**
 * Metadata (descriptions, defaults) on mini schemas, the way zod's classic `.describe()` and
 * `.meta()` attach it: a copy of the schema (same definition, so it parses identically) registered
 * in zod's global registry, where `z.toJSONSchema` reads it. Copying keeps a shared schema
 * (`sunAmount`, `tronAddress`) free of any one field's text. Not part of `trx-rent/schemas`.
 *
 * `z.describe()`/`z.meta()` checks would do the same but run as a (no-op) check on every parse;
 * this costs nothing at parse time.
 * @module
 */
import * as z from 'zod/mini';

/** A copy of `schema` carrying `meta` (what classic's `schema.meta(meta)` returns). */
export function withMeta<T extends z.core.$ZodType>(schema: T, meta: z.core.GlobalMeta): T {
  const copy = z.clone(schema);
  z.globalRegistry.add(copy, meta);
  return copy;
}

/** A copy of `schema` carrying `description` (what classic's `schema.describe(description)` returns). */
export function described<T extends z.core.$ZodType>(schema: T, description: string): T {
  return withMeta(schema, { description });
}
