/**
 * Building blocks shared by every resource schema. Requests are strict (unknown keys rejected,
 * exact types); responses are lenient (unknown keys kept, unknown enum values kept, numbers
 * that the live service sends as strings accepted).
 * @module
 */
import * as z from 'zod/mini';
import type { Known } from './known.js';
import { isTronAddress } from '../utils/address.js';
import { RESOURCE_TYPES } from './enums.js';
export { RESOURCE_TYPES } from './enums.js';

export { LIMITS } from './limits.js';

/**
 * An enum that accepts its known values on requests but, on responses, also keeps values the
 * live service added later (e.g. PARTIALLY_FILLED). The type stays autocomplete-friendly.
 */
export function lenientEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return z.union([z.enum(values), z.string()]) as unknown as z.ZodMiniType<T[number] | (string & {})>;
}

/** A number the live service sometimes sends as a numeric string. Parsed to a number. */
export const looseNumber = z.union([z.number(), z.pipe(z.string().check(z.regex(/^-?\d+(\.\d+)?$/)), z.transform(Number))]);

/** A timestamp: ISO 8601 per the spec, Unix seconds or milliseconds from the live service. */
export const looseTimestamp = z.union([z.string(), z.number()]);

/** Base58check TRON address; a failure carries code INVALID_ADDRESS. */
export const tronAddress = z.string().check(
  z.refine(isTronAddress, {
    message: 'must be a valid base58check TRON address (T..., 34 characters)',
    params: { code: 'INVALID_ADDRESS' },
  }),
);

/** Whole SUN, non-negative, within Number's exact integer range. */
export const sun = z.number().check(z.int(), z.nonnegative(), z.maximum(Number.MAX_SAFE_INTEGER));

// Native checks (integer, minimum, maximum), no refinement: the same message for each, and a
// schema the build-time fast checks (scripts/lib/compile-checks.mjs) compile, where a
// function would leave the response to zod alone. z.number() already refuses NaN
// and ±Infinity; z.int() refuses beyond ±(2^53-1) itself (a safe integer), so sunAmount needs no
// maximum of its own.
const WHOLE_SUN = 'must be whole SUN: an integer from 0 to 2^53-1 (not fractional, negative or larger)';
const SUN_PRICE = 'must be a price in SUN from 0 to 2^53-1';

/**
 * An amount of SUN in a response (a balance, an order's or a fill's cost, a withdrawal, a
 * deposit): the spec gives these as SUN, and SUN is the smallest unit, so it is a whole number.
 * One that is fractional, negative or beyond 2^53-1 (where a JSON number is no longer exact)
 * fails the response's parse, an INVALID_RESPONSE error: money is never silently rounded. A
 * string of digits is accepted as `looseNumber` accepts it.
 */
export const sunAmount = z.pipe(looseNumber, z.number().check(z.int(WHOLE_SUN), z.minimum(0, WHOLE_SUN)));

/**
 * A price per unit of resource, in SUN (`price_sun`, `max_price_sun`, `best_price_sun`,
 * `avg_price_sun`): the spec types these as "number, SUN per unit", and a per-unit price (an
 * average above all) may have a fraction, so a fraction is kept. Negative values and values
 * beyond 2^53-1 (no longer exact) fail the parse with INVALID_RESPONSE.
 */
export const sunPrice = z.pipe(looseNumber, z.number().check(z.minimum(0, SUN_PRICE), z.maximum(Number.MAX_SAFE_INTEGER, SUN_PRICE)));

/** A whole number from 1 to `Number.MAX_SAFE_INTEGER` (resource amounts, durations in seconds). */
export const positiveInt = z.number().check(z.int(), z.positive(), z.maximum(Number.MAX_SAFE_INTEGER));

/**
 * `ENERGY` or `BANDWIDTH`, as requests send it (strict: any other value is rejected). Responses
 * parse `resource_type` leniently and keep values this version does not know.
 */
export const ResourceType = z.enum(RESOURCE_TYPES);
export type ResourceType = Known<z.infer<typeof ResourceType>>;

/** A query-string number: accepts a number, or digits as the mock receives them from a URL. */
export const queryInt = z.union([z.number(), z.pipe(z.string().check(z.regex(/^\d+$/, 'must be a whole number')), z.transform(Number))]);

/**
 * The result inside a success body. The spec shows bare bodies; the live service wraps them in
 * `{ data }`. An object with `data` whose other keys are only `success`, `meta` or
 * `request_id` is unwrapped to its `data`; anything else comes back unchanged.
 */
export function unwrapEnvelope(body: unknown): unknown {
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && 'data' in body) {
    const keys = Object.keys(body);
    if (keys.every((k) => k === 'data' || k === 'success' || k === 'meta' || k === 'request_id')) {
      return (body as { data: unknown }).data;
    }
  }
  return body;
}

/**
 * `{ error: { … } }` without `data`: an error, whatever the status (the live service sends
 * error envelopes with 2xx statuses too).
 */
export function isErrorEnvelope(body: unknown): boolean {
  return (
    body !== null &&
    typeof body === 'object' &&
    !Array.isArray(body) &&
    'error' in body &&
    typeof (body as { error: unknown }).error === 'object' &&
    (body as { error: unknown }).error !== null &&
    !('data' in body)
  );
}
