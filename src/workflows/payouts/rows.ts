/**
 * Payout rows: read a CSV (`to,amount[,id]`) or JSON-lines file, and check every row (address,
 * amount, the token's decimals, duplicate ids and payouts) before anything is spent. All bad rows
 * are reported at once, each naming its line and field.
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
    const id = p.id === undefined || p.id === '' ? String(i + 1) : String(p.id);
    if (!ID.test(id)) bad('id', `${JSON.stringify(id)}: use 1 to 40 letters, digits, '.', '_' or '-'`);
    else if (ids.has(id)) bad('id', `${id} is also the id of ${ids.get(id)}`);
    else ids.set(id, at);
    const to = typeof p.to === 'string' ? p.to.trim() : '';
    if (!isTronAddress(to)) bad('to', `not a valid TRON address: ${JSON.stringify(p.to ?? '')}`);
    else if (options.from && to === options.from) bad('to', 'is the sender');
    const t = token(p.token ?? options.token);
    if (!t) bad('token', `unknown token ${JSON.stringify(p.token ?? options.token)}: use USDT, USDC, USDD or their TRON mainnet contract`);
    let atomic: bigint | undefined;
    if (t) {
      try {
        const text = typeof p.amount === 'string' ? p.amount.trim() : p.amount;
        atomic = decimalToAtomic(text as string | number, t.decimals, 'amount');
        if (atomic <= 0n) {
          bad('amount', 'must be more than 0');
          atomic = undefined;
        }
      } catch (error) {
        bad('amount', `${JSON.stringify(p.amount ?? '')}: ${error instanceof Error ? error.message.replace(/^amount:?\s*/, '') : 'not an amount'} (${t.symbol} has ${t.decimals} decimals)`);
      }
    }
    if (!t || atomic === undefined || !isTronAddress(to)) return;
    const same = `${t.address}:${to}:${atomic}`;
    if (!options.allowDuplicates && seen.has(same)) bad('row', `pays ${to} the same ${atomicToDecimal(atomic, t.decimals)} ${t.symbol} as ${seen.get(same)} (allow duplicates to send both)`);
    seen.set(same, at);
    rows.push({ id, to, contract: t.address, symbol: t.symbol, decimals: t.decimals, amount: atomicToDecimal(atomic, t.decimals), amount_atomic: atomic.toString(), where: at });
  });
  if (problems.length) {
    const shown = problems.slice(0, 20).map((p) => `${p.where}: ${p.field}: ${p.message}`).join('; ');
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

/**
 * Read payouts from text: JSON lines (each `{ to, amount, id?, token? }`) when the first
 * non-blank line starts with `{`, else CSV with columns `to,amount[,id]` (a header row naming
 * them is optional and may order them differently; a `token` column is read too). Returns the
 * payouts and, per payout, its line (`line 4`) for messages; a line that cannot be read at all
 * becomes a row that {@link checkPayouts} reports.
 */
export function parsePayouts(text: string): { payouts: Payout[]; where: string[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const payouts: Payout[] = [];
  const where: string[] = [];
  const first = lines.find((l) => l.trim() !== '')?.trim() ?? '';
  if (first.startsWith('{')) {
    lines.forEach((line, i) => {
      if (line.trim() === '') return;
      let row: unknown;
      try {
        row = JSON.parse(line);
      } catch {
        row = null;
      }
      payouts.push(row && typeof row === 'object' && !Array.isArray(row) ? (row as Payout) : (null as unknown as Payout));
      where.push(`line ${i + 1}`);
    });
    return { payouts, where };
  }
  let columns = ['to', 'amount', 'id', 'token'];
  lines.forEach((line, i) => {
    if (line.trim() === '' || line.trim().startsWith('#')) return;
    const fields = csvFields(line);
    if (payouts.length === 0 && where.length === 0 && fields.some((f) => /^(to|amount|address)$/i.test(f))) {
      columns = fields.map((f) => (/^address$/i.test(f) ? 'to' : f.toLowerCase()));
      return;
    }
    const row: Record<string, string> = {};
    columns.forEach((c, k) => {
      if (fields[k] !== undefined && fields[k] !== '') row[c] = fields[k]!;
    });
    payouts.push(row as unknown as Payout);
    where.push(`line ${i + 1}`);
  });
  return { payouts, where };
}
