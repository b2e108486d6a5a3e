/**
 * Where each API lives below the service's origin. The table's entries spell their whole paths
 * (`test/api/table.test.ts` holds each to its API's prefix); the clients read the prefix from
 * here to tell a base URL that already ends in it.
 * @module
 */

/** The path prefix of each API: the account API and the pay-per-call API. */
export const API_PREFIX = { account: '/api/v1', x402: '/x402/tron' } as const;
