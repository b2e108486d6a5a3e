/**
 * `trx-rent webhooks reactivate <id>` (mock only): turn a webhook deactivated after failed
 * deliveries back on.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { mockControl } from './mock-control.js';

/** Add `webhooks reactivate` to `cmd`. */
export function registerWebhooksReactivate(cmd: Command): void {
  cmd
    .command('reactivate')
    .description('mock only: turn a webhook deactivated after failed deliveries back on')
    .argument('<id>', 'webhook id')
    .action(action<[string]>(runWebhooksReactivate));
}

async function runWebhooksReactivate(ctx: Context, { args: [id] }: { args: [string] }) {
  const result = (await mockControl(ctx, 'POST', `/__mock/webhooks/${encodeURIComponent(id.trim())}/reactivate`)) as {
    webhook: { id: string; is_active: boolean };
  };
  ctx.out.result(result.webhook, () => `${ctx.out.s.green('✓')} Webhook ${result.webhook.id} is active again.`);
}
