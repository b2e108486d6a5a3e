/**
 * `trx-rent tx approvals FILE`: who has signed the transaction in FILE, their weight, the
 * permission's threshold and the weight still missing, as the TRON node weighs them
 * (`/wallet/getsignweight`). Read only.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { renderPairs } from '../../tables.js';
import { type Approvals, approvalsOf, readTxFile } from './file.js';

/** Add `tx approvals` to `cmd`. */
export function registerTxApprovals(cmd: Command): void {
  cmd
    .command('approvals')
    .description("who has signed the transaction in FILE and the weight still missing (the node's getsignweight); read only")
    .argument('<file>', 'the transaction JSON')
    .option('--tron-node <url>', "TRON full node to ask (env TRX_RENT_TRON_NODE; default: the mock's own when the base URL is a reference mock, else TronGrid)")
    .action(action<[string], { tronNode?: string }>(runTxApprovals));
}

/** The approvals as lines for people. */
export function renderApprovals(ctx: Context, a: Approvals): string {
  const left = a.expiration === undefined ? '' : ` (expires ${new Date(a.expiration).toISOString()})`;
  return `${renderPairs(
    [
      ['tx', ctx.out.s.bold(a.tx_id)],
      ['permission', `${a.permission_id}${a.permission_name ? ` "${a.permission_name}"` : ''}, threshold ${a.threshold}`],
      ['approved', a.approved.length ? a.approved.map((x) => `${x.address} (${x.weight})`).join(', ') : 'nobody yet'],
      ['weight', `${a.current_weight} of ${a.threshold}${a.missing_weight ? `: ${a.missing_weight} missing` : ''}`],
      ['ready', a.ready ? `yes: trx-rent tx broadcast FILE` : `no${left}`],
    ],
    ctx.out.s,
  )}`;
}

async function runTxApprovals(ctx: Context, { args: [file], opts }: { args: [string]; opts: { tronNode?: string } }) {
  const approvals = await approvalsOf(ctx, opts.tronNode, await readTxFile(file));
  ctx.out.result(approvals, () => renderApprovals(ctx, approvals));
}
