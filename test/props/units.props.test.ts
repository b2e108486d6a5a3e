import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError, atomicToDecimal, decimalToAtomic, sunToTrx, trxToSun } from '../../src/index.js';
import { BUDGET } from './budget.js';

/** Exact money: every SUN amount round-trips, every decimal with <= 6 places converts exactly, more throws. */

const opts = (n: number) => ({ numRuns: BUDGET.runs(n), interruptAfterTimeLimit: BUDGET.timeMs });
const MAX = BigInt(Number.MAX_SAFE_INTEGER);
const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'.split('')), minLength: min, maxLength: max });

/** The canonical text of an exact decimal: no leading zeros in the whole part, no trailing zeros in the fraction. */
function canonical(negative: boolean, whole: string, frac: string): string {
  const w = whole.replace(/^0+(?=\d)/, '') || '0';
  const f = frac.replace(/0+$/, '');
  const text = f ? `${w}.${f}` : w;
  return negative && text !== '0' ? `-${text}` : text;
}

/** A decimal string with 0..6 decimals (any spelling: leading zeros, trailing zeros, `.5`, `5.`) within 2^53 SUN. */
const trxDecimal = fc
  .tuple(fc.boolean(), digits(0, 10), digits(0, 6), fc.constantFrom('', '.', 'lead0'), fc.constantFrom('', ' '))
  .filter(([, whole, frac, style]) => whole !== '' || (frac !== '' && style !== 'lead0'))
  .filter(([, whole, frac]) => BigInt(whole || '0') * 1_000_000n + BigInt(frac.padEnd(6, '0') || '0') <= MAX)
  .map(([negative, whole, frac, style, pad]) => {
    let text: string;
    if (frac === '') text = style === '.' && whole !== '' ? `${whole}.` : whole;
    else text = `${style === 'lead0' ? `0${whole}` : whole}.${frac}`;
    return { text: `${pad}${negative ? '-' : ''}${text}${pad}`, negative, whole: whole || '0', frac };
  });

describe('trxToSun / sunToTrx', () => {
  it(
    'round-trips every safe-integer SUN amount (number, bigint and digit-string input)',
    () => {
      fc.assert(
        fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -10_000_000, max: 10_000_000 })), (sun) => {
          const trx = sunToTrx(sun);
          expect(trxToSun(trx)).toBe(sun === 0 ? 0 : sun); // -0 never comes back
          expect(sunToTrx(BigInt(sun))).toBe(trx);
          expect(sunToTrx(String(sun))).toBe(trx);
          expect(trx).toMatch(/^-?(0|[1-9]\d*)(\.\d{0,5}[1-9])?$/);
        }),
        opts(10_000),
      );
    },
    BUDGET.testTimeoutMs,
  );

  it(
    'converts every decimal string with 0-6 decimals exactly, and back to its canonical text',
    () => {
      fc.assert(
        fc.property(trxDecimal, ({ text, negative, whole, frac }) => {
          const sun = trxToSun(text);
          const magnitude = BigInt(whole) * 1_000_000n + BigInt(frac.padEnd(6, '0') || '0');
          expect(BigInt(sun)).toBe(negative ? -magnitude : magnitude);
          expect(sunToTrx(sun)).toBe(canonical(negative, whole, frac));
        }),
        opts(10_000),
      );
    },
    BUDGET.testTimeoutMs,
  );

  it(
    'takes a JS number as the decimal it prints as: exact for every amount with <= 15 significant digits',
    () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 999_999_999_999_999 }), (sun) => {
          expect(trxToSun(sun / 1_000_000)).toBe(sun);
        }),
        opts(10_000),
      );
    },
    BUDGET.testTimeoutMs,
  );

  it(
    'always throws ValidationError for more than 6 significant decimals, whatever the trailing zeros',
    () => {
      fc.assert(
        fc.property(
          fc.boolean(),
          digits(0, 12),
          digits(6, 6),
          digits(0, 12),
          fc.integer({ min: 1, max: 9 }),
          fc.nat(4),
          (negative, whole, first6, middle, last, zeros) => {
            const text = `${negative ? '-' : ''}${whole}.${first6}${middle}${last}${'0'.repeat(zeros)}`;
            expect(() => trxToSun(text)).toThrow(ValidationError);
            expect(() => decimalToAtomic(text, 6)).toThrow(/more than 6 decimal places/);
          },
        ),
        opts(5_000),
      );
    },
    BUDGET.testTimeoutMs,
  );

  it(
    'throws ValidationError (never anything else, never a number) for arbitrary non-decimal input',
    () => {
      fc.assert(
        fc.property(fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('1e3', '0x10', 'Infinity', 'NaN', '1_000', '+1', '--1', '1.2.3', '')), (text) => {
          let result: number | undefined;
          try {
            result = trxToSun(text);
          } catch (error) {
            expect(error).toBeInstanceOf(ValidationError);
            return;
          }
          // Accepted: it must have been a plain decimal (optionally signed, padded) within 6 places.
          expect(text.trim()).toMatch(/^-?(\d+(\.\d*)?|\.\d+)$/);
          expect(Number.isSafeInteger(result)).toBe(true);
        }),
        opts(10_000),
      );
    },
    BUDGET.testTimeoutMs,
  );

  it(
    'rejects amounts beyond 2^53 SUN instead of losing precision',
    () => {
      fc.assert(
        fc.property(fc.bigInt({ min: MAX + 1n, max: MAX * 1000n }), (sun) => {
          const trx = sunToTrx(sun); // bigint in: always fine
          expect(decimalToAtomic(trx, 6)).toBe(sun);
          expect(() => trxToSun(trx)).toThrow(/too large/);
        }),
        opts(2_000),
      );
    },
    BUDGET.testTimeoutMs,
  );
});

