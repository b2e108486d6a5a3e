/**
 * Payout rows: read a CSV (`to,amount[,id]`) or JSON-lines file, and check every row (address,
 * amount, the token's decimals, duplicate ids and payouts) before anything is spent. All bad rows
 * are reported at once, each naming its line and field.
 *
 * Reading is exact: a JSON number is taken as its source text (`JSON.parse` would round
 * `9007199254740993` to …992 and `1.00000000000000001` to 1), and a line that cannot mean one
 * row is refused rather than guessed: a CSV row with more fields than columns, a row without a
 * header whose third field is three digits after a whole amount (`T…,1,000`: 1,000 with a
 * thousands separator, or an id?), a JSON line naming a key twice.
 * @module
 */
import { ValidationError } from '../../errors/index.js';
import { KNOWN_TOKENS, NETWORKS } from '../../protocol/networks.js';
import { isTronAddress } from '../../utils/address.js';
import { atomicToDecimal, decimalToAtomic } from '../../utils/units.js';

/** One payout as a caller gives it. */
export interface Payout {
  /** The recipient (base58). */
  to: string;
  /** Amount in token units, a decimal string or number (`'10'`, `'0.5'`). */
  amount: string | number;
  /** `USDT` (default), `USDC`, `USDD` or one of their TRON mainnet contract addresses. */
  token?: string | undefined;
  /** The caller's id for the row (its idempotency key within the batch); default: its 1-based position. */
  id?: string | number | undefined;
}

/** A checked payout row. */
export interface PayoutRow {
  /** The row's id (the caller's, or its 1-based position). */
  id: string;
  to: string;
  /** TRC-20 contract (base58). */
  contract: string;
  symbol: string;
  decimals: number;
  /** Amount in token units, normalised (`'10.5'`). */
  amount: string;
  /** Amount in atomic units (integer string). */
  amount_atomic: string;
  /** Where it came from (`line 4`, `row 4`), for messages. */
  where: string;
}

/** One bad row. */
export interface RowProblem {
  /** `line 4` of a file, or `row 4` of an array. */
  where: string;
  field: 'to' | 'amount' | 'token' | 'id' | 'row';
  message: string;
}

/** Options of {@link checkPayouts}. */
export interface CheckOptions {
  /** Token for rows that name none. @default 'USDT' */
  token?: string | undefined;
  /** Accept two rows paying the same amount of the same token to the same address. @default false */
  allowDuplicates?: boolean | undefined;
  /** Refuse a row's recipient equal to this (the sender). */
  from?: string | undefined;
}

const ID = /^[A-Za-z0-9._-]{1,40}$/;
/** On a row {@link parsePayouts} could not read as one payout: why, reported by {@link checkPayouts}. */
const UNREADABLE = Symbol('unreadable');
const MAINNET = KNOWN_TOKENS.filter((t) => t.network === NETWORKS.TRON_MAINNET);

function token(ref: string | undefined): (typeof MAINNET)[number] | undefined {
  const wanted = (ref ?? 'USDT').trim();
  return isTronAddress(wanted) ? MAINNET.find((t) => t.address === wanted) : MAINNET.find((t) => t.symbol === wanted.toUpperCase());
}

/**
 * Check payouts: every problem is collected; with any, a ValidationError (code VALIDATION_ERROR)
 * lists them all in `details.rows` and nothing may be spent.
 */
