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
  for (const [unit, size] of [['d', 86_400], ['h', 3_600], ['m', 60], ['s', 1]] as const) {
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
  return date.toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

function numberText(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  if (!Number.isFinite(n)) throw new RangeError(`not a finite amount: ${n}`);
  // Number#toString is exact-shortest; large or tiny values use exponents, which we expand.
  const text = String(n);
  if (!/e/i.test(text)) return text;
  return n.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}
