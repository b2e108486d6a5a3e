/**
 * `trx-rent x402 send-batch`: several signed transfers in one paid call, read as a JSON array
 * from a file or stdin.
 * @module
 */
import type { Command } from 'commander';
import { type Context, action } from '../../context.js';
import { UsageError } from '../../errors.js';
import { X402_LIMITS } from '../../facts.js';
import { readFileOrStdin } from './inputs.js';
import { type PaidOptions, paid, paidOptions } from './paid.js';

/** Add `x402 send-batch` to `cmd`. */
export function registerX402SendBatch(cmd: Command): void {
  paidOptions(
    cmd
      .command('send-batch')
      .description(`signed transfers in one call (up to ${X402_LIMITS.MAX_BATCH_TRANSFERS}): a JSON array of {to, amount, signed_tx}`)
      .option('-f, --file <path>', 'the JSON array; "-" or omitted: stdin'),
  ).action(action<[], X402SendBatchOptions>(runX402SendBatch));
}

interface X402SendBatchOptions extends PaidOptions {
  file?: string;
}

async function runX402SendBatch(ctx: Context, { opts }: { opts: X402SendBatchOptions }) {
  const text = await readFileOrStdin(ctx, opts.file, 'transfers');
  let transfers: unknown;
  try {
    transfers = JSON.parse(text);
  } catch {
    throw new UsageError('the transfers are not JSON', 'pass a JSON array of {to, amount, signed_tx}');
  }
  const list = Array.isArray(transfers) ? transfers : (transfers as { transfers?: unknown })?.transfers;
  if (!Array.isArray(list)) throw new UsageError('expected a JSON array of {to, amount, signed_tx}');
  await paid(ctx, opts, ({ client }) => client.sendBatch(list as never));
}
