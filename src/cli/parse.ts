/**
 * Human units in, exact units out. Every parser throws UsageError (exit 2) naming the option.
 */
import { trxToSun } from '../utils/units.js';
import { CliError, EXIT, UsageError } from './errors.js';
import { IDEMPOTENCY_KEY_PATTERN, LIMITS, type RESOURCE_TYPES } from './facts.js';

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 };

/**
 * `30m`, `1h`, `3d`, `90s`, `1h30m`, or plain seconds (`3600`) -> whole seconds.
 */
export function parseDuration(input: string, name = '--duration'): number {
  const text = String(input).trim().toLowerCase();
  if (/^\d+$/.test(text)) {
    const seconds = Number(text);
    if (seconds > 0 && Number.isSafeInteger(seconds)) return seconds;
  } else if (/^(\d+(\.\d+)?[smhdw])+$/.test(text)) {
    let total = 0;
    for (const [, value, unit] of text.matchAll(/(\d+(?:\.\d+)?)([smhdw])/g)) {
      total += Number(value) * (DURATION_UNITS[unit as string] ?? 0);
    }
    if (Number.isInteger(total) && total > 0) return total;
  }
  throw new UsageError(`${name} must be a duration like 30m, 1h, 3d, 90s or a number of seconds, got ${JSON.stringify(input)}`);
}

export type Resource = (typeof RESOURCE_TYPES)[number];

/** `energy` / `bandwidth` (any case; `e`, `bw` accepted). */
export function parseResource(input: string, name = 'resource'): Resource {
  const text = String(input).trim().toLowerCase();
  if (text === 'energy' || text === 'e') return 'ENERGY';
  if (text === 'bandwidth' || text === 'bw' || text === 'b') return 'BANDWIDTH';
  throw new UsageError(`${name} must be energy or bandwidth, got ${JSON.stringify(input)}`);
}

/**
 * Resource units: `65000`, `65_000`, `65,000`, `65k`, `1.5m` -> a positive whole number.
 */
export function parseUnits(input: string, name = 'amount'): number {
  const text = String(input).trim().toLowerCase().replace(/[_,]/g, '');
  const match = /^(\d+(?:\.\d+)?)([km]?)$/.exec(text);
  if (match) {
    const [, digits = '', suffix] = match;
    const scale = suffix === 'k' ? 1_000 : suffix === 'm' ? 1_000_000 : 1;
    // Exact: scale the decimal by shifting digits, never by multiplying floats.
    const [whole = '0', frac = ''] = digits.split('.');
    const places = scale === 1 ? 0 : scale === 1_000 ? 3 : 6;
    if (frac.replace(/0+$/, '').length <= places) {
      const value = Number(whole + frac.padEnd(places, '0').slice(0, places));
      if (value > 0 && Number.isSafeInteger(value)) return value;
    }
  }
  throw new UsageError(`${name} must be a positive whole number of units (e.g. 65000 or 65k), got ${JSON.stringify(input)}`);
}

/**
 * The smallest order of `resource` (energy: the spec's 65,000; bandwidth: 1,000, the smallest
 * provider minimum): checked before anything is sent.
 */
export function minimumUnits(resource: Resource): number {
  return resource === 'ENERGY' ? LIMITS.MIN_ENERGY_AMOUNT : LIMITS.MIN_BANDWIDTH_AMOUNT;
}

/** `amount` of `resource`, or a validation error (exit 2) naming the minimum. */
export function checkMinimum(resource: Resource, amount: number, name = 'amount'): number {
  const min = minimumUnits(resource);
  if (amount >= min) return amount;
  const what = resource === 'ENERGY' ? 'energy' : 'bandwidth';
  throw new CliError('VALIDATION_ERROR', `${name} ${amount} is below the minimum ${what} order of ${min} units`, {
    exitCode: EXIT.USAGE,
    hint: `rent at least ${min} units of ${what}`,
  });
}

/** A TRX (or USDT) decimal like `1.5` -> exact SUN (6 decimals). */
export function parseTrx(input: string, name = 'amount'): number {
  const text = String(input)
    .trim()
    .replace(/[_,]/g, '')
    .replace(/\s*(trx|usdt)$/i, '');
  let sun: number;
  try {
    sun = trxToSun(text, name);
  } catch (error) {
    throw new UsageError(
      `${name} must be a decimal amount like 1.5 with at most 6 decimal places, got ${JSON.stringify(input)}`,
      undefined,
      'VALIDATION_ERROR',
    );
  }
  if (sun <= 0) throw new UsageError(`${name} must be greater than 0, got ${JSON.stringify(input)}`, undefined, 'VALIDATION_ERROR');
  return sun;
}

