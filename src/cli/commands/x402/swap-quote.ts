/**
 * `trx-rent x402 swap-quote <from> <to> <amount>`: a DEX quote for a token swap.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { decimal } from './inputs.js';
import { type PaidOptions, paid, paidOptions } from './paid.js';

/** Add `x402 swap-quote` to `cmd`. */
export function registerX402SwapQuote(cmd: Command): void {
  paidOptions(
    cmd
      .command('swap-quote')
      .description('DEX quote for a token swap')
      .argument('<from>', 'symbol or contract')
      .argument('<to>', 'symbol or contract')
      .argument('<amount>', 'amount of <from>'),
  ).action(action<[string, string, string], PaidOptions>(runX402SwapQuote));
}

async function runX402SwapQuote(ctx: Context, { args: [from, to, amount], opts }: { args: [string, string, string]; opts: PaidOptions }) {
  await paid(ctx, opts, ({ client }) => client.swapQuote({ from, to, amount: decimal(amount, 'amount') }));
}
