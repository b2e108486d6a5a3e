import type { Command } from 'commander';
import { type Context, action } from '../context.js';
import { renderPairs } from '../tables.js';
import { readSignedTx } from '../signed-tx.js';
import type { CommandModule } from '../types.js';

const command: CommandModule = {
  description:
    'Hand a signed TRON transaction to the service to broadcast (its broadcast endpoint, which needs a key with the ' +
    '`broadcast` permission; the spec does not show its shape, so this follows the natural design: the same ' +
    '`{ signed_tx }` as deposit submit in, `{ tx_id, status }` out). The transaction is checked and sent as is; ' +
    'broadcasting it again answers the same tx id. A refusal by the network is BROADCAST_FAILED (exit 1).',
  register(cmd: Command) {
    cmd
      .usage('[--file tx.json]')
      .option('-f, --file <path>', 'signed transaction JSON (tronweb output, bare or as { signed_tx }); "-" or omitted: stdin')
      .action(action<[], BroadcastOptions>(runBroadcast));
  },
};

interface BroadcastOptions {
  file?: string;
}

async function runBroadcast(ctx: Context, { opts }: { opts: BroadcastOptions }) {
  const signed_tx = await readSignedTx(ctx, opts.file, 'trx-rent broadcast');
  const transactions = await ctx.clients.api('transactions');
  const result = await transactions.broadcast({ signed_tx: signed_tx as never });
  ctx.out.result(result, () =>
    renderPairs(
      [
        ['tx', ctx.out.s.bold(result.tx_id)],
        ['status', result.status],
      ],
      ctx.out.s,
    ),
  );
}

export default command;
