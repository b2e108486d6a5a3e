/**
 * `trx-rent webhooks trigger [event]` (mock only): fire an event, with sample data of its real
 * shape or `--data`, at the webhooks subscribed to it, like `stripe trigger`.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { UsageError } from '../../errors.js';
import { WEBHOOK_EVENTS as EVENTS } from '../../facts.js';
import { parseChoice } from '../../parse.js';
import type { WebhookEventName } from './events.js';
import { mockControl } from './mock-control.js';

/** Add `webhooks trigger` to `cmd`. */
export function registerWebhooksTrigger(cmd: Command): void {
  cmd
    .command('trigger')
    .description('mock only: fire EVENT (sample data of its real shape) at the webhooks subscribed to it, like `stripe trigger`')
    .argument('[event]', EVENTS.join(' | '))
    .option('--data <json>', "the event's data object instead of the sample")
    .addHelpText(
      'after',
      '\nExample: trx-rent webhooks listen --register --forward-to http://localhost:3000/webhooks, then in another terminal: trx-rent webhooks trigger order.filled',
    )
    .action(action<[string?], WebhooksTriggerOptions>(runWebhooksTrigger));
}

interface WebhooksTriggerOptions {
  data?: string;
}

async function runWebhooksTrigger(ctx: Context, { args: [eventArg], opts }: { args: [string?]; opts: WebhooksTriggerOptions }) {
  const { event } = await ctx.ask.inputs<{ event: WebhookEventName }>({
    event: {
      value: eventArg === undefined ? undefined : parseChoice(eventArg.trim(), EVENTS, '<event>'),
      label: '<event>',
      ask: (p) => p.select({ message: 'Event?', choices: EVENTS.map((value) => ({ value })) }),
    },
  });
  let data: unknown;
  if (opts.data !== undefined) {
    try {
      data = JSON.parse(opts.data);
    } catch (error) {
      throw new UsageError(`--data is not JSON: ${(error as Error).message}`);
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw new UsageError('--data must be a JSON object');
  }
  const result = (await mockControl(ctx, 'POST', '/__mock/webhooks/trigger', { event, ...(data ? { data } : {}) })) as {
    deliveries: Array<{ id: string; url: string; status: string; webhook_id: string | null }>;
  };
  ctx.out.result(result, () => {
    const s = ctx.out.s;
    if (!result.deliveries.length)
      return `${s.yellow('!')} No webhook of this account subscribes to ${event}: nothing sent (register one: trx-rent webhooks listen --register).`;
    return result.deliveries
      .map((d) => `${d.status === 'skipped' ? s.yellow('skipped') : s.green('✓ sent')} ${event} to ${d.url} (webhook ${d.webhook_id}, delivery ${d.id})`)
      .join('\n');
  });
}
