import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { compactTimes, groupDigits, sunAndTrx, trxOf } from '../format.js';
import { outputSchema } from '../output.js';
import { renderPairs, renderTable } from '../tables.js';
import { HISTORY_PERIODS, orList } from '../facts.js';
import { parseChoice } from '../parse.js';
import type { CommandModule } from '../types.js';
import { resourceName } from '../views.js';

const command: CommandModule = {
  description: 'Your fills over a period (newest first), or `history summary` for the whole account.',
  register(cmd: Command) {
    cmd.option('--period <period>', orList(HISTORY_PERIODS), HISTORY_PERIODS[0]).action(action<[], HistoryOptions>(runHistory));

    cmd.command('summary').description('totals over the whole account').action(action(runHistorySummary));
  },
};

interface HistoryOptions {
  period: string;
}

async function runHistory(ctx: Context, { opts }: { opts: HistoryOptions }) {
  const period = parseChoice(opts.period, HISTORY_PERIODS, '--period');
  const client = await ctx.clients.client();
  const fills = await (await client.get('history')).list({ period });
  const { HistoryFill } = await import('../../schemas/history.js');
  ctx.out.result(
    fills,
    () => {
      const s = ctx.out.s;
      if (!fills.length) return s.dim(`No fills in the last ${period}.`);
      const total = fills.reduce((sum, f) => sum + BigInt(Math.round(Number(f.cost_sun))), 0n);
      // Times and order ids stay whole; on a narrow terminal the transaction hash goes first,
      // then the unit price, then the amount (`orders get <order>` shows them all).
      const times = compactTimes(fills.map((f) => f.created_at));
      const table = renderTable(
        [
          { header: 'TIME (UTC)', truncate: 'none' },
          { header: 'PROVIDER', min: 8 },
          { header: 'AMOUNT', align: 'right', truncate: 'none', drop: 1 },
          { header: 'SUN/UNIT', align: 'right', truncate: 'none', drop: 2 },
          { header: 'COST', align: 'right', truncate: 'none' },
          { header: 'ORDER', truncate: 'none' },
          { header: 'TX', truncate: 'middle', min: 11, drop: 3 },
        ],
        fills.map((f, i) => [
          times[i] ?? '',
          String(f.provider),
          `${groupDigits(String(f.amount))} ${resourceName(String(f.resource_type))}`,
          String(f.price_sun),
          `${trxOf(Number(f.cost_sun))} TRX`,
          String(f.order_id),
          s.dim(String(f.tx_id)),
        ]),
        s,
      );
      return `${table}${s.dim(`${fills.length} fills in ${period}, ${trxOf(total)} TRX spent`)}`;
    },
    outputSchema(HistoryFill),
  );
}

async function runHistorySummary(ctx: Context) {
  const client = await ctx.clients.client();
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
