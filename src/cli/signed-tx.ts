/** Reading a signed TRON transaction for the commands that hand one to the service (deposit submit, broadcast). */
import { readFileSync } from 'node:fs';
import type { Context } from './context.js';
import { UsageError } from './errors.js';

/**
 * A signed transaction from `file` (or stdin when it is '-' or absent): the object tronweb's
 * `trx.sign()` returns, bare or as `{ signed_tx }`. `command` names the command in the hints.
 */
export async function readSignedTx(ctx: Context, file: string | undefined, command: string): Promise<unknown> {
  let text: string;
  if (file && file !== '-') {
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  } else {
    if (ctx.stdin.isTTY) throw new UsageError('no signed transaction', `pass --file tx.json or pipe it: ${command} < tx.json`, 'MISSING_ARGUMENT');
    text = await ctx.readStdin();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError('the signed transaction is not JSON', 'pass the object tronweb returns from trx.sign()', 'VALIDATION_ERROR');
  }
  return parsed && typeof parsed === 'object' && 'signed_tx' in parsed ? (parsed as { signed_tx: unknown }).signed_tx : parsed;
}
