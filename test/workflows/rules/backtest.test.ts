/**
 * The backtest replays `[end - days, end)`, half-open: `--days 1` is 24 hours, so a rule with
 * `max_runs_per_day: 1` runs once and a daily cron fires once, and the energy used is exactly
 * 24 hours' worth.
 */
import { describe, expect, it } from 'vitest';
import { backtest, parseRules } from '../../../src/workflows/rules/index.js';
import { DAY, MINUTE, testAddress } from './helpers.js';

const END = Date.UTC(2026, 11, 7, 3, 0, 0);
/** A flat price every 5 minutes over the two days before END (and at END itself). */
const prices = Array.from({ length: 2 * 288 + 1 }, (_, i) => ({ at: END - 2 * DAY + i * 5 * MINUTE, price_sun: 50 }));

describe('backtest', () => {
  it('--days 1 with max_runs_per_day 1 counts one run; a daily cron at the start fires once', () => {
    const file = parseRules(
      JSON.stringify({
        rules: [
          {
            id: 'cheap',
            trigger: { type: 'price_below', price_sun: 60 },
            action: { type: 'buy', address: testAddress(500), amount: 65_000, duration: '1h' },
            limits: { max_runs_per_day: 1 },
          },
          // END is 03:00, so the replay's first instant is 03:00 the day before: [start, end) holds one 03:00.
          { id: 'nightly', trigger: { type: 'schedule', cron: '0 3 * * *' }, action: { type: 'notify' } },
        ],
      }),
    );
    const one = backtest(file, { prices, end: END, days: 1, energyPerHour: 65_000 });
    expect(one.rules.find((r) => r.rule === 'cheap')).toMatchObject({ runs: 1, spend_sun: 65_000 * 50 });
    expect(one.rules.find((r) => r.rule === 'nightly')!.runs).toBe(1);
    expect(one.energy_used).toBe(0); // no watched address in these rules
    expect(one.from).toBe(new Date(END - DAY).toISOString());
    const two = backtest(file, { prices, end: END, days: 2 });
    expect(two.rules.find((r) => r.rule === 'cheap')!.runs).toBe(2);
    expect(two.rules.find((r) => r.rule === 'nightly')!.runs).toBe(2);
  });

  it('a watched address spends exactly days × 24 h of energy', () => {
    const address = testAddress(501);
    const file = parseRules(
      JSON.stringify({
        rules: [
          {
            id: 'hot',
            trigger: { type: 'energy_below', address, energy: 65_000 },
            action: { type: 'ensure', energy: 130_000 },
            limits: { max_runs_per_day: 1 },
          },
        ],
      }),
    );
    const result = backtest(file, { prices, end: END, days: 1, energyPerHour: 65_000 });
    expect(result.energy_used).toBe(24 * 65_000);
    expect(result.burn_all_sun).toBe(24 * 65_000 * 100);
    expect(result.runs).toBe(1);
    // The one rental of 130,000 energy for 1 h: the rest of the day is burnt.
    expect(result.shortfall_burn_sun).toBeGreaterThan(0);
  });
});
