import type { RequestHandler } from 'msw';

/**
 * Extension point for the paid side of the mock (/x402/tron/*) and the simulated TRON node
 * (/wallet/*). Filled in by the x402 work; the account-API simulator spreads these into its
 * handler list so both run on one server.
 */
export function createPaidHandlers(_context: unknown): RequestHandler[] {
  return [];
}
