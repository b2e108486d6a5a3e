import type { Command } from 'commander';
import type { Order } from '../../schemas/index.js';
import { type Context, action } from '../context.js';
import { formatDuration, formatTime, groupDigits } from '../format.js';
import { renderTable } from '../output.js';
import { LIMITS, ORDER_STATUSES, orList } from '../facts.js';
import { parseChoice, parseDuration, parseInteger } from '../parse.js';
import type { CommandModule } from '../types.js';
import { renderOrder, resourceName, statusColor } from '../views.js';
import { waitForOrder } from '../wait.js';

function idInput(id: string | undefined) {
  return {
    value: id?.trim() || undefined,
    label: '<id>',
    ask: async (p: import('../context.js').Prompts) =>
      (await p.input({ message: 'Order id?', validate: (v: string) => (v.trim() ? true : 'An order id is required') })).trim(),
  };
}

const command: CommandModule = {
  description: 'List your orders, show one with its fills, or wait for one to fill.',
  register(cmd: Command) {
    cmd
      .command('list')
      .description('orders, newest first (one page, or every page with --all)')
      .option('--status <status>', orList(ORDER_STATUSES))
      .option('--limit <n>', `page size (1-${LIMITS.ORDER_LIST_MAX_LIMIT})`, String(LIMITS.ORDER_LIST_DEFAULT_LIMIT))
      .option('--offset <n>', 'skip this many orders', '0')
      .option('--all', 'walk every page')
      .action(action(runList));

    cmd
      .command('get')
      .description('one order with its fills and explorer links')
      .argument('[id]', 'order id')
      .action(action(runGet));

    cmd
      .command('wait')
      .description('wait until an order is FILLED (exit 1 if it FAILED or the timeout passes)')
      .argument('[id]', 'order id')
      .option('--timeout <duration>', 'give up after this long', '2m')
      .action(action(runWait));
  },
};

async function runList(ctx: Context, { opts }: { args: []; opts: { status?: string; limit: string; offset: string; all?: boolean }; cmd: Command }): Promise<number | void> {
  const status = opts.status ? parseChoice(opts.status, ORDER_STATUSES, '--status') : undefined;
  const limit = parseInteger(opts.limit, '--limit', { min: 1, max: LIMITS.ORDER_LIST_MAX_LIMIT });
  const offset = parseInteger(opts.offset, '--offset');
  const client = await ctx.client();
  const query = { limit, offset, ...(status ? { status } : {}) };
  let orders: Order[];
  let total: number;
  if (opts.all) {
    orders = [];
    const page = (await client.get('orders')).list(query);
    for await (const order of page) orders.push(order);
    total = orders.length + offset;
  } else {
    const page = await (await client.get('orders')).list(query);
    orders = page.orders;
    total = Number(page.total);
  }
  // A list is an array; where it sits among the rest goes to stderr (scripts read stdout).
  const next = offset + orders.length;
  if (!opts.all && next < total) {
    ctx.out.diag(ctx.out.e.dim(`${orders.length} of ${total} orders from offset ${offset}; next page: --offset ${next}, or --all for every page`));
  }
  ctx.out.result(orders, () => {
    const s = ctx.out.s;
    if (!orders.length) return s.dim(`No orders${status ? ` with status ${status}` : ''}.`);
    return renderTable(
      [
        { header: 'ID', truncate: 'middle', shrink: 0, min: 13 },
        { header: 'STATUS', truncate: 'none' },
        { header: 'RESOURCE', truncate: 'none' },
        { header: 'AMOUNT', align: 'right', truncate: 'none' },
        { header: 'DURATION', truncate: 'none' },
        { header: 'TO', truncate: 'middle', shrink: 2, min: 11 },
        { header: 'CREATED', shrink: 3, min: 10 },
      ],
      orders.map((o) => [
        o.id,
        statusColor(String(o.status), s),
        resourceName(String(o.resource_type)),
        groupDigits(String(o.amount)),
        formatDuration(Number(o.duration_sec)),
        String(o.target_address),
        formatTime(o.created_at),
      ]),
      s,
    );
  });
}

async function runGet(ctx: Context, { args: [idArg] }: { args: [string?]; opts: Record<string, unknown>; cmd: Command }): Promise<number | void> {
  const { id } = await ctx.inputs<{ id: string }>({ id: idInput(idArg) });
  const client = await ctx.client();
  const order = await (await client.get('orders')).get(id);
  ctx.out.result(order, () => renderOrder(order, ctx.out.s));
}

async function runWait(ctx: Context, { args: [idArg], opts }: { args: [string?]; opts: { timeout: string }; cmd: Command }): Promise<number | void> {
  const timeoutMs = parseDuration(opts.timeout, '--timeout') * 1000;
  const { id } = await ctx.inputs<{ id: string }>({ id: idInput(idArg) });
  const client = await ctx.client();
  const order = await waitForOrder(ctx, client, id, timeoutMs);
  ctx.out.result(order, () => renderOrder(order, ctx.out.s));
}

export default command;