export function checkPayouts(payouts: readonly Payout[], options: CheckOptions = {}, where?: readonly string[]): PayoutRow[] {
  if (!Array.isArray(payouts) || payouts.length === 0) {
    throw new ValidationError({ code: 'VALIDATION_ERROR', message: 'payouts: at least one row is needed', details: { field: 'payouts' } });
  }
  const problems: RowProblem[] = [];
  const rows: PayoutRow[] = [];
  const ids = new Map<string, string>();
  const seen = new Map<string, string>();
  payouts.forEach((p, i) => {
    const at = where?.[i] ?? `row ${i + 1}`;
    const bad = (field: RowProblem['field'], message: string) => problems.push({ where: at, field, message });
    if (!p || typeof p !== 'object') return bad('row', 'not an object with to and amount');
    const unread = (p as { [UNREADABLE]?: Omit<RowProblem, 'where'> })[UNREADABLE];
    if (unread) return bad(unread.field, unread.message);
    const id = p.id === undefined || p.id === '' ? String(i + 1) : String(p.id);
    if (!ID.test(id)) bad('id', `${JSON.stringify(id)}: use 1 to 40 letters, digits, '.', '_' or '-'`);
    else if (ids.has(id)) bad('id', `${id} is also the id of ${ids.get(id)}`);
    else ids.set(id, at);
    const to = typeof p.to === 'string' ? p.to.trim() : '';
    if (!isTronAddress(to)) bad('to', `not a valid TRON address: ${JSON.stringify(p.to ?? '')}`);
    else if (options.from && to === options.from) bad('to', 'is the sender');
    const t = token(p.token ?? options.token);
    if (!t) bad('token', `unknown token ${JSON.stringify(p.token ?? options.token)}: use USDT, USDC, USDD or their TRON mainnet contract`);
    // The contract keeps what is sent to it: a transfer to the token's own address burns it.
    else if (to === t.address) bad('to', `is the ${t.symbol} token contract itself: tokens sent to it are lost`);
    let atomic: bigint | undefined;
    if (t) {
      try {
        const text = typeof p.amount === 'string' ? p.amount.trim() : p.amount;
        // A number past 2^53 is already another number: only its text (a string) is exact.
        if (typeof text === 'number' && Number.isInteger(text) && !Number.isSafeInteger(text))
          throw new Error('is past 2^53 as a number, so not exact: give the amount as a string');
        atomic = decimalToAtomic(text as string | number, t.decimals, 'amount');
        if (atomic <= 0n) {
          bad('amount', 'must be more than 0');
          atomic = undefined;
        }
      } catch (error) {
        bad(
          'amount',
          `${JSON.stringify(p.amount ?? '')}: ${error instanceof Error ? error.message.replace(/^amount:?\s*/, '') : 'not an amount'} (${t.symbol} has ${t.decimals} decimals)`,
        );
      }
    }
    if (!t || atomic === undefined || !isTronAddress(to)) return;
    const same = `${t.address}:${to}:${atomic}`;
    if (!options.allowDuplicates && seen.has(same))
      bad('row', `pays ${to} the same ${atomicToDecimal(atomic, t.decimals)} ${t.symbol} as ${seen.get(same)} (allow duplicates to send both)`);
    seen.set(same, at);
    rows.push({
      id,
      to,
      contract: t.address,
      symbol: t.symbol,
      decimals: t.decimals,
      amount: atomicToDecimal(atomic, t.decimals),
      amount_atomic: atomic.toString(),
      where: at,
    });
  });
  if (problems.length) {
    const shown = problems
      .slice(0, 20)
      .map((p) => `${p.where}: ${p.field}: ${p.message}`)
      .join('; ');
    throw new ValidationError({
      code: 'VALIDATION_ERROR',
      message: `${problems.length} bad row${problems.length === 1 ? '' : 's'}, nothing was spent: ${shown}${problems.length > 20 ? '; …' : ''}`,
      details: { field: 'payouts', rows: problems },
    });
  }
  return rows;
}

/** Split one CSV line (RFC 4180 quotes). */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') out.push(field.trim()), (field = '');
    else field += c;
  }
  out.push(field.trim());
  return out;
}

/** A payout {@link checkPayouts} reports as bad, with why (the line could not be read as one row). */
function unreadable(field: RowProblem['field'], message: string): Payout {
  return { [UNREADABLE]: { field, message } } as unknown as Payout;
}

/** A JSON number literal as an exact decimal string (`1e3` -> `1000`, `25e-1` -> `2.5`); undefined past 100 places. */
function exactDecimal(literal: string): string | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!m) return undefined;
  if (m[4] === undefined) return literal;
  const exponent = Number(m[4]);
  if (Math.abs(exponent) > 100) return undefined;
  const digits = m[2]! + (m[3] ?? '');
  const point = m[2]!.length + exponent;
  const text =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return m[1] + text;
}

/**
 * The members of one JSON object's text (which `JSON.parse` has accepted) at its top level: the
 * source text of each number, and the first key named twice (`JSON.parse` keeps the last).
 */
