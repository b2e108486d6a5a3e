/**
 * Triggers and their windows. A trigger window names one occasion to act: the same window seen
 * by two runners (or by one runner before and after a restart) gives the same Idempotency-Key,
 * so the service creates at most one order for it (keys are kept 24 h).
 *
 * - level triggers (`price_below`, `energy_below`, `bandwidth_below`): the window is the slot of
 *   `min_interval` (default 10 min) the trigger was seen in, counted from the epoch, named to the
 *   minute (to the second when the slot is not a whole number of minutes, so a 20 s slot is
 *   three windows a minute);
 * - `schedule`: the cron minute that fired;
 * - `delegation_expiring`: the order whose rental is ending (one renewal per rental).
 *
 * The key also holds a hash of what the rule does (its trigger, action and target address, as
 * parsed): a rule edited inside a window (another address, another amount) is a new occasion
 * with its own order, while the same rule seen again gets the same key.
 * @module
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../internal/json.js';
import { type CronSpec, lastFireTime, nextFireTime, parseCron } from './cron.js';
import type { Rule, Trigger } from './schema.js';

/** Slot length of level triggers when the rule sets no `min_interval`. */
export const DEFAULT_WINDOW_SEC = 600;

/** `ms` as an ISO time to the minute (`2026-11-28T10:10Z`), or to the second (`…T10:10:20Z`). */
function iso(ms: number, seconds = false): string {
  return new Date(ms).toISOString().slice(0, seconds ? 19 : 16) + 'Z';
}

/** The window of a level trigger seen at `now`: its `min_interval` slot, named finely enough that two slots never share a name. */
export function levelWindow(rule: Rule, now: number): string {
  const slot = (rule.limits.min_interval ?? DEFAULT_WINDOW_SEC) * 1000;
  return `${rule.trigger.type}:${iso(Math.floor(now / slot) * slot, slot % 60_000 !== 0)}`;
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The Idempotency-Key of `rule` acting for `window`: the same on every runner for the same rule,
 * at most 51 characters. It hashes the rule id, the window and what the rule does (trigger,
 * action, target), so an edited rule gets a new order in the window its old form acted in.
 */
export function idempotencyKey(rule: Rule, window: string): string {
  const does = canonicalJson({ trigger: rule.trigger, action: rule.action, target: targetAddress(rule) ?? null });
  return `rule-${sha(`${rule.id}\n${window}\n${does}`).slice(0, 46)}`;
}

/**
 * The key of a journal line written with the rule id and window alone (no hash of what the rule
 * does): such a line still marks its window done, so a runner upgraded mid-window does not act
 * twice for it.
 */
export function windowOnlyKey(ruleId: string, window: string): string {
  return `rule-${sha(`${ruleId}\n${window}`).slice(0, 46)}`;
}

/** A whole number with thousands separators (`80,000`), for the plan's words. */
export const grouped = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 6 });

const cronCache = new Map<string, CronSpec>();

function cronOf(expression: string): CronSpec {
  let spec = cronCache.get(expression);
  if (!spec) {
    spec = parseCron(expression);
    cronCache.set(expression, spec);
  }
  return spec;
}

/** The cron minute of a `schedule` trigger in `(since, now]`, as a window, or undefined. */
export function scheduleWindow(trigger: Extract<Trigger, { type: 'schedule' }>, since: number, now: number): string | undefined {
  const fired = lastFireTime(cronOf(trigger.cron), since, now, trigger.timezone);
  return fired === undefined ? undefined : `cron:${iso(fired)}`;
}

/** When a `schedule` trigger fires next after `now` (ms), or undefined (not within a year). */
export function nextScheduled(trigger: Extract<Trigger, { type: 'schedule' }>, now: number): number | undefined {
  return nextFireTime(cronOf(trigger.cron), now, trigger.timezone);
}

/** The address a rule watches on the node, if any. */
export function watchedAddress(rule: Rule): string | undefined {
  const t = rule.trigger;
  return t.type === 'energy_below' || t.type === 'bandwidth_below' ? t.address : undefined;
}

/** The address a rule's order goes to (the action's, else the trigger's). */
export function targetAddress(rule: Rule): string | undefined {
  const a = rule.action;
  if (a.type === 'notify') return undefined;
  return a.address ?? ('address' in rule.trigger ? rule.trigger.address : undefined);
}

/** A rule in words, for `rules check`. */
export function explainRule(rule: Rule): string {
  const t = rule.trigger;
  const when =
    t.type === 'price_below'
      ? `when ${t.resource.toLowerCase()} for ${t.duration} s costs less than ${t.price_sun} SUN per unit`
      : t.type === 'schedule'
        ? `on the schedule "${t.cron}" (${t.timezone})`
        : t.type === 'energy_below'
          ? `when ${t.address} can spend less than ${t.energy} energy`
          : t.type === 'bandwidth_below'
            ? `when ${t.address} can spend less than ${t.bandwidth} bandwidth`
            : `${t.minutes_before} min before ${t.resource === 'ENERGY' ? 'an energy' : 'a bandwidth'} rental to ${t.address} ends${t.below_price_sun ? `, if the price is below ${t.below_price_sun} SUN` : ''}`;
  const a = rule.action;
  const target = targetAddress(rule);
  const what =
    a.type === 'ensure'
      ? `make sure ${target} can spend ${[a.energy && `${a.energy} energy`, a.bandwidth && `${a.bandwidth} bandwidth`].filter(Boolean).join(' and ')} (buy only the deficit, for ${a.duration} s)`
      : a.type === 'buy'
        ? `buy ${a.amount} ${a.resource.toLowerCase()} for ${target} for ${a.duration} s`
        : `send a notification${a.message ? ` ("${a.message}")` : ''}`;
  const l = rule.limits;
  const limits = [
    l.max_spend_per_day !== undefined && `at most ${l.max_spend_per_day / 1e6} TRX per 24 h`,
    l.max_total_spend !== undefined && `${l.max_total_spend / 1e6} TRX in all, then retire`,
    l.max_runs_per_day !== undefined && `at most ${l.max_runs_per_day} runs per 24 h`,
    `at most once per ${l.min_interval ?? DEFAULT_WINDOW_SEC} s`,
    l.max_price !== undefined && `never above ${l.max_price} SUN per unit`,
    l.expires_at && `until ${l.expires_at}`,
  ].filter(Boolean);
  return `${rule.id}${l.paused ? ' (paused)' : ''}: ${when}, ${what}; ${limits.join(', ')}.`;
}
