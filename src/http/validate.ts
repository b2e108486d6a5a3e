/**
 * Local request validation: every request is checked with its schema before anything is sent.
 * @module
 */
import type * as z from 'zod/mini';
import { InvalidAddressError, ValidationError } from '../errors/index.js';
import { englishIssues, issuesToErrorData } from '../schemas/issues.js';

/**
 * Validate a request locally with its schema before anything is sent. The first issue names
 * the field; an address failure becomes InvalidAddressError, everything else ValidationError.
 */
export function validateRequest<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw requestIssuesToError(englishIssues(schema, input));
}

/** The typed SDK error for a failed request parse (see `issuesToErrorData`). */
export function requestIssuesToError(issues: readonly z.core.$ZodIssue[]): ValidationError | InvalidAddressError {
  const data = issuesToErrorData(issues);
  return data.code === 'INVALID_ADDRESS' ? new InvalidAddressError(data) : new ValidationError(data);
}
