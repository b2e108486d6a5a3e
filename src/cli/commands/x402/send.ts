/**
 * `trx-rent x402 send`: send USDT through the paid API, a transfer signed beforehand
 * (`--signed-tx-file`) or one signed here with the wallet's TRON key.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { UsageError } from '../../errors.js';
import { decimal, readFileOrStdin } from './inputs.js';
import { type PaidOptions, loadWallet, paid, paidOptions } from './paid.js';

/** Add `x402 send` to `cmd`. */
export function registerX402Send(cmd: Command): void {
  paidOptions(
    cmd
      .command('send')
      .description('send USDT: a transfer you signed (--signed-tx-file), or one signed here with the wallet’s TRON key')
      .requiredOption('--to <address>', 'recipient')
      .requiredOption('--amount <usdt>', 'USDT amount')
      .option('--signed-tx-file <path>', 'a signed transaction (JSON); "-" for stdin')
      .option('--memo <text>'),
  ).action(action<[], X402SendOptions>(runX402Send));
}

interface X402SendOptions extends PaidOptions {
  to: string;
  amount: string;
  signedTxFile?: string;
  memo?: string;
}

async function runX402Send(ctx: Context, { opts }: { opts: X402SendOptions }) {
  const amount = decimal(opts.amount, '--amount');
  let signedTx: string | undefined;
  if (opts.signedTxFile) signedTx = (await readFileOrStdin(ctx, opts.signedTxFile, 'signed transaction')).trim();
  await paid(ctx, opts, async ({ client, sdk }) => {
    if (!signedTx) {
      const wallet = await loadWallet(ctx, opts);
      if (!wallet.tron) throw new UsageError('signing a transfer needs a TRON key in the wallet');
      const node = await ctx.chain.tronNode(opts.fullNode ?? opts.tronNode);
      const signed = await sdk.signTrc20Transfer({
        privateKey: wallet.tron.value,
        to: opts.to,
        amount,
        fetch: ctx.fetch,
        ...(node.url ? { fullNode: node.url } : {}),
      });
      ctx.out.info(`signed transfer ${signed.txID} from ${signed.from}`);
      signedTx = signed.signed_tx;
    }
    return client.send({ to: opts.to, amount_usdt: amount, signed_tx: signedTx, ...(opts.memo ? { memo: opts.memo } : {}) });
  });
}
