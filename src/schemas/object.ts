/**
 * Object schemas for the core: zod/mini's `looseObject`/`strictObject`, parsed the way zod's
 * classic objects are. Not part of `trx-rent/schemas`.
 *
 * Why: zod's classic objects parse with `$ZodObjectJIT`, which compiles a fast path per object
 * shape (where the platform allows it; elsewhere it falls back to the plain loop); zod/mini's
 * objects always take the plain loop, measured 3-4x slower per object (an 8-provider price list:
 * 5.6 vs 15.9 µs with zod 4.6.7, 9.6 vs 35 µs with 4.4.3). These are zod/mini objects in every
 * other way (`instanceof ZodMiniObject`, the same definition, the same types; `z.extend`,
 * `z.required` and `z.clone` keep the fast parser), built only from zod's public core API
 * (`$constructor`, `$ZodObjectJIT`, `ZodMiniObject.init`, the public `def`). Both parsers are
 * zod's own: the fast path is zod's code for the same rules, so this changes speed, not what is
 * accepted (test/api/object.test.ts compares them).
 * @module
 */
// By name from 'zod/v4/core': a value read through zod/mini's `z.core` namespace makes a bundler
// keep the whole namespace, every locale included (98 kB gzip).
import { $ZodObjectJIT, $constructor } from 'zod/v4/core';
import * as z from 'zod/mini';
import { ZodMiniObject } from 'zod/mini';

/** zod/mini's object with the parser of zod's classic objects (see the module notes). */
const FastObject: $constructor<z.ZodMiniObject> = $constructor('TrxRentFastObject', (inst, def) => {
  // The first initializer of a trait wins: $ZodObjectJIT (which includes $ZodObject) goes first,
  // so ZodMiniObject's own $ZodObject step is skipped and only its mini API is added.
  $ZodObjectJIT.init(inst, def);
  ZodMiniObject.init(inst, def);
});

/** `z.looseObject(shape)` (unknown keys kept) with the fast parser. */
export function looseObject<T extends z.core.$ZodLooseShape>(shape: T): z.ZodMiniObject<z.core.util.Writeable<T>, z.core.$loose> {
  return new FastObject(z.looseObject(shape).def) as z.ZodMiniObject<z.core.util.Writeable<T>, z.core.$loose>;
}

/** `z.strictObject(shape)` (unknown keys refused) with the fast parser. */
export function strictObject<T extends z.core.$ZodLooseShape>(shape: T): z.ZodMiniObject<z.core.util.Writeable<T>, z.core.$strict> {
  return new FastObject(z.strictObject(shape).def) as z.ZodMiniObject<z.core.util.Writeable<T>, z.core.$strict>;
}
