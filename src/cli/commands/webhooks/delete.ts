/**
 * `trx-rent webhooks delete [id]`: remove an endpoint, after a confirmation.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';

/** Add `webhooks delete` to `cmd`. */
export function registerWebhooksDelete(cmd: Command): void {
  cmd
    .command('delete')
    .description('remove an endpoint (asks to confirm unless --yes)')
    .argument('[id]', 'webhook id')
    .action(action<[string?]>(runWebhooksDelete));
}

async function runWebhooksDelete(ctx: Context, { args: [idArg] }: { args: [string?] }) {
  const { id } = await ctx.ask.inputs<{ id: string }>({
    id: {
      value: idArg?.trim() || undefined,
      label: '<id>',
      ask: async (p) => (await p.input({ message: 'Webhook id?', validate: (v: string) => (v.trim() ? true : 'required') })).trim(),
    },
  });
  await ctx.ask.confirm(`Delete webhook ${id}?`, 'delete the webhook');
  const client = await ctx.clients.client();
  const result = await (await client.get('webhooks')).delete(id);
  ctx.out.result({ id, ...result }, () => `${ctx.out.s.green('✓')} Webhook ${id} deleted.`);
}
