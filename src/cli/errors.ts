/**
 * Exit codes and the CLI's own errors (usage, cancelled, interrupted), and the exit code of any
 * error. The report people see is built in `error-report.ts`, its hints in `error-hints.ts`.
 *
 *   0 success (also a declined confirmation: "Cancelled.") · 1 API or network error · 2 usage or
 *   validation error (also: no terminal to confirm on) · 3 authentication or permission · 4 not
 *   found · 5 rate limited · 130 interrupted (Ctrl+C; 143 for SIGTERM)
 */
import { ForbiddenError, InvalidAddressError, NotFoundError, RateLimitedError, TrxRentError, UnauthorizedError, ValidationError } from '../errors/index.js';

export const EXIT = {
  OK: 0,
  API: 1,
  USAGE: 2,
  AUTH: 3,
  NOT_FOUND: 4,
  RATE_LIMITED: 5,
  /** 128 + SIGINT: Ctrl+C during a wait or a prompt. */
  INTERRUPTED: 130,
  /** 128 + SIGTERM. */
  TERMINATED: 143,
} as const;

/** An error raised by the CLI itself, with its exit code and a hint. */
export class CliError extends Error {
  readonly code: string;
  readonly exitCode: number;
  readonly hint: string | undefined;
  /** What is known at the failure (a send's stage, tx id, order id), shown in the `--json` error line. */
  details?: Record<string, unknown> | undefined;
  constructor(code: string, message: string, options: { exitCode?: number; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'CliError';
    this.code = code;
    this.exitCode = options.exitCode ?? EXIT.API;
    this.hint = options.hint;
  }
}

/** Wrong or missing arguments, options or settings: exit 2. */
export class UsageError extends CliError {
  constructor(message: string, hint?: string, code = 'USAGE_ERROR') {
    super(code, message, { exitCode: EXIT.USAGE, ...(hint ? { hint } : {}) });
    this.name = 'UsageError';
  }
}

/**
 * The user answered no to a confirmation: nothing was done, and that is what they asked for, so
 * the run prints "Cancelled." and exits 0 (like gh). Interrupting a prompt (Ctrl+C) is 130.
 */
export class CancelledError extends CliError {
  constructor(message = 'Cancelled.') {
    super('CANCELLED', message, { exitCode: EXIT.OK });
    this.name = 'CancelledError';
  }
}

/**
 * A wait interrupted by Ctrl+C (or SIGTERM): what was being waited for, its last status and the
 * command that resumes watching. Exit 130 (143 for SIGTERM).
 */
export class InterruptedError extends CliError {
  override details: Record<string, unknown>;
  readonly resume: string | undefined;
  constructor(message: string, options: { signal?: string; resume?: string | undefined; details?: Record<string, unknown> } = {}) {
    super('INTERRUPTED', message, {
      exitCode: options.signal === 'SIGTERM' ? EXIT.TERMINATED : EXIT.INTERRUPTED,
      ...(options.resume ? { hint: `resume with: ${options.resume}` } : {}),
    });
    this.name = 'InterruptedError';
    this.resume = options.resume;
    this.details = options.details ?? {};
  }
}

const USAGE_CODES = new Set(['VALIDATION_ERROR', 'INVALID_ADDRESS', 'CONFIGURATION_ERROR', 'USAGE_ERROR', 'BELOW_MINIMUM_ORDER']);

export function exitCodeFor(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof ValidationError || error instanceof InvalidAddressError) return EXIT.USAGE;
  if (error instanceof UnauthorizedError || error instanceof ForbiddenError) return EXIT.AUTH;
  if (error instanceof NotFoundError) return EXIT.NOT_FOUND;
  if (error instanceof RateLimitedError) return EXIT.RATE_LIMITED;
  if (error instanceof TrxRentError) {
    // Codes without their own class (older live-service names) by meaning.
    if (USAGE_CODES.has(error.code) || error.code === 'INVALID_AMOUNT') return EXIT.USAGE;
    if (error.code === 'ORDER_NOT_FOUND') return EXIT.NOT_FOUND;
    return EXIT.API;
  }
  if (isPromptExit(error)) return EXIT.INTERRUPTED;
  return EXIT.API;
}

export function isPromptExit(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'ExitPromptError' || name === 'AbortPromptError' || name === 'CancelPromptError';
}
