/**
 * `trx-rent x402 watch <address>`: a webhook on each incoming TRC-20 transfer to an address.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { WATCH_EVENT_TYPES, X402_LIMITS } from '../../facts.js';
import { decimal } from './inputs.js';
import { type PaidOptions, paid, paidOptions } from './paid.js';

/** Add `x402 watch` to `cmd`. */
export function registerX402Watch(cmd: Command): void {
  paidOptions(
    cmd
      .command('watch')
      .description(`a webhook on each incoming TRC-20 transfer to an address, for ${X402_LIMITS.WATCH_DURATION_MS / 3_600_000} hours`)
      .argument('<address>', 'TRON address to watch')
      .requiredOption('--webhook-url <url>', 'where events are POSTed')
      .option('--events <list>', `${WATCH_EVENT_TYPES.join(', ')} (comma separated)`)
      .option('--token <address>', 'only this token contract')
      .option('--min-amount <amount>', 'ignore smaller transfers'),
  ).action(action<[string], X402WatchOptions>(runX402Watch));
}

interface X402WatchOptions extends PaidOptions {
  webhookUrl: string;
  events?: string;
  token?: string;
  minAmount?: string;
}

async function runX402Watch(ctx: Context, { args: [address], opts }: { args: [string]; opts: X402WatchOptions }) {
  await paid(ctx, opts, ({ client }) =>
    client.watch({
      address,
      webhook_url: opts.webhookUrl,
      ...(opts.events ? { event_types: opts.events.split(',').map((e) => e.trim()) as never } : {}),
      ...(opts.token ? { token_contract: opts.token } : {}),
      ...(opts.minAmount ? { min_amount: decimal(opts.minAmount, '--min-amount') } : {}),
    }),
  );
}
