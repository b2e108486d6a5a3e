/**
 * The mock's error type and the spec's status table.
 *
 * @module
 */
import { nameClass } from '../../errors/name.js';
import { type ERROR_CODES, ERROR_STATUS } from '../../schemas/errors.js';

/** A code from the spec's Errors table, or one a paid route adds (INVALID_PAYMENT, SLIPPAGE_EXCEEDED...). */
export type MockErrorCode = (typeof ERROR_CODES)[number] | (string & {});

/**
 * A spec error raised inside the mock. The pipeline turns it into the error envelope; the
 * HTTP status comes from `status` when set, else from the route's endpoint-specific statuses,
 * else from the spec's Errors table (500 for a code the table does not list).
 */
export class MockApiError extends Error {
  static {
    nameClass(this, 'MockApiError');
  }
  constructor(
    readonly code: MockErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'MockApiError';
  }
}

/** The spec's status for an error code (500 when the table does not list it). */
export function tableStatus(code: MockErrorCode): number {
  return (ERROR_STATUS as Record<string, number>)[code] ?? 500;
}
