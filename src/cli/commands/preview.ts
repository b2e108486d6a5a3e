import type { Command } from 'commander';
import { action } from '../context.js';
import { type Resource, parseDuration, parseResource, parseSunPrice, parseUnits, validate } from '../parse.js';
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
      .action(
        action<[string?, string?], { duration?: string; maxPrice?: string }>(async (ctx, { args: [amountArg, resourceArg], opts }) => {
          const input = await ctx.inputs<{ resource: Resource; amount: number; duration: number }>({
            resource: {
              value: resourceArg ? parseResource(resourceArg) : undefined,
              label: '[resource]',
              default: 'ENERGY',
            },
            amount: {
              value: amountArg ? parseUnits(amountArg) : undefined,
              label: '<amount>',
              ask: (p) => p.input({ message: 'How many units?', default: '65000', validate: validate.units }).then((v) => parseUnits(v)),
            },
            duration: {
              value: opts.duration ? parseDuration(opts.duration) : undefined,
              label: '--duration',
              default: 3600,
            },
          });
          const maxPrice = opts.maxPrice ? parseSunPrice(opts.maxPrice) : undefined;
          const client = await ctx.client();
          const request = { resource: input.resource, amount: input.amount, duration_sec: input.duration, max_price_sun: maxPrice };
          const preview = await (await client.get('orders')).preview({
            resource: input.resource,
            amount: input.amount,
            duration: input.duration,
            ...(maxPrice !== undefined ? { max_price_sun: maxPrice } : {}),
          });
          ctx.out.result({ request, ...preview }, () => renderPreview(preview, request, ctx.out.s));
        }),
      );
  },
};

export default command;
