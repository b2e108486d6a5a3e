/**
 * `trx-rent x402 swap-execute <from> <to> <amount>`: execute a token swap, energy provided.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { UsageError } from '../../errors.js';
import { X402_LIMITS } from '../../facts.js';
import { decimal } from './inputs.js';
import { type PaidOptions, paid, paidOptions } from './paid.js';

/** Add `x402 swap-execute` to `cmd`. */
export function registerX402SwapExecute(cmd: Command): void {
  paidOptions(
    cmd
      .command('swap-execute')
      .description('execute a token swap (energy provided)')
      .argument('<from>', 'symbol or contract')
      .argument('<to>', 'symbol or contract')
      .argument('<amount>', 'amount of <from>')
      .option('--slippage <pct>', "accepted slippage, percent (default: the service's)"),
  ).action(action<[string, string, string], X402SwapExecuteOptions>(runX402SwapExecute));
}

interface X402SwapExecuteOptions extends PaidOptions {
  slippage?: string;
}

async function runX402SwapExecute(ctx: Context, { args: [from, to, amount], opts }: { args: [string, string, string]; opts: X402SwapExecuteOptions }) {
  const slippage = opts.slippage === undefined ? undefined : Number(opts.slippage);
  if (opts.slippage !== undefined && (!/^\d+(\.\d+)?$/.test(opts.slippage) || slippage! > X402_LIMITS.SWAP_SLIPPAGE_MAX_PCT)) {
    throw new UsageError(`--slippage must be a percentage between 0 and ${X402_LIMITS.SWAP_SLIPPAGE_MAX_PCT}`);
  }
  await paid(ctx, opts, ({ client }) =>
    client.swapExecute({ from_token: from, to_token: to, amount: decimal(amount, 'amount'), ...(slippage !== undefined ? { slippage_pct: slippage } : {}) }),
  );
}
