/**
 * The CLI's colours and text measures: styles for a stream (marked as ours, so the writer tells
 * them from the same codes in server text), the colour decision for a stream, and the columns a
 * string takes on a terminal.
 */
import { STYLE_MARK, sanitizeText } from './sanitize.js';

/** Colour functions for one stream (identity when colour is off), and the width its tables fit. */
export interface Styles {
  /**
   * The width tables on this stream must fit (a terminal's columns); undefined: any width
   * (piped, `--wide`, or stderr). Set by `Output` on its stdout styles.
   */
  readonly width?: number | undefined;
  /** Called when a table had to truncate cells to fit `width` (Output hints at `--wide`). */
  readonly truncated?: (() => void) | undefined;
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
  magenta(s: string): string;
}

const ANSI: Record<Exclude<keyof Styles, 'width' | 'truncated'>, [number, number]> = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
  magenta: [35, 39],
};

/** The styles of a stream: ANSI colours when `enabled`, plain text otherwise. */
export function makeStyles(enabled: boolean, layout: { width?: number | undefined; truncated?: (() => void) | undefined } = {}): Styles {
  const entries = Object.entries(ANSI).map(([name, [open, close]]) => [
    name,
    // Marked as ours (STYLE_MARK), so the writer can tell them from the same codes in server text.
    enabled ? (s: string) => `${STYLE_MARK}\u001b[${open}m${s}${STYLE_MARK}\u001b[${close}m` : (s: string) => s,
  ]);
  return { ...(Object.fromEntries(entries) as unknown as Styles), width: layout.width, truncated: layout.truncated };
}

/** The same styles for text indented by `by` columns (a table inside an indented block). */
export function narrower(s: Styles, by: number): Styles {
  return s.width === undefined ? s : { ...s, width: Math.max(20, s.width - by) };
}

/**
 * Colour decision for one stream: --no-color and NO_COLOR win; FORCE_COLOR / CLICOLOR_FORCE
 * force it on (FORCE_COLOR=0 forces it off); TERM=dumb and CLICOLOR=0 turn it off; otherwise
 * the stream must be a TTY.
 */
export function colorEnabled(stream: { isTTY?: boolean | undefined }, env: Readonly<Record<string, string | undefined>>, flag: boolean | undefined): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return !(force === '0' || force === 'false');
  if (env.CLICOLOR_FORCE !== undefined && env.CLICOLOR_FORCE !== '' && env.CLICOLOR_FORCE !== '0') return true;
  if (env.TERM === 'dumb' || env.CLICOLOR === '0') return false;
  return Boolean(stream.isTTY);
}

/** Columns `s` takes once written (escape codes and controls take none). */
export function visibleLength(s: string): number {
  return [...sanitizeText(s)].length;
}
