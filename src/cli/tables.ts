/**
 * Tables and key/value blocks for people: columns fitted to the terminal's width (descriptive
 * columns give way first, cut with `…`; ids in the middle; numbers never), or whole when piped.
 */
import { STYLE_MARK, sanitizeText } from './sanitize.js';
import { type Styles, visibleLength } from './styles.js';

/** One column of a table: its header, alignment, and how it gives way to a narrow terminal. */
export interface Column {
  header: string;
  align?: 'left' | 'right';
  /**
   * How a cell is cut when the table must fit the terminal: `end` (default: `Energy for 1…`),
   * `middle` (ids, addresses, hashes: `TJCnKs…6sxMW`, both ends stay recognisable) or `none`
   * (numbers, statuses: never cut).
   */
  truncate?: 'end' | 'middle' | 'none';
  /** Narrowest the column is cut to (default 8, or the header's width if less). */
  min?: number;
  /** Which columns give way first: higher first (default 1; ids 0, the last to shrink). */
  shrink?: number;
  /**
   * A column that is left out, rather than cut, when the table is wider than the terminal: the
   * highest `drop` goes first, before any cell is cut (ids and times stay whole). `--wide` and
   * piped output keep every column; a dim line under the table names what was left out.
   */
  drop?: number;
}

const GAP = 2;
// Our own SGR codes (makeStyles, each after its mark), at the ends of a cell.
const EDGE_STYLES = new RegExp(`^((?:(?:${STYLE_MARK})?\u001b\\[\\d+m)*)([\\s\\S]*?)((?:(?:${STYLE_MARK})?\u001b\\[\\d+m)*)$`);
// eslint-disable-next-line no-control-regex
const ANY_STYLE = /\u001b\[\d+m/g;

/**
 * `text` cut to `width` visible columns with an ellipsis: at the end, or in the middle (ids).
 * Colour codes around the cell survive; inner ones are dropped when the text is cut.
 */
export function truncateCell(text: string, width: number, mode: 'end' | 'middle' = 'end'): string {
  if (visibleLength(text) <= width) return text;
  const [, open = '', inner = '', close = ''] = EDGE_STYLES.exec(text) ?? [];
  const chars = [...sanitizeText(inner.replace(ANY_STYLE, ''))];
  if (width <= 1) return `${open}…${close}`;
  let cut: string;
  if (mode === 'middle' && width >= 5) {
    const head = Math.ceil((width - 1) / 2);
    const tail = width - 1 - head;
    cut = `${chars.slice(0, head).join('')}…${tail ? chars.slice(-tail).join('') : ''}`;
  } else {
    cut = `${chars
      .slice(0, width - 1)
      .join('')
      .trimEnd()}…`;
  }
  return `${open}${cut}${close}`;
}

/**
 * The widths that fit `limit` columns (gaps included): the columns that give way first
 * (highest `shrink`) are narrowed first, widest first, never below their minimum. Returns the
 * natural widths when they fit or when nothing can give way.
 */
export function fitWidths(columns: Column[], natural: number[], limit: number | undefined): { widths: number[]; cut: boolean } {
  const widths = [...natural];
  if (limit === undefined) return { widths, cut: false };
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP * Math.max(0, widths.length - 1);
  let excess = total() - limit;
  if (excess <= 0) return { widths, cut: false };
  const floor = columns.map((c, i) => (c.truncate === 'none' ? (natural[i] ?? 0) : Math.min(natural[i] ?? 0, c.min ?? 8)));
  const levels = [...new Set(columns.map((c) => c.shrink ?? 1))].sort((a, b) => b - a);
  let cut = false;
  for (const level of levels) {
    if (excess <= 0) break;
    const members = columns.map((c, i) => ((c.shrink ?? 1) === level && c.truncate !== 'none' ? i : -1)).filter((i) => i >= 0);
    // Narrow the widest member by one column at a time (bounded by the excess).
    for (let guard = 0; excess > 0 && guard < 10_000; guard++) {
      let widest = -1;
      for (const i of members) if ((widths[i] ?? 0) > (floor[i] ?? 0) && (widest < 0 || (widths[i] ?? 0) > (widths[widest] ?? 0))) widest = i;
      if (widest < 0) break;
      widths[widest] = (widths[widest] ?? 0) - 1;
      excess--;
      cut = true;
    }
  }
  return { widths, cut };
}

/**
 * An aligned table; cells may contain colour codes. On a terminal (`styles.width`) it fits the
 * width: cells are cut with an ellipsis (`--wide` shows them whole).
 */
export function renderTable(allColumns: Column[], allRows: string[][], styles: Styles): string {
  const keep = droppedToFit(allColumns, allRows, styles.width);
  const columns = allColumns.filter((_, i) => keep[i]);
  const rows = allRows.map((r) => r.filter((_, i) => keep[i]));
  const dropped = allColumns.filter((_, i) => !keep[i]).map((c) => c.header);
  if (dropped.length) styles.truncated?.();
  const natural = columns.map((c, i) => Math.max(visibleLength(c.header), ...rows.map((r) => visibleLength(r[i] ?? ''))));
  const { widths, cut } = fitWidths(columns, natural, styles.width);
  if (cut) styles.truncated?.();
  const cell = (text: string, i: number) => {
    const width = widths[i] ?? 0;
    const column = columns[i];
    const fitted = cut && visibleLength(text) > width ? truncateCell(text, width, column?.truncate === 'middle' ? 'middle' : 'end') : text;
    const gap = ' '.repeat(Math.max(0, width - visibleLength(fitted)));
    return column?.align === 'right' ? gap + fitted : fitted + gap;
  };
  const lines = [
    columns
      .map((c, i) => styles.bold(cell(c.header, i)))
      .join(' '.repeat(GAP))
      .trimEnd(),
  ];
  for (const row of rows)
    lines.push(
      columns
        .map((_, i) => cell(row[i] ?? '', i))
        .join(' '.repeat(GAP))
        .trimEnd(),
    );
  if (dropped.length) lines.push(styles.dim(`(${dropped.join(', ')} left out to fit ${styles.width} columns: --wide shows all)`));
  return `${lines.join('\n')}\n`;
}

/**
 * Which columns stay (true) so the table fits `limit`: while the natural widths are too wide,
 * the column with the highest `drop` is left out. Columns without `drop` always stay.
 */
export function droppedToFit(columns: Column[], rows: string[][], limit: number | undefined): boolean[] {
  const keep = columns.map(() => true);
  if (limit === undefined) return keep;
  const natural = columns.map((c, i) => Math.max(visibleLength(c.header), ...rows.map((r) => visibleLength(r[i] ?? ''))));
  const total = () => natural.reduce((sum, w, i) => (keep[i] ? sum + w : sum), 0) + GAP * Math.max(0, keep.filter(Boolean).length - 1);
  const order = columns
    .map((c, i) => ({ i, drop: c.drop }))
    .filter((c) => c.drop !== undefined)
    .sort((a, b) => (b.drop ?? 0) - (a.drop ?? 0));
  for (const { i } of order) {
    if (total() <= limit) break;
    keep[i] = false;
  }
  return keep;
}

/** Key/value block: `label  value` lines with aligned values. */
export function renderPairs(pairs: Array<[string, string]>, styles: Styles): string {
  const width = Math.max(0, ...pairs.map(([k]) => visibleLength(k)));
  return `${pairs.map(([k, v]) => `${styles.dim(k.padEnd(width))}  ${v}`).join('\n')}\n`;
}
