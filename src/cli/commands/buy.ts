import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { CliError } from '../errors.js';
import { outputSchema } from '../output.js';
import { type Context, action } from '../context.js';
import { formatDuration, groupDigits, sunAndTrx } from '../format.js';
import { LIMITS, ORDER_TYPES, PRICED_ORDER_TYPES, idempotencyKeyHelp, orList } from '../facts.js';
import {
  type Resource,
  checkMinimum,
  parseAddress,
  parseChoice,
  parseDuration,
  parseIdempotencyKey,
  parseResource,
  parseSunPrice,
  parseUnits,
} from '../parse.js';
import { addressQuestion, amountQuestion, durationQuestion, resourceQuestion } from '../prompts.js';
import type { CommandModule } from '../types.js';
import { noProviderHint, renderUnquoted, unquoted } from '../quotes.js';
import { renderTierNote, tierNote } from '../tiers.js';
import { optionCostSun, renderOrder, renderPreview, resourceName } from '../views.js';
import { waitForOrder } from '../wait.js';

interface BuyOptions {
  to?: string;
  duration?: string;
  maxPrice?: string;
  type?: string;
  wait?: boolean;
  timeout: string;
  idempotencyKey?: string;
  dryRun?: boolean;
}

const command: CommandModule = {
  description:
    'Rent energy or bandwidth for a TRON address. Shows the preview, asks to confirm (unless --yes), ' +
    'places the order with an idempotency key, and with --wait follows it to FILLED and prints the ' +
    'fills with explorer links. The address is read on the TRON node first: one TRON cannot delegate to ' +
    '(a contract, or an address that has never received TRX) is refused before anything is ordered.',
  register(cmd: Command) {
    cmd
      .usage(`<amount> [energy|bandwidth] --to ADDRESS --duration 1h [--max-price SUN] [--type ${ORDER_TYPES.join('|')}] [--wait]`)
      .argument('[amount]', `resource units, e.g. 65000 or 65k (energy: at least ${LIMITS.MIN_ENERGY_AMOUNT})`)
      .argument('[resource]', 'energy (default) or bandwidth')
      .option('-t, --to <address>', "TRON address that receives the resource (default: the profile's default_address)")
      .option('-d, --duration <duration>', "rental duration: 30m, 1h, 3d or seconds (default: the profile's default_duration)")
      .option('--max-price <sun>', `highest price per unit in SUN (required for ${orList(PRICED_ORDER_TYPES)})`)
      .option('--type <type>', `${orList(ORDER_TYPES)} (default: the API's, ${ORDER_TYPES[0]})`)
      .option('-w, --wait', 'follow the order to FILLED and print the fills')
      .option('--timeout <duration>', 'how long --wait waits', '2m')
      .option('--idempotency-key <key>', idempotencyKeyHelp('reuse a key to make a retried command safe'))
      .option('--dry-run', 'show the preview and stop; places nothing')
      .action(action(runBuy));
  },
};

/**
 * Refuse a target TRON cannot delegate to before anything is ordered: read on the TRON node (the
 * mock's own, or --tron-node's setting), a contract is TARGET_IS_CONTRACT and an address never
 * activated TARGET_NOT_ACTIVATED (the order would fail at the service). When the node cannot be
 * read, say so and leave it to the service.
 */
async function checkTarget(ctx: Context, to: string): Promise<void> {
  try {
    await (await ctx.chain.handles()).chain.checkTarget(to);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'TARGET_NOT_ACTIVATED' || code === 'TARGET_IS_CONTRACT' || code === 'CONFIGURATION_ERROR' || code === 'INSECURE_TRANSPORT') throw error;
    ctx.out.warn(
      `could not check ${to} on the TRON node (${(error as Error).message}); ordering anyway: an order to an address TRON cannot delegate to fails at the service`,
    );
  }
}

/** Durations the providers offer for the select prompt (public prices; best effort). */
async function knownTiers(ctx: Context, resource: Resource): Promise<number[]> {
  try {
    const client = await ctx.clients.client({ auth: false });
    const list = await (await client.get('prices')).list({ maxRetries: 0, timeoutMs: 5_000 });
    return [...new Set(list.flatMap((p) => (resource === 'ENERGY' ? p.energy_prices : p.bandwidth_prices).map((t) => Number(t.duration_sec))))];
  } catch {
    return [];
  }
}

