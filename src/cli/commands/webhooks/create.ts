/**
 * `trx-rent webhooks create`: register an endpoint; the signing secret is shown this once.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { WEBHOOK_EVENTS as EVENTS } from '../../facts.js';
import { renderPairs } from '../../output.js';
import { type WebhookEventName, parseEvents } from './events.js';

/** Add `webhooks create` to `cmd`. */
export function registerWebhooksCreate(cmd: Command): void {
  cmd
    .command('create')
    .description('register an HTTPS endpoint; the signing secret appears only in this output')
    .option('--url <url>', 'https:// endpoint (http:// only on loopback, e.g. for the mock)')
    .option('--events <list>', `comma-separated, or "all": ${EVENTS.join(', ')}`)
    .action(action<[], WebhooksCreateOptions>(runWebhooksCreate));
}

interface WebhooksCreateOptions {
  url?: string;
  events?: string;
}

async function runWebhooksCreate(ctx: Context, { opts }: { opts: WebhooksCreateOptions }) {
  const input = await ctx.ask.inputs<{ url: string; events: WebhookEventName[] }>({
    url: {
      value: opts.url?.trim() || undefined,
      label: '--url URL',
      ask: async (p) =>
        (
          await p.input({
            message: 'Endpoint URL (https://…)?',
            validate: (v: string) => (/^https?:\/\/\S+$/.test(v.trim()) ? true : 'An http(s) URL is required'),
          })
        ).trim(),
    },
    events: {
      value: parseEvents(opts.events),
      label: '--events LIST',
      ask: (p) => p.checkbox({ message: 'Events?', choices: EVENTS.map((value) => ({ value, checked: true })), required: true }),
    },
  });
  const client = await ctx.clients.client();
  const webhook = await (await client.get('webhooks')).create({ url: input.url, events: input.events });
  ctx.out.warn('the signing secret below is shown only once: store it now');
  ctx.out.result(webhook, () =>
    renderPairs(
      [
        ['id', webhook.id],
        ['url', webhook.url],
        ['events', webhook.events.join(', ')],
        ['secret', ctx.out.s.bold(String(webhook.secret ?? '(not returned)'))],
      ],
      ctx.out.s,
    ),
  );
}
