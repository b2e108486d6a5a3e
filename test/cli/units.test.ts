/**
 * Human units in, exact units out: the CLI's parsers and money formatting.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costSun, formatDuration, groupDigits, sunAndTrx, trxOf } from '../../src/cli/format.js';
import { exitCodeFor } from '../../src/cli/errors.js';
import { reportFor } from '../../src/cli/error-report.js';
import { parseDuration, parseResource, parseSunPrice, parseTrx, parseUnits } from '../../src/cli/parse.js';
import { rankPrices } from '../../src/cli/commands/prices.js';
import {
  ForbiddenError,
  InsufficientBalanceError,
  InvalidAddressError,
  NotFoundError,
  RateLimitedError,
  TrxRentError,
  UnauthorizedError,
  ValidationError,
} from '../../src/errors/index.js';
import { trxToSun } from '../../src/utils/units.js';

describe('parsers', () => {
  it('durations: 30m, 1h, 3d, 90s, compound and plain seconds', () => {
    expect(parseDuration('30m')).toBe(1800);
    expect(parseDuration('1h')).toBe(3600);
    expect(parseDuration('3d')).toBe(259_200);
    expect(parseDuration('90s')).toBe(90);
    expect(parseDuration('1h30m')).toBe(5400);
    expect(parseDuration('1.5h')).toBe(5400);
    expect(parseDuration('3600')).toBe(3600);
    expect(parseDuration(' 2H ')).toBe(7200);
    for (const bad of ['', '0', '1x', 'h', '-1h', '1.5s', '1h-30m', 'soon']) expect(() => parseDuration(bad), bad).toThrow(/--duration/);
  });

  it('formatDuration is the inverse on whole seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), (s) => {
        expect(parseDuration(formatDuration(s))).toBe(s);
      }),
    );
  });

  it('resource units: plain, grouped, k and m suffixes, exact', () => {
    expect(parseUnits('65000')).toBe(65_000);
    expect(parseUnits('65_000')).toBe(65_000);
    expect(parseUnits('65,000')).toBe(65_000);
    expect(parseUnits('65k')).toBe(65_000);
    expect(parseUnits('1.5m')).toBe(1_500_000);
    expect(parseUnits('0.065m')).toBe(65_000);
    for (const bad of ['0', '-5', '1.5', '1.0001k', 'lots', '']) expect(() => parseUnits(bad), bad).toThrow();
  });

  it('TRX decimals convert to SUN exactly (never through floats)', () => {
    expect(parseTrx('1.5')).toBe(1_500_000);
    expect(parseTrx('0.1')).toBe(100_000);
    expect(parseTrx('60.000001')).toBe(60_000_001);
    expect(parseTrx('1,000 TRX')).toBe(1_000_000_000);
    expect(() => parseTrx('0.0000001')).toThrow(/6 decimal places/);
    expect(() => parseTrx('0')).toThrow(/greater than 0/);
    expect(() => parseTrx('1e3')).toThrow();
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 53n - 1n }), (sun) => {
        expect(parseTrx(trxOf(sun))).toBe(Number(sun));
      }),
    );
  });

  it('resource names and prices', () => {
    expect(parseResource('Energy')).toBe('ENERGY');
    expect(parseResource('bw')).toBe('BANDWIDTH');
    expect(() => parseResource('water')).toThrow();
    expect(parseSunPrice('27.5')).toBe(27.5);
    expect(() => parseSunPrice('0')).toThrow();
  });
});

describe('money formatting', () => {
  it('SUN and TRX, exact for integers and fractional prices', () => {
    expect(sunAndTrx(1_500_000)).toBe('1,500,000 SUN (1.5 TRX)');
    expect(trxOf(49)).toBe('0.000049');
    expect(trxOf(27.5)).toBe('0.0000275');
    expect(trxOf(0.1)).toBe('0.0000001');
    expect(costSun(65_000, 27.5)).toBe('1787500');
    expect(costSun(3, 0.1)).toBe('0.3');
    expect(groupDigits('1234567.891')).toBe('1,234,567.891');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (sun) => {
        expect(trxToSun(trxOf(sun))).toBe(sun);
      }),
    );
  });
});

describe('exit codes and hints', () => {
  const e = (Cls: typeof TrxRentError, code: string, extra: object = {}) => new Cls({ code, message: code, ...extra });
  it('map the typed errors', () => {
    expect(exitCodeFor(e(ValidationError, 'VALIDATION_ERROR'))).toBe(2);
    expect(exitCodeFor(e(InvalidAddressError, 'INVALID_ADDRESS'))).toBe(2);
    expect(exitCodeFor(e(UnauthorizedError, 'UNAUTHORIZED'))).toBe(3);
    expect(exitCodeFor(e(ForbiddenError, 'FORBIDDEN'))).toBe(3);
    expect(exitCodeFor(e(NotFoundError, 'NOT_FOUND'))).toBe(4);
    expect(exitCodeFor(new RateLimitedError({ code: 'RATE_LIMITED', message: 'x', retryAfterMs: 1000 }))).toBe(5);
    expect(exitCodeFor(e(InsufficientBalanceError, 'INSUFFICIENT_BALANCE'))).toBe(1);
    expect(exitCodeFor(e(TrxRentError, 'SOMETHING_NEW'))).toBe(1);
    expect(exitCodeFor(new Error('boom'))).toBe(1);
    expect(exitCodeFor(Object.assign(new Error('x'), { name: 'ExitPromptError' }))).toBe(130);
  });

  it('INSUFFICIENT_BALANCE: balance, need and shortfall; RATE_LIMITED: the wait', async () => {
    const report = await reportFor(e(InsufficientBalanceError, 'INSUFFICIENT_BALANCE'), {
      spending: { sun: 3_185_000, currency: 'TRX' },
      balance: async () => ({ trx: 1_000_000, usdt: 0, trx_locked: 0 }),
    });
    expect(report.hint).toBe(
      'balance 1 TRX (1,000,000 SUN); needed 3.185 TRX (3,185,000 SUN); short by 2.185 TRX (2,185,000 SUN); top up with `trx-rent deposit info`',
    );
    const limited = await reportFor(new RateLimitedError({ code: 'RATE_LIMITED', message: 'slow down', retryAfterMs: 42_000 }));
    expect(limited).toMatchObject({ exit_code: 5, hint: "wait 42 s before retrying, as the server's Retry-After asks" });
  });

  it('redacts keys and JWTs that reach a message', async () => {
    const report = await reportFor(new Error('failed with sk_live_0123456789abcdef and eyJa.eyJb.sig'));
    expect(report.message).not.toMatch(/0123456789abcdef|eyJa\.eyJb/);
  });
});

describe('prices ranking', () => {
  it("uses each provider's shortest tier covering the duration, cheapest first", () => {
    const p = (provider: string, tiers: Array<[number, number]>, available = 1000) => ({
      provider,
      is_market: true,
      energy_prices: tiers.map(([duration_sec, price_sun]) => ({ duration_sec, price_sun })),
      bandwidth_prices: [],
      available_energy: available,
      available_bandwidth: 0,
      fetched_at: 0,
    });
    const rows = rankPrices(
      [
        p('a', [
          [3600, 40],
          [86400, 30],
        ]),
        p('b', [
          [600, 10],
          [3600, 35],
        ]),
        p('c', [[600, 5]]),
      ],
      'ENERGY',
      3600,
      65_000,
    );
    expect(rows.map((r) => [r.provider, r.price_sun, r.duration_sec])).toEqual([
      ['b', 35, 3600],
      ['a', 40, 3600],
    ]);
    expect(rows[0]).toMatchObject({ cost_sun: 2_275_000, cost_trx: '2.275', price_trx: '0.000035' });
    // A fractional price per unit: the cost rounds up to a whole SUN, its TRX stays exact.
    expect(rankPrices([p('f', [[3600, 35.5]])], 'ENERGY', 3600, 3)[0]).toMatchObject({ cost_sun: 107, cost_trx: '0.000107', price_trx: '0.0000355' });
    expect(rankPrices([p('a', [[3600, 40]])], 'BANDWIDTH', 3600)).toEqual([]);
  });
});
