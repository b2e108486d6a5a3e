/** The 5-field cron evaluator, with time zones through Intl (DST included). */
import { describe, expect, it } from 'vitest';
import { cronMatches, isValidCron, lastFireTime, nextFireTime, parseCron } from '../../../src/workflows/rules/index.js';

const at = (iso: string) => Date.parse(iso);

describe('cron', () => {
  it('parses fields, ranges, steps, lists, names and Sunday as 7; refuses the rest naming the field', () => {
    const s = parseCron('*/15 9-17 * jan,jul mon-fri');
    expect([...s.minutes]).toEqual([0, 15, 30, 45]);
    expect([...s.hours]).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect([...s.months]).toEqual([1, 7]);
    expect([...s.weekdays]).toEqual([1, 2, 3, 4, 5]);
    expect([...parseCron('0 0 * * 7').weekdays]).toEqual([0]);
    expect([...parseCron('5/20 * * * *').minutes]).toEqual([5, 25, 45]);
    for (const bad of [
      '* * * *',
      '60 * * * *',
      '* 24 * * *',
      '* * 0 * *',
      '* * * 13 *',
      '* * * * 8',
      '5-1 * * * *',
      '*/0 * * * *',
      'a * * * *',
      '1,,2 * * * *',
    ]) {
      expect(isValidCron(bad), bad).toBe(false);
    }
    expect(() => parseCron('* 25 * * *')).toThrow(/hour/);
  });

  it('matches on the wall clock of a time zone', () => {
    const nine = parseCron('0 9 * * 1-5');
    // Friday 2026-11-27 09:00 in Berlin is 08:00 UTC (CET, +1).
    expect(cronMatches(nine, at('2026-11-27T08:00:00Z'), 'Europe/Berlin')).toBe(true);
    expect(cronMatches(nine, at('2026-11-27T09:00:00Z'), 'Europe/Berlin')).toBe(false);
    expect(cronMatches(nine, at('2026-11-27T09:00:00Z'), 'UTC')).toBe(true);
    // Saturday: no.
    expect(cronMatches(nine, at('2026-11-28T08:00:00Z'), 'Europe/Berlin')).toBe(false);
    // Summer time (CEST, +2).
    expect(cronMatches(nine, at('2026-07-01T07:00:00Z'), 'Europe/Berlin')).toBe(true);
  });

  it('day-of-month and day-of-week: either matches when both are restricted (Vixie cron)', () => {
    const s = parseCron('0 0 13 * fri');
    expect(cronMatches(s, at('2026-11-13T00:00:00Z'))).toBe(true); // a Friday the 13th
    expect(cronMatches(s, at('2026-11-20T00:00:00Z'))).toBe(true); // a Friday
    expect(cronMatches(s, at('2026-12-13T00:00:00Z'))).toBe(true); // a Sunday the 13th
    expect(cronMatches(s, at('2026-12-14T00:00:00Z'))).toBe(false);
  });

  it('next and last fire times, across a DST change', () => {
    const s = parseCron('30 2 * * *');
    // 2026-03-29 02:30 does not exist in Berlin (clocks go 02:00 -> 03:00): the next is on the 30th.
    expect(new Date(nextFireTime(s, at('2026-03-28T12:00:00Z'), 'Europe/Berlin')!).toISOString()).toBe('2026-03-30T00:30:00.000Z');
    expect(new Date(nextFireTime(parseCron('0 9 * * 1-5'), at('2026-11-27T08:00:00Z'), 'Europe/Berlin')!).toISOString()).toBe('2026-11-30T08:00:00.000Z');
    expect(lastFireTime(parseCron('*/5 * * * *'), at('2026-11-28T10:00:00Z'), at('2026-11-28T10:07:30Z'))).toBe(at('2026-11-28T10:05:00Z'));
    expect(lastFireTime(parseCron('0 * * * *'), at('2026-11-28T10:00:00Z'), at('2026-11-28T10:59:00Z'))).toBeUndefined();
  });
});
