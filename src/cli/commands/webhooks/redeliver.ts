/**
 * `trx-rent webhooks redeliver <delivery-id>` (mock only): send a past delivery's event again,
 * as a new delivery, re-stamped and re-signed.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { mockControl } from './mock-control.js';

/** Add `webhooks redeliver` to `cmd`. */
export function registerWebhooksRedeliver(cmd: Command): void {
  cmd
    .command('redeliver')
    .description("mock only: send a past delivery's event again (a new delivery, re-stamped and re-signed)")
    .argument('<delivery-id>', 'delivery id (see `webhooks deliveries`)')
    .action(action<[string]>(runWebhooksRedeliver));
}

async function runWebhooksRedeliver(ctx: Context, { args: [id] }: { args: [string] }) {
  const result = (await mockControl(ctx, 'POST', `/__mock/webhooks/deliveries/${encodeURIComponent(id.trim())}/redeliver`)) as {
    delivery: { id: string; event: string; url: string };
  };
  ctx.out.result(
    result.delivery,
    () => `${ctx.out.s.green('✓')} Redelivering ${result.delivery.event} to ${result.delivery.url} (delivery ${result.delivery.id}).`,
  );
}
