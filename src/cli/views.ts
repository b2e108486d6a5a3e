/**
 * Human renderings shared by several commands (orders, fills, previews). JSON output never goes
 * through here: it is the API's own document.
 */
import type { Fill, Order, Preview, PreviewOption } from '../schemas/index.js';
import { trxToSun } from '../utils/units.js';
import { costSun, formatDuration, formatTime, groupDigits, sunAndTrx, trxOf } from './format.js';
import { type Styles, visibleLength } from './styles.js';
import { renderPairs, renderTable, truncateCell } from './tables.js';

export function statusColor(status: string, s: Styles): string {
  if (status === 'FILLED' || status === 'COMPLETED' || status === 'CONFIRMED') return s.green(status);
  if (status === 'FAILED' || status === 'CANCELLED') return s.red(status);
  return s.yellow(status);
}

export function resourceName(resource: string): string {
  return resource.toLowerCase();
}

export function renderOrder(order: Order, s: Styles): string {
  const pairs: Array<[string, string]> = [
    ['order', s.bold(order.id)],
    ['status', statusColor(String(order.status), s)],
    ['resource', `${groupDigits(String(order.amount))} ${resourceName(String(order.resource_type))} for ${formatDuration(Number(order.duration_sec))}`],
    ['type', String(order.order_type)],
    ['to', String(order.target_address)],
  ];
  if (order.max_price_sun != null) pairs.push(['max price', `${order.max_price_sun} SUN per unit`]);
  if (order.total_cost_sun != null) pairs.push(['total cost', sunAndTrx(Number(order.total_cost_sun))]);
  if (order.total_fee_sun != null) pairs.push(['fee', sunAndTrx(Number(order.total_fee_sun))]);
  pairs.push(['created', formatTime(order.created_at)]);
  if (order.filled_at) pairs.push(['filled', formatTime(order.filled_at)]);
  let text = renderPairs(pairs, s);
  if (order.fills?.length) text += `\n${renderFills(order.fills, s)}`;
  return text;
}

export function renderFills(fills: Fill[], s: Styles): string {
  const table = renderTable(
    [
      { header: 'PROVIDER' },
      { header: 'AMOUNT', align: 'right', truncate: 'none' },
      { header: 'PRICE (SUN)', align: 'right', truncate: 'none' },
      { header: 'COST', align: 'right', truncate: 'none' },
      { header: 'STATUS', truncate: 'none' },
      { header: 'VERIFIED', truncate: 'none' },
    ],
    fills.map((f) => [
      String(f.provider),
      groupDigits(String(f.amount)),
      String(f.price_sun),
      `${trxOf(Number(f.cost_sun))} TRX`,
      statusColor(String(f.status), s),
      f.verified ? s.green('yes') : s.yellow('not yet'),
    ]),
    s,
  );
  // The explorer link stays whole (it is meant to be opened); the hash gives way on a narrow terminal.
  const hashWidth = s.width === undefined ? Infinity : Math.max(13, s.width - visibleLength(String(fills[0]?.tronscan_url ?? '')) - 8);
  const links = fills.map((f) => `  ${s.dim('tx')} ${truncateCell(String(f.tx_id), hashWidth, 'middle')}  ${s.cyan(String(f.tronscan_url))}`).join('\n');
  return `${table}${links}\n`;
}

/** Total cost of a preview option in SUN, exactly: the server's cost_trx when it is exact, else amount × price. */
export function optionCostSun(option: PreviewOption, amount: number): number {
  try {
    return trxToSun(String(option.cost_trx));
  } catch {
    return Math.ceil(Number(costSun(amount, Number(option.price_sun))));
  }
}

