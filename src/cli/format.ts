/**
 * Exact money for people: SUN with its TRX value, never through floating point.
 */
import { atomicToDecimal, decimalToAtomic, sunToTrx } from '../utils/units.js';

/** Any non-negative SUN figure (prices per unit can be fractional) as an exact TRX decimal. */
export function trxOf(sun: number | string | bigint): string {
  if (typeof sun === 'bigint') return sunToTrx(sun);
  const text = typeof sun === 'number' ? numberText(sun) : sun.trim();
  if (/^-?\d+$/.test(text)) return sunToTrx(text);
  const decimals = text.split('.')[1]?.length ?? 0;
  return atomicToDecimal(decimalToAtomic(text, decimals), 6 + decimals);
}

/** `1500000 SUN (1.5 TRX)` */
export function sunAndTrx(sun: number | bigint): string {
  return `${groupDigits(numberText(sun))} SUN (${trxOf(sun)} TRX)`;
}

/** `1.5 TRX (1500000 SUN)` — the TRX-first form for balances. */
export function trxAndSun(sun: number | bigint): string {
  return `${trxOf(sun)} TRX (${groupDigits(numberText(sun))} SUN)`;
}

/** An amount of `currency` in its 6-decimal atomic units, e.g. `12.5 USDT`. */
export function amountOf(atomic: number, currency: 'TRX' | 'USDT' | string): string {
  return currency === 'TRX' ? trxAndSun(atomic) : `${trxOf(atomic)} ${currency}`;
}

/** Exact cost in SUN of `amount` units at `priceSun` each (price may be fractional), as a decimal string. */
export function costSun(amount: number, priceSun: number): string {
  const priceText = numberText(priceSun);
  const decimals = priceText.split('.')[1]?.length ?? 0;
  const product = BigInt(amount) * decimalToAtomic(priceText, decimals);
  return atomicToDecimal(product, decimals);
}

/** 65000 -> `65,000` (only for display; JSON keeps plain numbers). */
export function groupDigits(text: string): string {
  const [whole = '', frac] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/** Seconds as the shortest human form: 3600 -> `1h`, 5400 -> `1h30m`, 90 -> `1m30s`. */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds <= 0) return `${seconds}s`;
  const parts: string[] = [];
  let rest = Math.round(seconds);
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
  }
  return parts.join('');
}

/** A timestamp (ISO string, Unix seconds or ms) as a short local-independent ISO form. */
export function formatTime(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  let date: Date;
  if (typeof value === 'number') date = new Date(value > 1e12 ? value : value * 1000);
  else date = new Date(String(value));
  if (Number.isNaN(date.getTime())) return String(value);
  return date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
}

/** The forms `compactTimes` tries, shortest first, and which part of the full UTC stamp each keeps. */
const COMPACT_FORMS: Array<{ slice: [number, number]; sameDay?: boolean; sameYear?: boolean }> = [
  { slice: [11, 16], sameDay: true }, // 14:05
  { slice: [11, 19], sameDay: true }, // 14:05:09
  { slice: [5, 16], sameYear: true }, // 11-26 14:05
  { slice: [5, 19], sameYear: true }, // 11-26 14:05:09
  { slice: [0, 16] }, // 2026-11-26 14:05
  { slice: [0, 19] }, // 2026-11-26 14:05:09
];

/**
 * A column of timestamps (UTC) in the shortest form that keeps distinct times distinct: `14:05`
 * when all are today and minutes tell them apart, then with seconds, then with the month and day
 * (this year), then the full date. Each value keeps the same form, so a column reads evenly.
 * Values that are not times are passed through `formatTime`.
 */
export function compactTimes(values: unknown[], now: Date = new Date()): string[] {
  const stamps = values.map((v) => {
    const text = formatTime(v);
    return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}Z$/.test(text) ? text : undefined;
  });
  const times = stamps.filter((t): t is string => t !== undefined);
  const today = now.toISOString().slice(0, 10);
  const distinct = new Set(times).size;
  const form =
    COMPACT_FORMS.find(
      (f) =>
        times.every((t) => (!f.sameDay || t.startsWith(today)) && (!f.sameYear || t.startsWith(today.slice(0, 4)))) &&
        new Set(times.map((t) => t.slice(...f.slice))).size === distinct,
    ) ?? COMPACT_FORMS.at(-1)!;
  return values.map((v, i) => stamps[i]?.slice(...form.slice) ?? formatTime(v));
}

function numberText(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  if (!Number.isFinite(n)) throw new RangeError(`not a finite amount: ${n}`);
  // Number#toString is exact-shortest; large or tiny values use exponents, which we expand.
  const text = String(n);
  if (!/e/i.test(text)) return text;
  return n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}
