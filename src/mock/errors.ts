import { ERROR_STATUS } from '../schemas/errors.js';
import type { ErrorCode } from '../errors/index.js';

/**
 * A spec error raised inside the mock. The route layer turns it into the error envelope; the
 * HTTP status comes from `status` when set, else from the route's endpoint-specific statuses,
 * else from the spec's Errors table.
 */
export class MockApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'MockApiError';
  }
}

export function tableStatus(code: ErrorCode): number {
  return ERROR_STATUS[code];
}