async function runBuy(
  ctx: Context,
  { args: [amountArg, resourceArg], opts }: { args: [string?, string?]; opts: BuyOptions; cmd: Command },
): Promise<number | void> {
  const orderType = opts.type ? parseChoice(opts.type, ORDER_TYPES, '--type') : undefined;
  const maxPrice = opts.maxPrice ? parseSunPrice(opts.maxPrice) : undefined;
  const priced = orderType !== undefined && PRICED_ORDER_TYPES.includes(orderType);
  if (priced && maxPrice === undefined) {
    throw new CliError('VALIDATION_ERROR', `a ${orderType} order needs --max-price`, { exitCode: 2, hint: 'e.g. --max-price 30' });
  }
  const timeoutMs = parseDuration(opts.timeout, '--timeout') * 1000;
  const givenKey = parseIdempotencyKey(opts.idempotencyKey);
  // Profile defaults (`trx-rent config set default_address …`) stand in for missing flags.
  const toText = opts.to ?? (await ctx.config.profileDefault('default_address'));
  const durationText = opts.duration ?? (await ctx.config.profileDefault('default_duration'));
  let tiers: number[] | undefined;
  const input = await ctx.ask.inputs<{ resource: Resource; amount: number; to: string; duration: number }>({
    resource: {
      value: resourceArg ? parseResource(resourceArg) : undefined,
      label: '[energy|bandwidth]',
      default: 'ENERGY',
      ask: (p) => p.select(resourceQuestion()),
    },
    amount: {
      value: amountArg ? parseUnits(amountArg) : undefined,
      label: '<amount>',
      ask: async (p, soFar) => parseUnits(await p.input(amountQuestion(soFar.resource as Resource))),
    },
    to: {
      value: toText ? await parseAddress(toText, opts.to ? '--to' : 'default_address') : undefined,
      label: '--to ADDRESS',
      ask: async (p) => (await p.input(addressQuestion())).trim(),
    },
    duration: {
      value: durationText ? parseDuration(durationText, opts.duration ? '--duration' : 'default_duration') : undefined,
      label: '--duration',
      ask: async (p, soFar) => {
        tiers ??= await knownTiers(ctx, soFar.resource as Resource);
        return p.select(durationQuestion(tiers));
      },
    },
  });
  const { resource, amount, to, duration } = input;
  checkMinimum(resource, amount);
  await checkTarget(ctx, to);
  const client = await ctx.clients.client();
  const request = { resource, amount, duration_sec: duration, max_price_sun: maxPrice };
  const preview = await (await client.get('orders')).preview({
    resource,
    amount,
    duration,
    ...(maxPrice !== undefined ? { max_price_sun: maxPrice } : {}),
  });
  if (!ctx.out.json) ctx.out.print(renderPreview(preview, request, ctx.out.s));
  // Between two tiers: the longer tier's price is charged; say so before anything is confirmed.
  const tier = await tierNote(ctx, request, preview);
  if (tier) {
    if (ctx.out.json) ctx.out.warn(renderTierNote(tier, ctx.out.e).replace(/^\S+ /, '').trimEnd());
    else ctx.out.print(renderTierNote(tier, ctx.out.s));
  }
  if (preview.no_providers || !preview.best) {
    if (!priced) {
      const notQuoted = await unquoted(ctx, request, preview);
      if (!ctx.out.json) ctx.out.print(renderUnquoted(notQuoted, amount, ctx.out.s));
      throw new CliError('PROVIDER_UNAVAILABLE', `no provider can fill ${amount} ${resourceName(resource)} for ${formatDuration(duration)} now`, {
        hint:
          noProviderHint(notQuoted, request) ??
          (maxPrice ? 'raise --max-price, or place a LIMIT order that waits (--type LIMIT)' : 'try another duration or amount, or again later'),
      });
    }
  }
  const costSun = preview.best ? optionCostSun(preview.best, amount) : undefined;
  if (costSun !== undefined) ctx.spending = { sun: costSun, currency: 'TRX' };
  if (opts.dryRun) {
    ctx.out.result(
      { dry_run: true, request: { ...request, target_address: to, order_type: orderType ?? ORDER_TYPES[0] }, ...preview, ...(tier ? { tier } : {}) },
      () => ctx.out.s.dim('Dry run: no order placed.'),
    );
    return;
  }
  const what = `${groupDigits(String(amount))} ${resourceName(resource)} for ${formatDuration(duration)} to ${to}`;
  await ctx.ask.confirm(
    `Rent ${what}${tier ? ` (charged at the ${formatDuration(tier.charged.duration_sec)} tier)` : ''}${costSun !== undefined ? ` for about ${sunAndTrx(costSun)}` : ''}?`,
    'place the order',
  );
  const idempotencyKey = givenKey ?? randomUUID();
  ctx.debug(`idempotency key ${idempotencyKey}`);
  const { data: created, response } = await (await client.get('orders'))
    .create(
      {
        resource_type: resource,
        amount,
        duration_sec: duration,
        target_address: to,
        ...(orderType ? { order_type: orderType } : {}),
        ...(maxPrice !== undefined ? { max_price_sun: maxPrice } : {}),
      },
      { idempotencyKey },
    )
    .withResponse();
  const replayed = response.status === 200;
  ctx.out.info(
    `${ctx.out.e.green('✓')} Order ${ctx.out.e.bold(created.id)} ${replayed ? 'already placed with this idempotency key' : 'placed'} (${created.status}); idempotency key ${idempotencyKey}`,
  );
  let order = created;
  if (opts.wait && created.status !== 'FILLED') {
    order = await waitForOrder(ctx, client, created.id, timeoutMs);
  } else if (opts.wait) {
    order = await (await client.get('orders')).get(created.id);
  }
  const { Order: OrderSchema } = await import('../../schemas/orders.js');
  ctx.out.result(
    order,
    () => {
      const s = ctx.out.s;
      let text = renderOrder(order, s);
      if (!opts.wait) text += `\n${s.dim(`Follow it with: trx-rent orders wait ${order.id}`)}\n`;
      return text;
    },
    outputSchema(OrderSchema),
  );
}

export default command;