/** A price in SUN per unit (`30`, `27.5`). */
export function parseSunPrice(input: string, name = '--max-price'): number {
  const text = String(input)
    .trim()
    .replace(/[_,]/g, '')
    .replace(/\s*sun$/i, '');
  if (/^\d+(\.\d+)?$/.test(text)) {
    const value = Number(text);
    if (value > 0 && Number.isFinite(value)) return value;
  }
  throw new UsageError(`${name} must be a positive price in SUN per unit, got ${JSON.stringify(input)}`);
}

/** A non-negative integer option (limit, offset, port). */
export function parseInteger(input: string, name: string, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const text = String(input).trim();
  if (/^\d+$/.test(text)) {
    const value = Number(text);
    if (value >= min && value <= max) return value;
  }
  throw new UsageError(`${name} must be a whole number between ${min} and ${max}, got ${JSON.stringify(input)}`);
}

/** True for a base58check TRON address (the checker, with its hashing, is imported on first use). */
export async function isAddress(value: string): Promise<boolean> {
  const { isTronAddress } = await import('../utils/address.js');
  return isTronAddress(value);
}

export async function parseAddress(input: string, name = '--to'): Promise<string> {
  const text = String(input).trim();
  if (await isAddress(text)) return text;
  throw new CliError('INVALID_ADDRESS', `${name} is not a valid TRON address: ${JSON.stringify(input)}`, {
    exitCode: EXIT.USAGE,
    hint: 'a TRON address starts with T and has 34 base58 characters with a valid checksum',
  });
}

/** One of `values`, case-insensitive; returns the canonical spelling. */
export function parseChoice<const T extends readonly string[]>(input: string, values: T, name: string): T[number] {
  const found = values.find((v) => v.toLowerCase() === String(input).trim().toLowerCase());
  if (found) return found;
  throw new UsageError(`${name} must be one of ${values.join(', ')}, got ${JSON.stringify(input)}`);
}

/** An `--idempotency-key`: the API's length limit, visible ASCII (the value is a header). */
export function parseIdempotencyKey(input: string | undefined, name = '--idempotency-key'): string | undefined {
  if (input === undefined) return undefined;
  if (IDEMPOTENCY_KEY_PATTERN.test(input)) return input;
  throw new CliError('VALIDATION_ERROR', `${name} must be 1 to ${LIMITS.IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters`, { exitCode: EXIT.USAGE });
}

/** The amount from the argument or --amount (both only if they agree). */
export function oneAmount(positional: string | undefined, option: string | undefined): string | undefined {
  if (positional !== undefined && option !== undefined && positional.trim() !== option.trim()) {
    throw new UsageError(`two different amounts: ${positional} and --amount ${option}`);
  }
  return positional ?? option;
}

/** `a,b c` -> ['a', 'b', 'c'] */
export function parseList(input: string | string[]): string[] {
  const items = Array.isArray(input) ? input : [input];
  return items.flatMap((s) => s.split(/[\s,]+/)).filter(Boolean);
}

/** Validators for prompts: true, or the message to show. */
export const validate = {
  address: async (v: string): Promise<true | string> => ((await isAddress(v.trim())) ? true : 'Not a TRON address (T…, 34 characters, valid checksum)'),
  units: (v: string): true | string => attempt(() => parseUnits(v)),
  energyUnits: (v: string): true | string => {
    const ok = attempt(() => parseUnits(v));
    if (ok !== true) return ok;
    return parseUnits(v) >= LIMITS.MIN_ENERGY_AMOUNT ? true : `Energy orders start at ${LIMITS.MIN_ENERGY_AMOUNT} units`;
  },
  bandwidthUnits: (v: string): true | string => {
    const ok = attempt(() => parseUnits(v));
    if (ok !== true) return ok;
    return parseUnits(v) >= LIMITS.MIN_BANDWIDTH_AMOUNT ? true : `Bandwidth orders start at ${LIMITS.MIN_BANDWIDTH_AMOUNT} units`;
  },
  /** A decimal amount of at least `minSun` (deposit 1 TRX, withdrawal 50), for prompts that re-ask. */
  trxAtLeast:
    (minSun: number) =>
    (v: string): true | string => {
      const ok = attempt(() => parseTrx(v));
      if (ok !== true) return ok;
      return parseTrx(v) >= minSun ? true : `At least ${minSun / 1_000_000} (got ${v.trim()})`;
    },
  duration: (v: string): true | string => attempt(() => parseDuration(v)),
  trx: (v: string): true | string => attempt(() => parseTrx(v)),
};

function attempt(fn: () => unknown): true | string {
  try {
    fn();
    return true;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
