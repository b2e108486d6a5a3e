/**
 * `rules backtest`: replay rules against the service's price history and a simulated usage
 * pattern, with the runner's own limit arithmetic (`limits.ts`) on a journal in memory. Each
 * watched address spends energy at a steady rate; rentals last their duration; what the address
 * lacks when it spends is burnt at the chain's energy fee. Reports runs, spend, what the
 * shortfalls burnt, and what burning for all the energy would have cost.
 *
 * The replay covers `[end - days, end)`, half-open: one step every `stepMs` from the start, the
 * last one before `end`, each step standing for `[t, t + stepMs)` (a cron minute in it fires at
 * that step). So `--days 1` is exactly 24 hours and a rule with `max_runs_per_day: 1` runs once.
 * @module
 */
import { LIMITS } from '../../schemas/limits.js';
import { RulesIndex } from './journal.js';
import { blockedBy, limitState } from './limits.js';
import type { RulesFile } from './schema.js';
import { idempotencyKey, levelWindow, scheduleWindow, targetAddress } from './triggers.js';

/** One price poll: when, and the best price per unit then. */
export interface PricePoint {
  at: number;
  price_sun: number;
}

/** Options of {@link backtest}. */
export interface BacktestOptions {
  /** Best energy prices over the period (any order). */
  prices: readonly PricePoint[];
  /** Replay the `days` before `end`: `[end - days, end)`. */
  end: number;
  days: number;
  /** Energy each watched address spends per hour. @default 65000 (one USDT transfer) */
  energyPerHour?: number | undefined;
  /** Simulation step, ms. @default 300000 */
  stepMs?: number | undefined;
  /** SUN burnt per energy unit the address lacks (getEnergyFee). @default 100 */
  energyFeeSun?: number | undefined;
}

/** What a backtest found. */
export interface BacktestResult {
  from: string;
  to: string;
  runs: number;
  spend_sun: number;
  /** TRX burnt for energy the addresses lacked when they spent it. */
  shortfall_burn_sun: number;
  /** What burning TRX for all the energy spent would have cost. */
  burn_all_sun: number;
  energy_used: number;
  price_points: number;
  rules: Array<{ rule: string; runs: number; spend_sun: number; suppressed: Record<string, number> }>;
}

/** Replay `file` over the period. Only energy triggers and ensure/buy/notify actions on energy are simulated. */
export function backtest(file: RulesFile, options: BacktestOptions): BacktestResult {
  const step = options.stepMs ?? 300_000;
  const fee = options.energyFeeSun ?? 100;
  const perHour = options.energyPerHour ?? 65_000;
  const perStep = (perHour * step) / 3_600_000;
  const start = options.end - options.days * 86_400_000;
  const prices = [...options.prices].sort((a, b) => a.at - b.at);
  // The journal's index alone: a backtest folds its simulated lines in as they are made.
  const journal = new RulesIndex();
  // Per address: live rentals with what is left of each, spent earliest-ending first.
  const rentals = new Map<string, Array<{ left: number; ends: number }>>();
  const stats = new Map(file.rules.map((r) => [r.id, { rule: r.id, runs: 0, spend_sun: 0, suppressed: {} as Record<string, number> }]));
  const watched = new Set(file.rules.map((r) => ('address' in r.trigger ? r.trigger.address : undefined)).filter((a): a is string => !!a));
  let shortfall = 0;
  // Steps replayed per watched address: the energy used is counted from it at the end, in one division (no float drift).
  let addressSteps = 0;
  let p = 0;
  const available = (address: string, now: number) => {
    const live = (rentals.get(address) ?? []).filter((r) => r.ends > now && r.left > 0);
    rentals.set(address, live);
    return live.reduce((s, r) => s + r.left, 0);
  };
  const spend = (address: string, energy: number): number => {
    let taken = 0;
    for (const r of rentals.get(address) ?? []) {
      const t = Math.min(r.left, energy - taken);
      r.left -= t;
      taken += t;
    }
    return taken;
  };
  for (let now = start; now < options.end; now += step) {
    while (p + 1 < prices.length && prices[p + 1]!.at <= now) p++;
    const price = prices[p]?.price_sun;
    for (const address of watched) {
      // Spend this step's energy: from rentals first, the rest burnt.
      available(address, now);
      const take = spend(address, perStep);
      shortfall += Math.ceil((perStep - take) * fee);
      addressSteps++;
    }
    if (price === undefined) continue;
    for (const rule of file.rules) {
      const t = rule.trigger;
      let window: string | undefined;
      if (t.type === 'price_below' && t.resource === 'ENERGY' && price < t.price_sun) window = levelWindow(rule, now);
      else if (t.type === 'schedule') window = scheduleWindow(t, now - 1, Math.min(now + step, options.end) - 1);
      else if (t.type === 'energy_below' && available(t.address, now) < t.energy) window = levelWindow(rule, now);
      if (!window) continue;
      const a = rule.action;
      const target = targetAddress(rule);
      let amount = 0;
      let duration = 3600;
      if (a.type === 'ensure' && target) {
        const deficit = (a.energy ?? 0) - available(target, now);
        if (deficit <= 0) continue;
        amount = Math.max(deficit, LIMITS.MIN_ENERGY_AMOUNT);
        duration = a.duration;
      } else if (a.type === 'buy' && a.resource === 'ENERGY') {
        amount = Math.max(a.amount, LIMITS.MIN_ENERGY_AMOUNT);
        duration = a.duration;
      }
      const cost = Math.ceil(amount * price);
      const s = stats.get(rule.id)!;
      const blocked =
        rule.limits.max_price !== undefined && price > rule.limits.max_price ? 'max_price' : blockedBy(rule, limitState(journal, rule, now), now, window, cost);
      if (blocked) {
        if (blocked !== 'window_done') s.suppressed[blocked] = (s.suppressed[blocked] ?? 0) + 1;
        continue;
      }
      const key = idempotencyKey(rule, window);
      journal.apply({ ts: now, kind: 'intent', rule: rule.id, window, key, reserved_sun: cost });
      journal.apply({ ts: now, kind: 'done', rule: rule.id, window, key, cost_sun: cost });
      s.runs++;
      s.spend_sun += cost;
      if (amount && target) {
        rentals.set(
          target,
          [...(rentals.get(target) ?? []), { left: amount, ends: now + duration * 1000 }].sort((x, y) => x.ends - y.ends),
        );
      }
    }
  }
  const rules = [...stats.values()];
  const energyUsed = (perHour * addressSteps * step) / 3_600_000;
  return {
    from: new Date(start).toISOString(),
    to: new Date(options.end).toISOString(),
    runs: rules.reduce((n, r) => n + r.runs, 0),
    spend_sun: rules.reduce((n, r) => n + r.spend_sun, 0),
    shortfall_burn_sun: shortfall,
    burn_all_sun: Math.ceil(energyUsed * fee),
    energy_used: Math.round(energyUsed),
    price_points: prices.length,
    rules,
  };
}
