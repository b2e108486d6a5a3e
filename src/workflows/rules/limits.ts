/**
 * A rule's limits, counted from the journal alone: what it spent in the last 24 hours and in
 * all, how often it acted, when it last acted. An action whose outcome is unknown counts as
 * spent at its cap (`reserved_sun`) until a later line says what it cost; a key's spend is the
 * highest any line reported for it.
 * @module
 */
import type { JournalEntry } from './journal.js';
import type { Rule } from './schema.js';
import { idempotencyKey, windowOnlyKey } from './triggers.js';

const DAY = 86_400_000;

/** One action of a rule, as the journal tells it. */
export interface ActionRecord {
  ts: number;
  key: string | undefined;
  window: string | undefined;
  /** SUN counted against the limits: the cost when known, else the reservation. */
  spent_sun: number;
  outcome: 'done' | 'failed' | 'unknown';
  order_ids: string[];
}

/** Every action of `rule` (one per Idempotency-Key of its intent lines), oldest first. */
export function actionsOf(entries: readonly JournalEntry[], rule: string): ActionRecord[] {
  const byKey = new Map<string, ActionRecord>();
  const out: ActionRecord[] = [];
  for (const e of entries) {
    if (e.rule !== rule) continue;
    if (e.kind === 'intent') {
      // One key is one action: a second intent with it (another runner on the same journal, a
      // restart retrying the window) gets the same order back from the service.
      if (e.key && byKey.has(e.key)) continue;
      const record: ActionRecord = { ts: e.ts, key: e.key, window: e.window, spent_sun: e.reserved_sun ?? 0, outcome: 'unknown', order_ids: [] };
      out.push(record);
      if (e.key) byKey.set(e.key, record);
      continue;
    }
    const record = e.key ? byKey.get(e.key) : undefined;
    if (!record) continue;
    if (e.kind === 'done') {
      // A key's spend is the highest any runner reported for it: a late `done` (another runner's
      // replay of the same key, answered with less) never erases what was charged.
      const cost = e.cost_sun ?? record.spent_sun;
      record.spent_sun = record.outcome === 'done' ? Math.max(record.spent_sun, cost) : cost;
      record.outcome = 'done';
      if (e.order_ids?.length) record.order_ids = e.order_ids;
    } else if (e.kind === 'failed' && record.outcome !== 'done') {
      // Not done, by a definite answer; once any runner saw it done, it stays done.
      record.outcome = 'failed';
      record.spent_sun = 0;
    }
  }
  return out;
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

/** Count `rule`'s limits at `now` from the journal. */
export function limitState(entries: readonly JournalEntry[], rule: Rule, now: number): LimitState {
  const actions = actionsOf(entries, rule.id);
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
  const left = [daily === undefined ? undefined : daily - spent24, total === undefined ? undefined : total - spentTotal].filter((v): v is number => v !== undefined);
  const retired = entries.some((e) => e.rule === rule.id && e.kind === 'retired');
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
