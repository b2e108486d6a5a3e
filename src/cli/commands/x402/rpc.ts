/**
 * `trx-rent x402 rpc <method> [body]`: one whitelisted TRON node call.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { RPC_METHODS } from '../../facts.js';
import { jsonArg } from './inputs.js';
import { type PaidOptions, paid, paidOptions } from './paid.js';

/** Add `x402 rpc` to `cmd`. */
export function registerX402Rpc(cmd: Command): void {
  paidOptions(
    cmd
      .command('rpc')
      .description('a whitelisted TRON node call, e.g. `rpc getnowblock` or `rpc getaccount \'{"address":"T…","visible":true}\'`')
      .argument('<method>', RPC_METHODS.map((m) => m.replace(/^wallet\//, '')).join(', '))
      .argument('[body]', 'JSON object', '{}'),
  ).action(action<[string, string], PaidOptions>(runX402Rpc));
}

async function runX402Rpc(ctx: Context, { args: [method, body], opts }: { args: [string, string]; opts: PaidOptions }) {
  const parsed = jsonArg(body, 'body');
  await paid(ctx, opts, ({ client }) => client.rpc(method, parsed));
}
