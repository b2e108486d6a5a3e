/**
 * Typed errors: the base class and its codes (`base.ts`), one subclass per spec code and the
 * envelope-to-error mapping (`service.ts`), and the errors trx-rent raises itself (`local.ts`).
 * The class follows the `code` in the error envelope, whatever the HTTP status (the spec lists
 * two statuses for some codes); unknown codes keep their code on TrxRentError.
 * @module
 */
export * from './base.js';
export * from './local.js';
export * from './service.js';
export * from './outcome.js';