export function renderPreview(
  preview: Preview,
  request: { resource: string; amount: number; duration_sec: number; max_price_sun?: number | undefined },
  s: Styles,
): string {
  const head = `${groupDigits(String(request.amount))} ${resourceName(request.resource)} for ${formatDuration(request.duration_sec)}${
    request.max_price_sun ? ` at most ${request.max_price_sun} SUN per unit` : ''
  }`;
  if (preview.no_providers || !preview.best) {
    return `${s.bold('Preview')} ${head}\n${s.red('No provider can fill this now.')}\n`;
  }
  const options = [preview.best, ...preview.fallbacks];
  const rows = options.map((o, i) => [
    i === 0 ? s.green('best') : '',
    `${o.displayName} ${s.dim(`(${o.provider})`)}`,
    `${o.price_sun}`,
    formatDuration(Number(o.duration_sec)),
    sunAndTrx(optionCostSun(o, request.amount)),
  ]);
  return `${s.bold('Preview')} ${head}\n${renderTable(
    [
      { header: '', truncate: 'none' },
      { header: 'PROVIDER' },
      { header: 'SUN/UNIT', align: 'right', truncate: 'none' },
      { header: 'TIER', truncate: 'none' },
      { header: 'TOTAL', align: 'right', truncate: 'none' },
    ],
    rows,
    s,
  )}${renderBurnComparison(request.resource, request.amount, optionCostSun(preview.best, request.amount), s)}`;
}

/**
 * What the network burns (TRX) when a transaction has no staked or rented resource: energy at
 * `getEnergyFee` SUN per unit, bandwidth at `getTransactionFee` SUN per byte. These are the
 * network's current defaults (chain parameters 11 and 3); a node's own values would be read with
 * `wallet/getchainparameters`, which the account API does not expose, so the comparison says
 * which price it assumed.
 */
export const BURN_FEE_SUN = { ENERGY: 100, BANDWIDTH: 1000 } as const;

/** `burning instead: … TRX; renting saves … TRX (…%)`, next to the rental cost. */
export function renderBurnComparison(resource: string, amount: number, rentalSun: number, s: Styles): string {
  const fee = BURN_FEE_SUN[resource === 'BANDWIDTH' ? 'BANDWIDTH' : 'ENERGY'];
  const burnSun = amount * fee;
  const saved = burnSun - rentalSun;
  const unit = resource === 'BANDWIDTH' ? 'byte' : 'unit';
  const share = burnSun > 0 ? Math.round((saved / burnSun) * 100) : 0;
  const verdict = saved > 0 ? s.green(`renting saves ${trxOf(saved)} TRX (${share}%)`) : s.yellow(`renting costs ${trxOf(-saved)} TRX more than burning`);
  return `${s.dim('rent')}  ${trxOf(rentalSun)} TRX   ${s.dim('burn instead')}  ${trxOf(burnSun)} TRX ${s.dim(`(${fee} SUN per ${unit}, the network's default fee)`)}\n${verdict}\n`;
}

/** `energy_needed` -> `energy needed` */
function label(key: string): string {
  return key.replace(/_/g, ' ');
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'object') {
    if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) return value.map(String).join(', ') || '-';
    return JSON.stringify(value);
  }
  return String(value);
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Any JSON document for people (the x402 answers): an object as aligned `key  value` lines
 * (nested objects one level down as `parent.key`, lists of objects as tables under their key), a
 * list of objects as a table, anything else as its text. Tables fit the terminal like the rest.
 */
export function renderData(data: unknown, s: Styles): string {
  if (Array.isArray(data)) {
    if (!data.length) return s.dim('(none)');
    if (data.every(isRecord)) {
      const keys = [...new Set(data.flatMap((row) => Object.keys(row)))];
      return renderTable(
        keys.map((k) => ({
          header: label(k).toUpperCase(),
          ...(typeof data[0]?.[k] === 'number' ? { align: 'right' as const, truncate: 'none' as const } : {}),
        })),
        data.map((row) => keys.map((k) => scalar(row[k]))),
        s,
      ).replace(/\n$/, '');
    }
    return data.map(scalar).join('\n');
  }
  if (!isRecord(data)) return scalar(data);
  const pairs: Array<[string, string]> = [];
  const tables: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (Array.isArray(value) && value.length && value.every(isRecord)) {
      tables.push(`${s.bold(label(key))}\n${renderData(value, s)}`);
    } else if (isRecord(value) && Object.values(value).every((v) => !isRecord(v))) {
      for (const [k, v] of Object.entries(value)) pairs.push([`${label(key)}.${label(k)}`, scalar(v)]);
    } else {
      pairs.push([label(key), scalar(value)]);
    }
  }
  return [pairs.length ? renderPairs(pairs, s).replace(/\n$/, '') : '', ...tables].filter(Boolean).join('\n\n');
}
