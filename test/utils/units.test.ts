import { describe, expect, it } from 'vitest';
import { ValidationError, sunToTrx, trxToSun, decimalToAtomic, atomicToDecimal } from '../../src/index.js';

describe('trxToSun / sunToTrx', () => {
  it('converts exactly', () => {
    expect(trxToSun('1.5')).toBe(1_500_000);
    expect(sunToTrx(1_500_000)).toBe('1.5');
    expect(trxToSun('0.1')).toBe(100_000);
    expect(trxToSun('0.000001')).toBe(1);
    expect(trxToSun('50')).toBe(50_000_000);
    expect(trxToSun('.5')).toBe(500_000);
    expect(trxToSun('1.500000')).toBe(1_500_000);
    expect(trxToSun(0.3)).toBe(300_000); // 0.1 + 0.2 style float traps do not apply to literal input
    expect(sunToTrx(1)).toBe('0.000001');
    expect(sunToTrx(0)).toBe('0');
    expect(sunToTrx(1_000_000)).toBe('1');
    expect(sunToTrx(123_456_789n)).toBe('123.456789');
    expect(sunToTrx('9007199254740993')).toBe('9007199254.740993');
  });

  it('refuses to round: more than 6 decimals is an error naming the field', () => {
    expect(() => trxToSun('1.0000001')).toThrow(ValidationError);
    try {
      trxToSun('0.1234567', 'amount');
    } catch (e) {
      expect((e as ValidationError).field).toBe('amount');
      expect((e as ValidationError).message).toMatch(/6 decimal/);
    }
  });

  it('rejects non-decimals and unsafe sizes', () => {
    for (const bad of ['', 'abc', '1,5', '1e3', '1.2.3', '0x10', ' ', 'Infinity']) {
      expect(() => trxToSun(bad), bad).toThrow(ValidationError);
    }
    expect(() => trxToSun(Number.NaN)).toThrow(ValidationError);
    expect(() => trxToSun('99999999999')).toThrow(/too large/);
    expect(() => sunToTrx(1.5)).toThrow(ValidationError);
    expect(() => sunToTrx('1.5')).toThrow(ValidationError);
  });

  it('round-trips every SUN amount in a sweep', () => {
    for (let sun = 0; sun < 3_000_000; sun += 997) expect(trxToSun(sunToTrx(sun))).toBe(sun);
    for (const sun of [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER - 1, 10 ** 15 + 1]) {
      expect(trxToSun(sunToTrx(sun))).toBe(sun);
    }
  });

  it('generic atomic conversion handles 18-decimal tokens as bigint', () => {
    expect(decimalToAtomic('1.000000000000000001', 18)).toBe(10n ** 18n + 1n);
    expect(atomicToDecimal(10n ** 18n + 1n, 18)).toBe('1.000000000000000001');
    expect(decimalToAtomic('0.01', 6)).toBe(10_000n);
    expect(atomicToDecimal(-1500n, 3)).toBe('-1.5');
  });
});
