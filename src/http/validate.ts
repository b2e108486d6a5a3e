import type { z } from 'zod';
import { InvalidAddressError, ValidationError } from '../errors/index.js';

/**
 * Validate a request locally with its schema before anything is sent. The first issue names
 * the field; an address failure becomes InvalidAddressError, everything else ValidationError.
 */
export function validateRequest<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw requestIssuesToError(result.error.issues);
}

export function requestIssuesToError(issues: readonly z.core.$ZodIssue[]): ValidationError | InvalidAddressError {
  const issue = issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
  const params = (issue as { params?: Record<string, unknown> } | undefined)?.params ?? {};
  const message = issue ? describeIssue(issue, field) : 'Request failed validation';
  const details: Record<string, unknown> = {
    field,
    issues: issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message, code: i.code })),
  };
  const min = params.min ?? (issue as { minimum?: unknown } | undefined)?.minimum;
  if (min !== undefined) details.min = typeof min === 'bigint' ? Number(min) : min;
  if (params.code === 'INVALID_ADDRESS') {
    return new InvalidAddressError({ code: 'INVALID_ADDRESS', message, details });
  }
  return new ValidationError({ code: 'VALIDATION_ERROR', message, details });
}

function describeIssue(issue: z.core.$ZodIssue, field: string | undefined): string {
  if (issue.code === 'unrecognized_keys') return `Unknown field(s): ${issue.keys.join(', ')}`;
  if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) {
    return `${field ?? 'value'} is required`;
  }
  return field ? `${field}: ${issue.message}` : issue.message;
}
