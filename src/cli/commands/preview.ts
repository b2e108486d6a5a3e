import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { type Resource, checkMinimum, parseDuration, parseResource, parseSunPrice, parseUnits } from '../parse.js';
import { amountQuestion } from '../prompts.js';
import { noProviderHint, renderUnquoted, unquoted } from '../quotes.js';
import { renderTierNote, tierNote } from '../tiers.js';
import type { CommandModule } from '../types.js';
import { renderPreview } from '../views.js';

const command: CommandModule = {
  description: 'What an order would cost now: the best provider and the fallbacks. Places no order.',
  register(cmd: Command) {
    cmd
      .usage('<amount> [energy|bandwidth] [--duration 1h] [--max-price SUN]')
      .argument('[amount]', 'resource units, e.g. 65000 or 65k')
      .argument('[resource]', 'energy (default) or bandwidth')
      .option('-d, --duration <duration>', 'rental duration: 30m, 1h, 3d or seconds (default 1h)')
      .option('--max-price <sun>', 'exclude providers above this price per unit (SUN)')
      .action(action(runPreview));
  },
};

async function runPreview(
  ctx: Context,
  { args: [amountArg, resourceArg], opts }: { args: [string?, string?]; opts: { duration?: string; maxPrice?: string }; cmd: Command },
): Promise<number | void> {
  const input = await ctx.ask.inputs<{ resource: Resource; amount: number; duration: number }>({
    resource: {
      value: resourceArg ? parseResource(resourceArg) : undefined,
      label: '[resource]',
      default: 'ENERGY',
    },
    amount: {
      value: amountArg ? parseUnits(amountArg) : undefined,
      label: '<amount>',
      ask: (p, soFar) => p.input(amountQuestion(soFar.resource as Resource)).then((v) => parseUnits(v)),
    },
    duration: {
      value: opts.duration ? parseDuration(opts.duration) : undefined,
      label: '--duration',
      default: 3600,
    },
  });
  checkMinimum(input.resource, input.amount);
  const maxPrice = opts.maxPrice ? parseSunPrice(opts.maxPrice) : undefined;
  const client = await ctx.clients.client();
  const request = { resource: input.resource, amount: input.amount, duration_sec: input.duration, max_price_sun: maxPrice };
  const preview = await (await client.get('orders')).preview({
    resource: input.resource,
    amount: input.amount,
    duration: input.duration,
    ...(maxPrice !== undefined ? { max_price_sun: maxPrice } : {}),
  });
  // Providers that list a price but did not quote say why (a minimum order above the amount …).
  const notQuoted = await unquoted(ctx, request, preview);
  // Between two tiers: say which tier is charged, and what the shorter one would cost.
  const tier = await tierNote(ctx, request, preview);
  ctx.out.result({ request, ...preview, not_quoted: notQuoted, ...(tier ? { tier } : {}) }, () => {
    const hint = preview.no_providers ? noProviderHint(notQuoted, request) : undefined;
    return `${renderPreview(preview, request, ctx.out.s)}${tier ? renderTierNote(tier, ctx.out.s) : ''}${renderUnquoted(notQuoted, input.amount, ctx.out.s)}${hint ? `${ctx.out.s.dim(hint)}\n` : ''}`;
  });
}

export default command;
