/**
 * A small 5-field cron evaluator (minute hour day-of-month month day-of-week) with time zones
 * through Intl, no dependency. Fields take `*`, numbers, ranges `a-b`, steps `*\/n` and `a-b/n`,
 * lists `a,b`, month and weekday names (`jan`, `mon`), and 7 for Sunday. As in Vixie cron, when
 * both day-of-month and day-of-week are restricted, a day matches if either does.
 *
 * Times are matched on the wall clock of the zone: a time skipped by a DST jump never fires, and
 * a repeated one fires for each instant that shows it (each is a different trigger window).
 * @module
 */

const NAMES: Record<string, number> = {
  jan: 1,
  feb: 2,
  mar: 3,
  apr: 4,
  may: 5,
  jun: 6,
  jul: 7,
  aug: 8,
  sep: 9,
  oct: 10,
  nov: 11,
  dec: 12,
  sun: 0,
  mon: 1,
  tue: 2,
  wed: 3,
  thu: 4,
  fri: 5,
  sat: 6,
};
const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12 },
  { name: 'day-of-week', min: 0, max: 7 },
] as const;

/** A parsed cron expression: the allowed values of each field. */
export interface CronSpec {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Whether day-of-month / day-of-week were `*` (restricts nothing). */
  anyDay: boolean;
  anyWeekday: boolean;
}

function value(text: string, field: (typeof FIELDS)[number]): number {
  const named = NAMES[text.toLowerCase()];
  const n = named ?? (/^\d+$/.test(text) ? Number(text) : NaN);
  if (!Number.isInteger(n) || n < field.min || n > field.max)
    throw new RangeError(`${field.name}: ${JSON.stringify(text)} is not in ${field.min}-${field.max}`);
  return n;
}

function parseField(text: string, field: (typeof FIELDS)[number]): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [range, stepText, extra] = part.split('/');
    if (extra !== undefined || range === undefined || range === '') throw new RangeError(`${field.name}: bad part ${JSON.stringify(part)}`);
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1 || (stepText !== undefined && !/^\d+$/.test(stepText)))
      throw new RangeError(`${field.name}: bad step in ${JSON.stringify(part)}`);
    let lo: number;
    let hi: number;
    if (range === '*') [lo, hi] = [field.min, field.name === 'day-of-week' ? 6 : field.max];
    else if (range.includes('-')) {
      const [a, b, more] = range.split('-');
      if (more !== undefined || a === undefined || b === undefined) throw new RangeError(`${field.name}: bad range ${JSON.stringify(range)}`);
      [lo, hi] = [value(a, field), value(b, field)];
      if (lo > hi) throw new RangeError(`${field.name}: range ${JSON.stringify(range)} runs backwards`);
    } else {
      lo = value(range, field);
      hi = stepText === undefined ? lo : field.max;
    }
    for (let v = lo; v <= hi; v += step) out.add(field.name === 'day-of-week' && v === 7 ? 0 : v);
  }
  return out;
}

/** Parse a 5-field expression; throws a RangeError naming the field that is wrong. */
export function parseCron(expression: string): CronSpec {
  const parts = String(expression).trim().split(/\s+/);
  if (parts.length !== 5) throw new RangeError(`a cron expression has 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}`);
  const [m, h, dom, mon, dow] = parts.map((p, i) => parseField(p, FIELDS[i]!));
  return { minutes: m!, hours: h!, days: dom!, months: mon!, weekdays: dow!, anyDay: parts[2] === '*', anyWeekday: parts[4] === '*' };
}

/** True when `expression` parses. */
export function isValidCron(expression: string): boolean {
  try {
    parseCron(expression);
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** The wall-clock fields of instant `ms` in `timeZone`. */
export function wallTime(ms: number, timeZone: string): { year: number; month: number; day: number; hour: number; minute: number; weekday: number } {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formatters.set(timeZone, f);
  }
  const parts: Record<string, string> = {};
  for (const p of f.formatToParts(new Date(ms))) parts[p.type] = p.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    weekday: WEEKDAYS[parts.weekday!] ?? 0,
  };
}

/** Whether the minute containing instant `ms` matches, on the wall clock of `timeZone`. */
export function cronMatches(spec: CronSpec, ms: number, timeZone = 'UTC'): boolean {
  const t = wallTime(ms, timeZone);
  if (!spec.minutes.has(t.minute) || !spec.hours.has(t.hour) || !spec.months.has(t.month)) return false;
  const dom = spec.days.has(t.day);
  const dow = spec.weekdays.has(t.weekday);
  if (spec.anyDay && spec.anyWeekday) return true;
  if (spec.anyDay) return dow;
  if (spec.anyWeekday) return dom;
  return dom || dow;
}

const MINUTE = 60_000;

/**
 * The start of the latest matching minute in `(after, atOrBefore]`, or undefined. Scans minute by
 * minute (every zone offset is a whole number of minutes), skipping hours that cannot match.
 */
export function lastFireTime(spec: CronSpec, after: number, atOrBefore: number, timeZone = 'UTC'): number | undefined {
  let t = Math.floor(atOrBefore / MINUTE) * MINUTE;
  const stop = Math.max(after, atOrBefore - 366 * 86_400_000);
  while (t > stop) {
    if (cronMatches(spec, t, timeZone)) return t;
    t -= MINUTE;
  }
  return undefined;
}

/** The start of the first matching minute strictly after `after` (within a year and a day), or undefined. */
export function nextFireTime(spec: CronSpec, after: number, timeZone = 'UTC'): number | undefined {
  let t = Math.floor(after / MINUTE) * MINUTE + MINUTE;
  const stop = after + 367 * 86_400_000;
  while (t <= stop) {
    const w = wallTime(t, timeZone);
    if (!spec.hours.has(w.hour) || !spec.months.has(w.month)) {
      // Skip to the next whole hour of this zone (offsets are whole minutes, so step by the minutes left).
      t += (60 - w.minute) * MINUTE;
      continue;
    }
    if (cronMatches(spec, t, timeZone)) return t;
    t += MINUTE;
  }
  return undefined;
}
