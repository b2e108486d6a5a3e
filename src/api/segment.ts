/**
 * Request paths with caller-supplied segments. Every id that goes into a URL path goes through
 * `path`, so no id can change the route: `.`, `..`, an empty id or one holding a `/` (also
 * percent-encoded, `%2F`, or a backslash) is refused before anything is sent, and everything
 * else is percent-encoded.
 *
 * ```text
 * path`/api/v1/things/${id}`   // '/api/v1/things/ord_1%3Fx%3D1' for 'ord_1?x=1'
 * ```
 * @module
 */
import { ValidationError } from '../errors/index.js';

/** One path segment, validated and percent-encoded; `field` names it in the error. */
export function segment(value: unknown, field = 'id'): string {
  if (typeof value !== 'string') throw refuse(field, `${field} must be a string`, value);
  let decoded = value;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    // Not valid percent-encoding: sent encoded as is (`%` becomes `%25`), so it is inert.
  }
  for (const form of value === decoded ? [value] : [value, decoded]) {
    if (form === '' || form === '.' || form === '..' || form.includes('/') || form.includes('\\')) {
      throw refuse(field, `${field} ${JSON.stringify(value)} is not a valid path segment: it must not be empty, '.', '..', or contain '/' or '\\'`, value);
    }
  }
  return encodeURIComponent(value);
}

/** Tagged template: the literal parts as written, every `${value}` through `segment` (field `id`). */
export function path(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += segment(values[i]) + strings[i + 1]!;
  return out;
}

function refuse(field: string, message: string, value: unknown): ValidationError {
  return new ValidationError({ code: 'VALIDATION_ERROR', message, details: { field, value: typeof value === 'string' ? value : typeof value } });
}
