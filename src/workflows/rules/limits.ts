/**
 * A rule's limits, counted from the journal alone: what it spent in the last 24 hours and in
 * all, how often it acted, when it last acted. An action whose outcome is unknown counts as
 * spent at its cap (`reserved_sun`) until a later line says what it cost; a key's spend is the
 * highest any line reported for it.
 * @module
 */
import { type ActionRecord, RulesIndex, type RulesJournalEntry } from './journal.js';
import type { Rule } from './schema.js';
import { idempotencyKey, windowOnlyKey } from './triggers.js';

export type { ActionRecord } from './journal.js';

const DAY = 86_400_000;

/** Every action of `rule` (one per Idempotency-Key of its intent lines), oldest first. */
export function actionsOf(entries: readonly RulesJournalEntry[] | RulesIndex, rule: string): ActionRecord[] {
  const index = entries instanceof RulesIndex ? entries : RulesIndex.of(entries);
  return index.actions(rule).map((a) => ({ ...a, order_ids: [...a.order_ids], orders: [...a.orders] }));
}

/** What the journal says a rule may still do now. */
export interface LimitState {
  spent_24h_sun: number;
  spent_total_sun: number;
  runs_24h: number;
  last_action_at: number | undefined;
  /** SUN the rule may still spend now (the tighter of the daily and total limits), or undefined for no limit. */
  remaining_sun: number | undefined;
  retired: boolean;
  /** Windows already acted on (done or unknown), by any form of the rule. */
  windows: Set<string>;
  /** Idempotency-Keys already acted with (done or unknown): one form of the rule acts once per window. */
  keys: Set<string>;
}

/** Count `rule`'s limits at `now` from the journal (its entries, or the index a {@link RulesJournal} keeps). */
export function limitState(entries: readonly RulesJournalEntry[] | RulesIndex, rule: Rule, now: number): LimitState {
  const index = entries instanceof RulesIndex ? entries : RulesIndex.of(entries);
  const actions = index.actions(rule.id);
  let spent24 = 0;
  let spentTotal = 0;
  let runs24 = 0;
  let last: number | undefined;
  const windows = new Set<string>();
  const keys = new Set<string>();
  for (const a of actions) {
    spentTotal += a.spent_sun;
    if (a.ts > now - DAY) {
      spent24 += a.spent_sun;
      if (a.outcome !== 'failed') runs24++;
    }
    if (a.outcome !== 'failed') {
      last = Math.max(last ?? 0, a.ts);
      if (a.window) windows.add(a.window);
      if (a.key) keys.add(a.key);
    }
  }
  const { max_spend_per_day: daily, max_total_spend: total } = rule.limits;
  const left = [daily === undefined ? undefined : daily - spent24, total === undefined ? undefined : total - spentTotal].filter(
    (v): v is number => v !== undefined,
  );
  const retired = index.retired(rule.id);
  return {
    spent_24h_sun: spent24,
    spent_total_sun: spentTotal,
    runs_24h: runs24,
    last_action_at: last,
    remaining_sun: left.length ? Math.max(0, Math.min(...left)) : undefined,
    retired,
    windows,
    keys,
  };
}

/**
 * Why a rule may not act now, or undefined when it may. `costSun` is what acting would cost at
 * most. `window_done`: this rule, as it is now, already acted for `window` (its key is in the
 * journal); an edited rule (another target, amount or trigger) acts again, within the same limits.
 */
export function blockedBy(rule: Rule, state: LimitState, now: number, window: string, costSun: number): string | undefined {
  const l = rule.limits;
  if (state.retired) return 'retired';
  if (l.paused) return 'paused';
  if (l.expires_at && now >= Date.parse(l.expires_at)) return 'expires_at';
  if (state.windows.has(window) && (state.keys.has(idempotencyKey(rule, window)) || state.keys.has(windowOnlyKey(rule.id, window)))) return 'window_done';
  if (l.min_interval !== undefined && state.last_action_at !== undefined && now - state.last_action_at < l.min_interval * 1000) return 'min_interval';
  if (l.max_runs_per_day !== undefined && state.runs_24h >= l.max_runs_per_day) return 'max_runs_per_day';
  if (l.max_total_spend !== undefined && state.spent_total_sun + costSun > l.max_total_spend) return 'max_total_spend';
  if (l.max_spend_per_day !== undefined && state.spent_24h_sun + costSun > l.max_spend_per_day) return 'max_spend_per_day';
  return undefined;
}