describe('decimalToAtomic / atomicToDecimal (18 decimals, bigint)', () => {
  const big = fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n });

  it(
    'round-trips every bigint amount',
    () => {
      fc.assert(
        fc.property(big, (n) => {
          const text = atomicToDecimal(n, 18);
          expect(decimalToAtomic(text, 18)).toBe(n);
          expect(atomicToDecimal(decimalToAtomic(text, 18), 18)).toBe(text);
          expect(text).toMatch(/^-?(0|[1-9]\d*)(\.\d{0,17}[1-9])?$/);
        }),
        opts(10_000),
      );
    },
    BUDGET.testTimeoutMs,
  );

  it(
    'converts every decimal string with 0-18 decimals exactly; 19+ significant decimals throw',
    () => {
      fc.assert(
        fc.property(fc.boolean(), digits(1, 30), digits(0, 18), fc.integer({ min: 1, max: 9 }), (negative, whole, frac, extra) => {
          const sign = negative ? '-' : '';
          const text = `${sign}${whole}.${frac}`;
          const magnitude = BigInt(whole) * 10n ** 18n + BigInt(frac.padEnd(18, '0'));
          expect(decimalToAtomic(text, 18)).toBe(negative ? -magnitude : magnitude);
          expect(atomicToDecimal(decimalToAtomic(text, 18), 18)).toBe(canonical(negative, whole, frac));
          expect(() => decimalToAtomic(`${sign}${whole}.${frac.padEnd(18, '0')}${extra}`, 18)).toThrow(ValidationError);
        }),
        opts(10_000),
      );
    },
    BUDGET.testTimeoutMs,
  );

  it(
    'bigint input means whole units; atomic input must be an integer',
    () => {
      fc.assert(
        fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 30 }), (n, decimals) => {
          expect(decimalToAtomic(n, decimals)).toBe(n * 10n ** BigInt(decimals));
          expect(decimalToAtomic(atomicToDecimal(n, decimals), decimals)).toBe(n);
        }),
        opts(5_000),
      );
      fc.assert(
        fc.property(fc.double({ noInteger: true }), (x) => {
          expect(() => atomicToDecimal(x, 18)).toThrow(ValidationError);
        }),
        opts(2_000),
      );
    },
    BUDGET.testTimeoutMs,
  );
});
