/**
 * `trx-rent x402 network`: the TRON chain's parameters (`--summary` for the short form).
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { type PaidOptions, paid, paidOptions } from './paid.js';

/** Add `x402 network` to `cmd`. */
export function registerX402Network(cmd: Command): void {
  paidOptions(cmd.command('network').description('TRON chain parameters').option('--summary', 'the short form')).action(
    action<[], X402NetworkOptions>(runX402Network),
  );
}

interface X402NetworkOptions extends PaidOptions {
  summary?: boolean;
}

async function runX402Network(ctx: Context, { opts }: { opts: X402NetworkOptions }) {
  await paid(ctx, opts, ({ client }) => client.network({ format: opts.summary ? 'summary' : 'full' }));
}
