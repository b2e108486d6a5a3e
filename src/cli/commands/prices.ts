import type { Command } from 'commander';
import type { PriceEntry, ProviderPrice } from '../../schemas/index.js';
import { PRICE_HISTORY_PERIODS } from '../facts.js';
import { type Context, action } from '../context.js';
import { costSun, formatDuration, formatTime, groupDigits, trxOf } from '../format.js';
import { outputSchema } from '../output.js';
import { renderTable } from '../tables.js';
import { type Resource, parseChoice, parseDuration, parseResource, parseUnits } from '../parse.js';
import type { CommandModule } from '../types.js';

export interface PriceRow {
  provider: string;
  resource: Resource;
  /** The provider's tier used: the shortest one that covers the requested duration. */
  duration_sec: number;
  price_sun: number;
  price_trx: string;
  available: number;
  is_market: boolean;
  fetched_at: string | number;
  /** Whole SUN: amount × price, rounded up when the price per unit has a fraction (src/cli/README.md, "Money in JSON"). */
  cost_sun?: number;
  /** `cost_sun` in TRX, an exact decimal string. */
  cost_trx?: string;
}

/** An exact decimal SUN figure rounded up to a whole SUN. */
function wholeSun(decimal: string): number {
  const [whole = '0', fraction = ''] = decimal.split('.');
  return Number(whole) + (/[1-9]/.test(fraction) ? 1 : 0);
}

/** The fields of one `prices` row (`cost_sun`/`cost_trx` with `--amount`). */
export const PRICE_ROW_FIELDS = [
  'provider',
  'resource',
  'duration_sec',
  'price_sun',
  'price_trx',
  'available',
  'is_market',
  'fetched_at',
  'cost_sun',
  'cost_trx',
] as const satisfies ReadonlyArray<keyof PriceRow>;

/** Providers that can rent `resource` for `durationSec`, cheapest first. */
export function rankPrices(list: ProviderPrice[], resource: Resource, durationSec: number, amount?: number): PriceRow[] {
  const rows: PriceRow[] = [];
  for (const p of list) {
    const tiers = (resource === 'ENERGY' ? p.energy_prices : p.bandwidth_prices)
      .filter((t) => Number(t.duration_sec) >= durationSec)
      .sort((a, b) => Number(a.duration_sec) - Number(b.duration_sec));
    const tier = tiers[0];
    if (!tier) continue;
    const price = Number(tier.price_sun);
    const row: PriceRow = {
      provider: p.provider,
      resource,
      duration_sec: Number(tier.duration_sec),
      price_sun: price,
      price_trx: trxOf(price),
      available: Number(resource === 'ENERGY' ? p.available_energy : p.available_bandwidth),
      is_market: p.is_market,
      fetched_at: p.fetched_at,
    };
    if (amount !== undefined) {
      row.cost_sun = wholeSun(costSun(amount, price));
      row.cost_trx = trxOf(row.cost_sun);
    }
    rows.push(row);
  }
  return rows.sort((a, b) => a.price_sun - b.price_sun || b.available - a.available || a.provider.localeCompare(b.provider));
}

const SPARK = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/**
 * `values` (oldest first) as a sparkline of at most `width` characters: each character is the
 * mean of its share of the points, scaled between the lowest and highest mean (a flat series is
 * a flat line).
 */
export function sparkline(values: number[], width: number): string {
  if (!values.length) return '';
  const n = Math.min(width, values.length);
  const buckets = Array.from({ length: n }, (_, i) => {
    const part = values.slice(Math.floor((i * values.length) / n), Math.floor(((i + 1) * values.length) / n));
    return part.reduce((a, b) => a + b, 0) / part.length;
  });
  const low = Math.min(...buckets);
  const high = Math.max(...buckets);
  return buckets.map((v) => SPARK[high === low ? 3 : Math.round(((v - low) / (high - low)) * (SPARK.length - 1))]).join('');
}

export interface PriceTrend {
  provider: string;
  points: number;
  low: number;
  high: number;
  now: number;
  line: string;
}

/** Each provider's price over the period (entries of `getPriceHistory`), oldest to newest. */
export function priceTrends(entries: PriceEntry[], width: number): PriceTrend[] {
  const byProvider = new Map<string, Array<{ at: number; price: number }>>();
  for (const e of entries) {
    const at = typeof e.polled_at === 'number' ? (e.polled_at > 1e12 ? e.polled_at : e.polled_at * 1000) : Date.parse(String(e.polled_at));
    const list = byProvider.get(e.provider) ?? [];
    list.push({ at, price: Number(e.price_sun) });
    byProvider.set(e.provider, list);
  }
  return [...byProvider]
    .map(([provider, list]) => {
      const prices = list.sort((a, b) => a.at - b.at).map((p) => p.price);
      return { provider, points: prices.length, low: Math.min(...prices), high: Math.max(...prices), now: prices.at(-1)!, line: sparkline(prices, width) };
    })
    .sort((a, b) => a.now - b.now || a.provider.localeCompare(b.provider));
}

