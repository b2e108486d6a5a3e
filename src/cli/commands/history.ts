import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { formatTime, groupDigits, sunAndTrx, trxOf } from '../format.js';
import { renderPairs, renderTable } from '../output.js';
import { HISTORY_PERIODS, orList } from '../facts.js';
import { parseChoice } from '../parse.js';
import type { CommandModule } from '../types.js';
import { resourceName } from '../views.js';

const command: CommandModule = {
  description: 'Your fills over a period (newest first), or `history summary` for the whole account.',
  register(cmd: Command) {
    cmd
      .option('--period <period>', orList(HISTORY_PERIODS), HISTORY_PERIODS[0])
      .action(action(runHistory));

    cmd
      .command('summary')
      .description('totals over the whole account')
      .action(action(runSummary));
  },
};

async function runHistory(ctx: Context, { opts }: { args: []; opts: { period: string }; cmd: Command }): Promise<number | void> {
  const period = parseChoice(opts.period, HISTORY_PERIODS, '--period');
  const client = await ctx.client();
  const fills = await (await client.get('history')).list({ period });
  ctx.out.result(fills, () => {
    const s = ctx.out.s;
    if (!fills.length) return s.dim(`No fills in the last ${period}.`);
    const total = fills.reduce((sum, f) => sum + BigInt(Math.round(Number(f.cost_sun))), 0n);
    const table = renderTable(
      [
        { header: 'TIME', shrink: 2, min: 10 },
        { header: 'PROVIDER', shrink: 0 },
        { header: 'RESOURCE', truncate: 'none' },
        { header: 'AMOUNT', align: 'right', truncate: 'none' },
        { header: 'SUN/UNIT', align: 'right', truncate: 'none' },
        { header: 'COST', align: 'right', truncate: 'none' },
        { header: 'ORDER', truncate: 'middle', min: 13 },
        { header: 'TX', truncate: 'middle', shrink: 3, min: 11 },
      ],
      fills.map((f) => [
        formatTime(f.created_at),
        String(f.provider),
        resourceName(String(f.resource_type)),
        groupDigits(String(f.amount)),
        String(f.price_sun),
        `${trxOf(Number(f.cost_sun))} TRX`,
        String(f.order_id),
        s.dim(String(f.tx_id)),
      ]),
      s,
    );
    return `${table}${s.dim(`${fills.length} fills in ${period}, ${trxOf(total)} TRX spent`)}`;
  });
}

async function runSummary(ctx: Context): Promise<number | void> {
  const client = await ctx.client();
  const summary = await (await client.get('history')).summary();
  ctx.out.result(summary, () =>
    renderPairs(
      [
        ['orders', groupDigits(String(summary.total_orders))],
        ['energy rented', `${groupDigits(String(summary.total_energy))} units`],
        ['spent', sunAndTrx(Number(summary.total_spent_sun))],
        ['average price', `${summary.avg_price_sun} SUN per energy unit`],
      ],
      ctx.out.s,
    ),
  );
}

export default command;
