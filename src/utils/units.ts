/**
 * Exact decimal <-> integer conversion for money. No floating point anywhere: a decimal string
 * is split into digits, so '0.1' TRX is exactly 100000 SUN. Too many decimals is an error,
 * never a silent rounding.
 * @module
 */
import { ValidationError } from '../errors/index.js';

/** SUN in one TRX: 1 TRX = 1,000,000 SUN. */
export const SUN_PER_TRX = 1_000_000;
const DECIMAL = /^(\d+)(?:\.(\d*))?$|^\.(\d+)$/;

function fail(field: string, message: string, value: unknown): never {
  throw new ValidationError({ code: 'VALIDATION_ERROR', message, details: { field, value } });
}

/**
 * Decimal string (or finite number) -> integer atomic units as bigint: ('1.5', 6) -> 1500000n.
 * A bigint is taken as whole units. More than `decimals` decimal places, exponent forms or
 * non-numbers throw ValidationError.
 * @param field - Name used in the error's message and `details.field`.
 */
export function decimalToAtomic(value: string | number | bigint, decimals: number, field = 'amount'): bigint {
  if (typeof value === 'bigint') return value * 10n ** BigInt(decimals);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) fail(field, `${field} must be a finite number`, value);
    // Number#toString gives the shortest exact round-trip form; exponent forms are rejected below.
    value = String(value);
  }
  const text = value.trim();
  const negative = text.startsWith('-');
  const match = DECIMAL.exec(negative ? text.slice(1) : text);
  if (!match) fail(field, `${field} must be a decimal number like 1.5, got ${JSON.stringify(value)}`, value);
  const whole = match[1] ?? '0';
  const frac = (match[2] ?? match[3] ?? '').replace(/0+$/, '');
  if (frac.length > decimals) {
    fail(field, `${field} has more than ${decimals} decimal places: ${value}`, value);
  }
  const atomic = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, '0') || '0');
  return negative ? -atomic : atomic;
}

/**
 * Integer atomic units -> shortest exact decimal string ('1500000', 6 -> '1.5'). A non-integer
 * or unsafe-integer number throws ValidationError.
 * @param field - Name used in the error's message and `details.field`.
 */
export function atomicToDecimal(value: bigint | number | string, decimals: number, field = 'amount'): string {
  let n: bigint;
  try {
    if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new Error();
    n = BigInt(value);
  } catch {
    fail(field, `${field} must be an integer amount of atomic units, got ${String(value)}`, value);
  }
  const negative = n < 0n;
  if (negative) n = -n;
  const base = 10n ** BigInt(decimals);
  const whole = n / base;
  const frac = (n % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${frac ? `.${frac}` : ''}`;
}

/**
 * '1.5' TRX -> 1500000 SUN. Exact; more than 6 decimals or beyond 2^53 SUN throws ValidationError.
 * @param field - Name used in the error's message and `details.field`.
 */
export function trxToSun(trx: string | number, field = 'amount'): number {
  const sun = decimalToAtomic(trx, 6, field);
  if (sun > BigInt(Number.MAX_SAFE_INTEGER) || sun < -BigInt(Number.MAX_SAFE_INTEGER)) {
    fail(field, `${field} is too large to represent exactly in SUN`, trx);
  }
  return Number(sun);
}

/**
 * 1500000 SUN -> '1.5' TRX. Exact for any integer (safe-integer number, bigint or digit string).
 * @param field - Name used in the error's message and `details.field`.
 */
export function sunToTrx(sun: number | bigint | string, field = 'amount'): string {
  return atomicToDecimal(sun, 6, field);
}