const command: CommandModule = {
  description:
    'Providers sorted by price per unit for a resource and rental duration (public; no key needed). ' +
    "Each provider's shortest price tier that covers the duration is used.",
  register(cmd: Command) {
    cmd
      .argument('[resource]', 'energy or bandwidth', 'energy')
      .option('-d, --duration <duration>', 'rental duration: 30m, 1h, 3d or seconds', '1h')
      .option('-a, --amount <units>', 'also show the total cost for this many units')
      .action(action<[string], PricesOptions>(runPrices));

    cmd
      .command('history')
      .description("each provider's price over a period: a sparkline with low, high and now at a terminal; the API's entries with --json or piped")
      .option('--period <period>', PRICE_HISTORY_PERIODS.join(', '), '24h')
      .option('--resource <resource>', 'energy or bandwidth', 'energy')
      .option('--provider <name>', 'only this provider')
      .action(action<[], PricesHistoryOptions>(runPricesHistory));
  },
};

interface PricesOptions {
  duration: string;
  amount?: string;
}

async function runPrices(ctx: Context, { args: [resourceArg], opts }: { args: [string]; opts: PricesOptions }) {
  const resource = parseResource(resourceArg);
  const durationSec = parseDuration(opts.duration);
  const amount = opts.amount === undefined ? undefined : parseUnits(opts.amount, '--amount');
  const client = await ctx.clients.client({ auth: false });
  const list = await (await client.get('prices')).list();
  const rows = rankPrices(list, resource, durationSec, amount);
  ctx.out.result(
    rows,
    () => {
      const s = ctx.out.s;
      const title = `${s.bold(resource === 'ENERGY' ? 'Energy' : 'Bandwidth')} for ${formatDuration(durationSec)}: ${rows.length} of ${list.length} providers, cheapest first`;
      if (!rows.length) return `${title}\n${s.yellow('No provider offers this duration.')}`;
      const columns = [
        { header: 'PROVIDER', shrink: 0 },
        { header: 'SUN/UNIT', align: 'right' as const, truncate: 'none' as const },
        { header: 'TRX/UNIT', align: 'right' as const, truncate: 'none' as const },
        { header: 'TIER', truncate: 'none' as const },
        { header: 'AVAILABLE', align: 'right' as const, truncate: 'none' as const },
        ...(amount !== undefined ? [{ header: `COST OF ${groupDigits(String(amount))}`, align: 'right' as const, truncate: 'none' as const }] : []),
        { header: 'UPDATED', shrink: 3 },
      ];
      const table = renderTable(
        columns,
        rows.map((r, i) => [
          i === 0 ? s.green(r.provider) : r.provider,
          String(r.price_sun),
          r.price_trx,
          formatDuration(r.duration_sec),
          groupDigits(String(r.available)),
          ...(amount !== undefined ? [`${r.cost_trx} TRX`] : []),
          s.dim(formatTime(r.fetched_at)),
        ]),
        s,
      );
      return `${title}\n${table}`;
    },
    outputSchema(PRICE_ROW_FIELDS),
  );
}

interface PricesHistoryOptions {
  period: string;
  resource: string;
  provider?: string;
}

async function runPricesHistory(ctx: Context, { opts }: { opts: PricesHistoryOptions }) {
  const period = parseChoice(opts.period, PRICE_HISTORY_PERIODS, '--period');
  const resource = parseResource(opts.resource);
  const client = await ctx.clients.client({ auth: false });
  const entries = await (await client.get('prices')).history({ period, resource, ...(opts.provider ? { provider: opts.provider } : {}) });
  const { PriceEntry } = await import('../../schemas/prices.js');
  ctx.out.result(
    entries,
    () => {
      const s = ctx.out.s;
      const title = `${s.bold(resource === 'ENERGY' ? 'Energy' : 'Bandwidth')} price per unit (SUN) over ${period}, cheapest now first`;
      if (!entries.length) return `${title}\n${s.dim('No prices in this period.')}`;
      const names = Math.max(8, ...entries.map((e) => e.provider.length));
      // Room for the line: the terminal's width less the name and the three figures.
      const width = Math.max(10, Math.min(48, (s.width ?? 80) - names - 36));
      const trends = priceTrends(entries, width);
      const lines = trends.map(
        (t) =>
          `${t.provider.padEnd(names)}  ${s.cyan(t.line.padEnd(width))}  ${s.dim('low')} ${String(t.low).padStart(4)}  ${s.dim('high')} ${String(t.high).padStart(4)}  ${s.dim('now')} ${s.bold(String(t.now))}`,
      );
      return `${title}\n${lines.join('\n')}\n${s.dim(`${entries.length} polls; trx-rent prices history --json for the data`)}`;
    },
    outputSchema(PriceEntry),
  );
}

export default command;
