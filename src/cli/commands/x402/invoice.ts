/**
 * `trx-rent x402 invoice <amount>`: a USDT invoice whose payments the service detects.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { parseInteger } from '../../parse.js';
import { decimal } from './inputs.js';
import { type PaidOptions, paid, paidOptions } from './paid.js';

/** Add `x402 invoice` to `cmd`. */
export function registerX402Invoice(cmd: Command): void {
  paidOptions(
    cmd
      .command('invoice')
      .description('a USDT invoice whose payments are detected automatically')
      .argument('<amount>', 'USDT')
      .option('--description <text>')
      .option('--pay-to <address>', 'receiving address (default: a fresh one)')
      .option('--expires-in <seconds>', "lifetime in seconds (default: the service's)"),
  ).action(action<[string], X402InvoiceOptions>(runX402Invoice));
}

interface X402InvoiceOptions extends PaidOptions {
  description?: string;
  payTo?: string;
  expiresIn?: string;
}

async function runX402Invoice(ctx: Context, { args: [amount], opts }: { args: [string]; opts: X402InvoiceOptions }) {
  await paid(ctx, opts, ({ client }) =>
    client.invoice({
      amount_usdt: decimal(amount, 'amount'),
      ...(opts.description ? { description: opts.description } : {}),
      ...(opts.payTo ? { pay_to_address: opts.payTo } : {}),
      ...(opts.expiresIn !== undefined ? { expires_in_seconds: parseInteger(opts.expiresIn, '--expires-in', { min: 1 }) } : {}),
    }),
  );
}
