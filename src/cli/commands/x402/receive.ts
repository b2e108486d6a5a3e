/**
 * `trx-rent x402 receive <amount>`: a one-time watch for an expected incoming payment.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { UsageError } from '../../errors.js';
import { X402_LIMITS } from '../../facts.js';
import { parseInteger } from '../../parse.js';
import { decimal } from './inputs.js';
import { type PaidOptions, paid, paidOptions } from './paid.js';

/** Add `x402 receive` to `cmd`. */
export function registerX402Receive(cmd: Command): void {
  paidOptions(
    cmd
      .command('receive')
      .description('a one-time watch for an expected payment')
      .argument('<amount>', 'expected amount (token units)')
      .option('--token <address>', 'token contract (default USDT)')
      .option('--tolerance <pct>', "accepted difference, percent (default: the service's)")
      .option('--timeout <seconds>', "how long to wait (default: the service's)")
      .option('--webhook-url <url>', 'notified when the payment arrives'),
  ).action(action<[string], X402ReceiveOptions>(runX402Receive));
}

interface X402ReceiveOptions extends PaidOptions {
  token?: string;
  tolerance?: string;
  timeout?: string;
  webhookUrl?: string;
}

async function runX402Receive(ctx: Context, { args: [amount], opts }: { args: [string]; opts: X402ReceiveOptions }) {
  const tolerance = opts.tolerance === undefined ? undefined : Number(opts.tolerance);
  if (opts.tolerance !== undefined && (!/^\d+(\.\d+)?$/.test(opts.tolerance) || tolerance! > X402_LIMITS.RECEIVE_TOLERANCE_MAX_PCT)) {
    throw new UsageError(`--tolerance must be a percentage between 0 and ${X402_LIMITS.RECEIVE_TOLERANCE_MAX_PCT}`);
  }
  await paid(ctx, opts, ({ client }) =>
    client.receive({
      expected_amount: decimal(amount, 'amount'),
      ...(opts.token ? { token_contract: opts.token } : {}),
      ...(tolerance !== undefined ? { tolerance_pct: tolerance } : {}),
      ...(opts.timeout !== undefined ? { timeout_seconds: parseInteger(opts.timeout, '--timeout', { min: 1 }) } : {}),
      ...(opts.webhookUrl ? { webhook_url: opts.webhookUrl } : {}),
    }),
  );
}