function topLevel(text: string): { numbers: Map<string, string>; twice: string | undefined } {
  const numbers = new Map<string, string>();
  const keys = new Set<string>();
  let twice: string | undefined;
  let depth = 0;
  let key = '';
  let inValue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (depth === 1 && !inValue) {
        key = JSON.parse(text.slice(i, j + 1)) as string;
        if (keys.has(key)) twice ??= key;
        keys.add(key);
      }
      i = j;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (depth === 1 && c === ':') inValue = true;
    else if (depth === 1 && c === ',') inValue = false;
    else if (depth === 1 && inValue && (c === '-' || (c >= '0' && c <= '9'))) {
      const literal = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i))![0];
      numbers.set(key, literal);
      i += literal.length - 1;
    }
  }
  return { numbers, twice };
}

/** One JSON line as a payout: numbers of `amount` and `id` as their source text when a number would change them. */
function jsonRow(line: string): Payout {
  let row: unknown;
  try {
    row = JSON.parse(line);
  } catch {
    return unreadable('row', 'not a JSON object with to and amount');
  }
  if (!row || typeof row !== 'object' || Array.isArray(row)) return unreadable('row', 'not a JSON object with to and amount');
  const { numbers, twice } = topLevel(line);
  if (twice !== undefined) return unreadable('row', `names ${JSON.stringify(twice)} twice: which one is meant?`);
  const payout = row as Record<string, unknown>;
  for (const field of ['amount', 'id'] as const) {
    const literal = numbers.get(field);
    if (literal === undefined || String(payout[field]) === literal) continue;
    const exact = exactDecimal(literal);
    if (exact === undefined) return unreadable(field, `${literal} is not a number this file can hold exactly: write it as a decimal string`);
    payout[field] = exact;
  }
  return payout as unknown as Payout;
}

/** Columns of a CSV file without a header: `to,amount[,id[,token]]`. */
const CSV_COLUMNS = ['to', 'amount', 'id', 'token'];

/**
 * Read payouts from text: JSON lines (each `{ to, amount, id?, token? }`) when the first
 * non-blank line starts with `{`, else CSV with columns `to,amount[,id]` (a header row naming
 * them is optional and may order them differently; a `token` column is read too). Returns the
 * payouts and, per payout, its line (`line 4`) for messages; a line that cannot be read as one
 * payout (not JSON, a key named twice, more fields than columns, `T…,1,000` without a header)
 * becomes a row that {@link checkPayouts} reports with why. Numbers are read exactly.
 */
export function parsePayouts(text: string): { payouts: Payout[]; where: string[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const payouts: Payout[] = [];
  const where: string[] = [];
  const first = lines.find((l) => l.trim() !== '')?.trim() ?? '';
  if (first.startsWith('{')) {
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      payouts.push(jsonRow(line));
      where.push(`line ${i + 1}`);
    });
    return { payouts, where };
  }
  let columns = CSV_COLUMNS;
  let header = false;
  lines.forEach((line, i) => {
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    const fields = csvFields(line);
    if (payouts.length === 0 && where.length === 0 && fields.some((f) => /^(to|amount|address)$/i.test(f))) {
      columns = fields.map((f) => (/^address$/i.test(f) ? 'to' : f.toLowerCase()));
      header = true;
      return;
    }
    where.push(`line ${i + 1}`);
    if (fields.length > columns.length) {
      const named = header ? `the header names ${columns.length} (${columns.join(',')})` : `a row has at most ${columns.length} (${columns.join(',')})`;
      return payouts.push(
        unreadable('row', `${fields.length} fields where ${named}: an amount with a thousands separator? write 1000, not 1,000 (or quote it)`),
      );
    }
    const row: Record<string, string> = {};
    columns.forEach((c, k) => {
      if (fields[k] !== undefined && fields[k] !== '') row[c] = fields[k]!;
    });
    // `T…,1,000`: 1 with the id 000, or 1,000 written with a thousands separator? Without a header nothing says.
    if (!header && /^\d{1,3}$/.test(row.amount ?? '') && /^\d{3}(\.\d*)?$/.test(row.id ?? '')) {
      return payouts.push(
        unreadable(
          'row',
          `${row.amount},${row.id}: the amount ${row.amount} and the id ${row.id}, or ${row.amount}${row.id} with a thousands separator? Write amounts without separators; name the columns in a header line (to,amount,id) to use ${row.id} as an id`,
        ),
      );
    }
    payouts.push(row as unknown as Payout);
  });
  return { payouts, where };
}
