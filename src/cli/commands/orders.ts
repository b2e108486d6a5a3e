import type { Command } from 'commander';
import type { Order } from '../../schemas/index.js';
import { type Context, action } from '../context.js';
import { compactTimes, formatDuration, groupDigits } from '../format.js';
import { outputSchema } from '../output.js';
import { renderTable } from '../tables.js';
import { LIMITS, ORDER_STATUSES, orList } from '../facts.js';
import { parseChoice, parseDuration, parseInteger } from '../parse.js';
import type { CommandModule } from '../types.js';
import { renderOrder, resourceName, statusColor } from '../views.js';
import { waitForOrder } from '../wait.js';
import { CliError, EXIT, UsageError } from '../errors.js';

function idInput(id: string | undefined) {
  return {
    value: id?.trim() || undefined,
    label: '<id>',
    ask: async (p: import('../services/prompts.js').Prompts) =>
      (await p.input({ message: 'Order id?', validate: (v: string) => (v.trim() ? true : 'An order id is required') })).trim(),
  };
}

/** A whole order id (a UUID): used as given, no lookup. */
const FULL_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Orders read at most to resolve a prefix (pages of the API's largest size). */
const PREFIX_SCAN_LIMIT = 5_000;

/**
 * The order id `given` stands for, as git resolves a short hash: a whole id as is; otherwise the
 * one order whose id starts with it. No match is NOT_FOUND; several are an error listing them.
 */
export async function resolveOrderId(orders: { list(query: { limit: number; offset: number }): AsyncIterable<Order> }, given: string): Promise<string> {
  const id = given.trim();
  if (FULL_ID.test(id) || id.length < 4) return id;
  const prefix = id.toLowerCase();
  const matches: string[] = [];
  let seen = 0;
  for await (const order of orders.list({ limit: LIMITS.ORDER_LIST_MAX_LIMIT, offset: 0 })) {
    if (String(order.id).toLowerCase().startsWith(prefix)) matches.push(String(order.id));
    if (++seen >= PREFIX_SCAN_LIMIT) break;
  }
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    throw new CliError('NOT_FOUND', `No order id starts with ${id} (among your ${seen} most recent orders).`, {
      exitCode: EXIT.NOT_FOUND,
      hint: 'check the id with `trx-rent orders list`',
    });
  }
  throw new UsageError(
    `${id} is ambiguous: ${matches.length} orders start with it:\n${matches
      .slice(0, 10)
      .map((m) => `  ${m}`)
      .join('\n')}${matches.length > 10 ? '\n  …' : ''}`,
    'Give more characters of the id.',
    'AMBIGUOUS_ID',
  );
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
      .action(action<[], OrdersListOptions>(runOrdersList));

    cmd
      .command('get')
      .description('one order with its fills and explorer links')
      .argument('[id]', 'order id, or a unique prefix of it (as `orders list` shows)')
      .action(action<[string?]>(runOrdersGet));

    cmd
      .command('wait')
      .description('wait until an order is FILLED (exit 1 if it FAILED or the timeout passes)')
      .argument('[id]', 'order id, or a unique prefix of it')
      .option('--timeout <duration>', 'give up after this long', '2m')
      .action(action<[string?], OrdersWaitOptions>(runOrdersWait));
  },
};

interface OrdersListOptions {
  status?: string;
  limit: string;
  offset: string;
  all?: boolean;
}

async function runOrdersList(ctx: Context, { opts }: { opts: OrdersListOptions }) {
  const status = opts.status ? parseChoice(opts.status, ORDER_STATUSES, '--status') : undefined;
  const limit = parseInteger(opts.limit, '--limit', { min: 1, max: LIMITS.ORDER_LIST_MAX_LIMIT });
  const offset = parseInteger(opts.offset, '--offset');
  const client = await ctx.clients.client();
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
  // --json FIELDS is checked against the list item's schema, so a typo fails on an empty list too.
  const { Order: OrderSchema } = await import('../../schemas/orders.js');
  ctx.out.result(
    orders,
    () => {
      const s = ctx.out.s;
      if (!orders.length) return s.dim(`No orders${status ? ` with status ${status}` : ''}.`);
      // Ids and times stay whole (an id is what `orders get` takes; a prefix will do); on a
      // narrow terminal the address goes first, then the duration (`orders get` shows both).
      const created = compactTimes(orders.map((o) => o.created_at));
      return renderTable(
        [
          { header: 'ID', truncate: 'none' },
          { header: 'STATUS', truncate: 'none' },
          { header: 'AMOUNT', truncate: 'none' },
          { header: 'FOR', truncate: 'none', drop: 1 },
          { header: 'TO', truncate: 'middle', min: 11, drop: 2 },
          { header: 'CREATED (UTC)', truncate: 'none' },
        ],
        orders.map((o, i) => [
          o.id,
          statusColor(String(o.status), s),
          `${groupDigits(String(o.amount))} ${resourceName(String(o.resource_type))}`,
          formatDuration(Number(o.duration_sec)),
          String(o.target_address),
          created[i] ?? '',
        ]),
        s,
      );
    },
    outputSchema(OrderSchema),
  );
}

async function runOrdersGet(ctx: Context, { args: [idArg] }: { args: [string?] }) {
  const { id } = await ctx.ask.inputs<{ id: string }>({ id: idInput(idArg) });
  const client = await ctx.clients.client();
  const orders = await client.get('orders');
  const order = await orders.get(await resolveOrderId(orders, id));
  const { Order: OrderSchema } = await import('../../schemas/orders.js');
  // A field the order does not have yet (filled_at on a PENDING one) is still a field.
  ctx.out.result(order, () => renderOrder(order, ctx.out.s), outputSchema(OrderSchema));
}

interface OrdersWaitOptions {
  timeout: string;
}

async function runOrdersWait(ctx: Context, { args: [idArg], opts }: { args: [string?]; opts: OrdersWaitOptions }) {
  const timeoutMs = parseDuration(opts.timeout, '--timeout') * 1000;
  const { id } = await ctx.ask.inputs<{ id: string }>({ id: idInput(idArg) });
  const client = await ctx.clients.client();
  const order = await waitForOrder(ctx, client, await resolveOrderId(await client.get('orders'), id), timeoutMs);
  const { Order: OrderSchema } = await import('../../schemas/orders.js');
  ctx.out.result(order, () => renderOrder(order, ctx.out.s), outputSchema(OrderSchema));
}

export default command;
