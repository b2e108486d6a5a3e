/**
 * `trx-rent webhooks list`: the registered endpoints (secrets are never listed).
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { formatTime } from '../../format.js';
import { outputSchema, renderTable } from '../../output.js';

/** Add `webhooks list` to `cmd`. */
export function registerWebhooksList(cmd: Command): void {
  cmd.command('list').description('registered endpoints (secrets are never listed)').action(action(runWebhooksList));
}

async function runWebhooksList(ctx: Context) {
  const client = await ctx.clients.client();
  const list = await (await client.get('webhooks')).list();
  const { Webhook } = await import('../../../schemas/webhooks.js');
  ctx.out.result(
    list,
    () => {
      const s = ctx.out.s;
      if (!list.length) return s.dim('No webhooks.');
      return renderTable(
        [
          { header: 'ID', truncate: 'middle', shrink: 0, min: 13 },
          { header: 'URL', truncate: 'middle', shrink: 2, min: 20 },
          { header: 'EVENTS', shrink: 3 },
          { header: 'ACTIVE', truncate: 'none' },
          { header: 'CREATED', shrink: 2, min: 10 },
        ],
        list.map((w) => [w.id, w.url, w.events.join(','), w.is_active ? s.green('yes') : s.red('no'), formatTime(w.created_at)]),
        s,
      );
    },
    outputSchema(Webhook),
  );
}
