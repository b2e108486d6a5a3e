/**
 * From zod issues to the spec's error data (`{ code, message, details }`), as plain data with no
 * error classes: the SDK wraps it in ValidationError / InvalidAddressError before sending, the
 * mock sends it as the error envelope. One mapping, so a field is named the same on both sides.
 * @module
 */
import * as z from 'zod/mini';
import { en } from 'zod/locales';

const english = en().localeError;
const zodConfig = z.config();

/**
 * Parse options giving zod's English messages (`Too small: expected number to be >=65000`), used
 * through {@link englishIssues} by the SDK's, the mock's and the node client's checks, without
 * touching zod's global configuration, which an application's own zod shares. zod/mini loads no
 * locale, so without this every message would be `Invalid input`. An error map or locale the application set with `z.config()` still
 * comes first, as it did when trx-rent loaded zod's classic API (which installs English globally).
 */
export const ENGLISH_MESSAGES: z.core.ParseContext<z.core.$ZodIssue> = {
  error: (issue) => zodConfig.customError?.(issue) ?? zodConfig.localeError?.(issue) ?? english(issue),
};

/**
 * The issues of a parse that failed, with zod's English messages: `input` is parsed again with
 * {@link ENGLISH_MESSAGES}. Only a failure pays for this: a parse given any options object costs
 * about 0.4 µs more (zod copies it per parse; measured on Node 20 with zod 4.4.3 and 4.6.7), so
 * the parse on the request path passes none.
 */
export function englishIssues(schema: z.ZodMiniType, input: unknown): z.core.$ZodIssue[] {
  const again = schema.safeParse(input, ENGLISH_MESSAGES);
  return again.success ? [] : again.error.issues;
}

/** The spec's error data for a request that failed its schema. */
export interface IssueErrorData {
  /** `INVALID_ADDRESS` when the first issue is an address check, else `VALIDATION_ERROR`. */
  code: 'VALIDATION_ERROR' | 'INVALID_ADDRESS';
  /** Names the field, e.g. `amount: Too small: expected number to be >=65000`. */
  message: string;
  /**
   * The spec's shape and nothing else: `field` (dotted path of the first issue) and `min` when the
   * rule had one (`{ field: 'amount', min: 65000 }` for an energy amount below the minimum).
   */
  details: Record<string, unknown>;
}

/** Describe the issues of a failed request parse; the first issue names the field. */
export function issuesToErrorData(issues: readonly z.core.$ZodIssue[]): IssueErrorData {
  const issue = issues[0];
  const field = issue && issue.path.length > 0 ? issue.path.map(String).join('.') : undefined;
  const params = (issue as { params?: Record<string, unknown> } | undefined)?.params ?? {};
  const message = issue ? describeIssue(issue, field) : 'Request failed validation';
  const details: Record<string, unknown> = { field };
  const min = params.min ?? (issue as { minimum?: unknown } | undefined)?.minimum;
  if (min !== undefined) details.min = typeof min === 'bigint' ? Number(min) : min;
  return { code: params.code === 'INVALID_ADDRESS' ? 'INVALID_ADDRESS' : 'VALIDATION_ERROR', message, details };
}

function describeIssue(issue: z.core.$ZodIssue, field: string | undefined): string {
  if (issue.code === 'unrecognized_keys') return `Unknown field(s): ${issue.keys.join(', ')}`;
  if (issue.code === 'invalid_type' && issue.message.includes('received undefined')) {
    return `${field ?? 'value'} is required`;
  }
  return field ? `${field}: ${issue.message}` : issue.message;
}
