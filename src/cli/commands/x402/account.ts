/**
 * `trx-rent x402 account <address>`: an address's TRX balance, resources and TRC-20 balances.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { type PaidOptions, paid, paidOptions } from './paid.js';

/** Add `x402 account` to `cmd`. */
export function registerX402Account(cmd: Command): void {
  paidOptions(cmd.command('account').description('TRX balance, resources and TRC-20 balances of an address').argument('<address>', 'TRON address')).action(
    action<[string], PaidOptions>(runX402Account),
  );
}

async function runX402Account(ctx: Context, { args: [address], opts }: { args: [string]; opts: PaidOptions }) {
  await paid(ctx, opts, ({ client }) => client.account(address));
}
