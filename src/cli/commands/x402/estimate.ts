/**
 * `trx-rent x402 estimate <operation>`: the energy, bandwidth and TRX cost of a transaction.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { ESTIMATE_OPERATIONS, orList } from '../../facts.js';
import { parseChoice } from '../../parse.js';
import { decimal } from './inputs.js';
import { type PaidOptions, paid, paidOptions } from './paid.js';

/** Add `x402 estimate` to `cmd`. */
export function registerX402Estimate(cmd: Command): void {
  paidOptions(
    cmd
      .command('estimate')
      .description('energy, bandwidth and TRX cost of a transaction')
      .argument('<operation>', orList(ESTIMATE_OPERATIONS))
      .option('--to <address>', 'recipient')
      .option('--amount <amount>', 'amount (token units)')
      .option('--contract <address>', 'token or contract'),
  ).action(action<[string], X402EstimateOptions>(runX402Estimate));
}

interface X402EstimateOptions extends PaidOptions {
  to?: string;
  amount?: string;
  contract?: string;
}

async function runX402Estimate(ctx: Context, { args: [operation], opts }: { args: [string]; opts: X402EstimateOptions }) {
  const op = parseChoice(operation, ESTIMATE_OPERATIONS, 'operation');
  await paid(ctx, opts, ({ client }) =>
    client.estimate({
      operation: op,
      ...(opts.to ? { to: opts.to } : {}),
      ...(opts.amount ? { amount: decimal(opts.amount, '--amount') } : {}),
      ...(opts.contract ? { contract: opts.contract } : {}),
    }),
  );
}
