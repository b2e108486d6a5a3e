/**
 * `trx-rent webhooks deliveries` (mock only): the recorded deliveries with their attempts.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { formatTime } from '../../format.js';
import { renderTable } from '../../output.js';
import { parseChoice } from '../../parse.js';
import { mockControl } from './mock-control.js';

/** Add `webhooks deliveries` to `cmd`. */
export function registerWebhooksDeliveries(cmd: Command): void {
  cmd
    .command('deliveries')
    .description('mock only: recorded deliveries with their attempts (newest last)')
    .option('--webhook <id>', 'only this webhook')
    .option('--status <status>', 'pending | delivered | failed | skipped')
    .action(action<[], WebhooksDeliveriesOptions>(runWebhooksDeliveries));
}

interface WebhooksDeliveriesOptions {
  webhook?: string;
  status?: string;
}

async function runWebhooksDeliveries(ctx: Context, { opts }: { opts: WebhooksDeliveriesOptions }) {
  const status = opts.status === undefined ? undefined : parseChoice(opts.status, ['pending', 'delivered', 'failed', 'skipped'] as const, '--status');
  const query = new URLSearchParams({ ...(opts.webhook ? { webhook_id: opts.webhook } : {}), ...(status ? { status } : {}) }).toString();
  const { deliveries } = (await mockControl(ctx, 'GET', `/__mock/webhooks/deliveries${query ? `?${query}` : ''}`)) as {
    deliveries: Array<{ id: string; webhook_id: string | null; event: string; status: string; attempts: unknown[]; created_at: string }>;
  };
  ctx.out.result(deliveries, () => {
    const s = ctx.out.s;
    if (!deliveries.length) return s.dim('No deliveries.');
    return renderTable(
      [
        { header: 'ID', truncate: 'middle', shrink: 0, min: 12 },
        { header: 'WEBHOOK', truncate: 'middle', shrink: 1, min: 10 },
        { header: 'EVENT', shrink: 2 },
        { header: 'STATUS', truncate: 'none' },
        { header: 'ATTEMPTS', truncate: 'none' },
        { header: 'CREATED', shrink: 2, min: 10 },
      ],
      deliveries.map((d) => [d.id, d.webhook_id ?? '-', d.event, d.status, String(d.attempts.length), formatTime(d.created_at)]),
      s,
    );
  });
}
