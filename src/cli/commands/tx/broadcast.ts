/**
 * `trx-rent tx broadcast FILE`: send the transaction in FILE to the TRON node once its
 * signatures reach the permission's threshold. Short of it, nothing is sent (exit 1, the weight
 * missing named). The same bytes broadcast again are the same transaction: the node's duplicate
 * answer reports it as already broadcast, never as a second payment.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { CliError } from '../../errors.js';
import { approvalsOf, nodePost, readTxFile } from './file.js';

/** Add `tx broadcast` to `cmd`. */
export function registerTxBroadcast(cmd: Command): void {
  cmd
    .command('broadcast')
    .description('broadcast the transaction in FILE to the TRON node when its signatures reach the threshold')
    .argument('<file>', 'the transaction JSON, signed')
    .option(
      '--tron-node <url>',
      "TRON full node to send to (env TRX_RENT_TRON_NODE; default: the mock's own when the base URL is a reference mock, else TronGrid)",
    )
    .action(action<[string], { tronNode?: string }>(runTxBroadcast));
}

async function runTxBroadcast(ctx: Context, { args: [file], opts }: { args: [string]; opts: { tronNode?: string } }) {
  const tx = await readTxFile(file);
  const approvals = await approvalsOf(ctx, opts.tronNode, tx);
  if (!approvals.ready) {
    const error = new CliError(
      'PERMISSION_DENIED',
      `${approvals.tx_id} has weight ${approvals.current_weight} of ${approvals.threshold} for permission ${approvals.permission_id}: ${approvals.missing_weight} missing; nothing was broadcast`,
      {
        hint: `collect more signatures: trx-rent tx sign ${file} --key-file KEY`,
      },
    );
    error.details = {
      tx_id: approvals.tx_id,
      permission_id: approvals.permission_id,
      current_weight: approvals.current_weight,
      threshold: approvals.threshold,
      missing_weight: approvals.missing_weight,
    };
    throw error;
  }
  const answer = await nodePost(ctx, opts.tronNode, 'broadcasttransaction', tx);
  const code = typeof answer.code === 'string' ? answer.code : undefined;
  const message = typeof answer.message === 'string' ? Buffer.from(answer.message, 'hex').toString('utf8') : undefined;
  if (answer.result !== true && code !== 'DUP_TRANSACTION_ERROR') {
    const error = new CliError('BROADCAST_FAILED', `the node refused ${tx.txID}: ${code ?? 'ERROR'}${message ? ` (${message})` : ''}`);
    error.details = { tx_id: tx.txID, reason: code };
    throw error;
  }
  const out = {
    tx_id: tx.txID,
    broadcast: true,
    already: code === 'DUP_TRANSACTION_ERROR',
    current_weight: approvals.current_weight,
    threshold: approvals.threshold,
  };
  ctx.out.result(
    out,
    () =>
      `${ctx.out.s.green('✓')} ${out.already ? 'Already broadcast' : 'Broadcast'}: ${tx.txID} (weight ${approvals.current_weight} of ${approvals.threshold}).\n  Then: trx-rent tx ${tx.txID}\n`,
  );
}
