import type { Command } from 'commander';
import type { ProviderPrice } from '../../schemas/index.js';
import { type Context, action } from '../context.js';
import { costSun, formatDuration, formatTime, groupDigits, trxOf } from '../format.js';
import { renderTable } from '../output.js';
import { type Resource, parseDuration, parseResource, parseUnits } from '../parse.js';
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
  cost_sun?: string;
  cost_trx?: string;
}

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
      row.cost_sun = costSun(amount, price);
      row.cost_trx = trxOf(row.cost_sun);
    }
    rows.push(row);
  }
  return rows.sort((a, b) => a.price_sun - b.price_sun || b.available - a.available || a.provider.localeCompare(b.provider));
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
      .action(action(runPrices));
  },
};

async function runPrices(ctx: Context, { args: [resourceArg], opts }: { args: [string]; opts: { duration: string; amount?: string }; cmd: Command }): Promise<number | void> {
  const resource = parseResource(resourceArg);
  const durationSec = parseDuration(opts.duration);
  const amount = opts.amount === undefined ? undefined : parseUnits(opts.amount, '--amount');
  const client = await ctx.client({ auth: false });
  const list = await (await client.get('prices')).list();
  const rows = rankPrices(list, resource, durationSec, amount);
  ctx.out.result(rows, () => {
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
  });
}

export default command;
