/**
 * `trx-rent/schemas`: the zod schemas every part of trx-rent shares. The client parses
 * responses with them, the mock validates requests and builds responses with them, the CLI
 * prints from them. Wire names stay snake_case as in the spec.
 */
export * from './common.js';
export * from './errors.js';
export * from './keys.js';
export * from './prices.js';
export * from './orders.js';
export * from './balance.js';
export * from './history.js';
export * from './deposits.js';
export * from './withdrawals.js';
export * from './webhooks.js';
