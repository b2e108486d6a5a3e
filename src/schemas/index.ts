/**
 * `trx-rent/schemas`: the zod schemas every part of trx-rent shares. The client parses
 * responses with them, the mock validates requests and builds responses with them, the CLI
 * prints from them. Wire names stay snake_case as in the spec.
 *
 * They are zod/mini schemas (a browser bundle keeps only the parts used): use zod's functional
 * forms on them (`z.extend(Order, {…})`, `z.optional(Order)`, `z.pick(…)`), which take classic
 * and mini schemas alike; `.parse()`, `.safeParse()`, `z.infer` and `z.toJSONSchema()` work as
 * usual. In an application that loads only zod/mini, zod's messages are `Invalid input` unless
 * it installs a locale (`z.config(z.locales.en())`); trx-rent's request errors are English either way.
 *
 * Requests are strict (unknown keys rejected, validated before sending); responses are lenient
 * (unknown fields and enum values kept). Money is in SUN (1 TRX = 1,000,000 SUN) unless a field
 * says TRX. Most schemas have a type of the same name: what a response parses to, or what a
 * request accepts.
 * @module
 */
export * from './common.js';
export * from './known.js';
export * from './errors.js';
export * from './keys.js';
export * from './prices.js';
export * from './orders.js';
export * from './balance.js';
export * from './history.js';
export * from './deposits.js';
export * from './withdrawals.js';
export * from './webhooks.js';
export * from './transactions.js';
