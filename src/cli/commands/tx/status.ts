/**
 * `trx-rent tx TXID`: what became of a transfer (`client.transfers.status`): confirmed or failed
 * (its receipt), expired (in no block, and the solidified block has passed its expiration: it
 * can never land, and a re-run of its `send` with the same key signs a new one), or pending.
 * The expiration comes from `--expiration` or the transfer kept under the config directory by
 * `send`; without one, a transaction in no block is only ever "pending".
 * @module
 */
import type { Command } from 'commander';
import type { TransferRecord, TransferStatus } from '../../../tron/identity.js';
import { type Context, action } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseInteger } from '../../parse.js';

interface TxOptions {
  node?: string;
  expiration?: string;
}

/** `tx TXID` itself: the status of a transfer (the subcommands are registered beside it). */
export function registerTxStatus(cmd: Command): void {
  cmd
    .usage('TXID [--node URL] [--expiration MS] | sign|approvals|broadcast FILE')
    .argument('<txid>', 'the transaction id (64 hex), e.g. from `send` or its error')
    .option('--node <url>', "TRON full node to read (env TRX_RENT_TRON_NODE; default TronGrid, the mock's own with --mock)")
    .option('--expiration <ms>', "the transaction's expiration (ms since the epoch; default: from the transfer `send` kept)")
    .addHelpText('after', '\nExamples:\n  trx-rent tx 7c1f…e9\n  trx-rent tx 7c1f…e9 --json')
    .action(action<[string], TxOptions>(runTx));
}

/** The record `send` kept for this tx id, if any: read from the transfers journal (never through a link; nothing is written). */
async function keptRecord(ctx: Context, txId: string): Promise<TransferRecord | undefined> {
  const { existsSync } = await import('node:fs');
  const { join } = await import('node:path');
  const path = join(await ctx.chain.transfersDir(), 'transfers.journal');
  if (!existsSync(path)) return undefined;
  const { openJournalFile } = await import('../../../store/file.js');
  const journal = await openJournalFile(path);
  try {
    let found: TransferRecord | undefined;
    for (const e of (await journal.read()) as Array<{ type?: string; record?: TransferRecord; key?: string; tx_id?: string }>) {
      if (e.type === 'record' && e.record?.tx_id === txId) found = e.record;
      else if (e.type === 'delete' && found && e.key === found.key && (e.tx_id === undefined || e.tx_id === txId)) found = undefined;
    }
    return found;
  } finally {
    await journal.close();
  }
}

function render(s: TransferStatus & { idempotency_key?: string }): string {
  const when = s.expiration ? ` (expiration ${new Date(s.expiration).toISOString()})` : '';
  switch (s.state) {
    case 'confirmed':
      return `confirmed  ${s.tx_id} in block ${s.block} (${s.result}): the transfer was sent\n`;
    case 'failed':
      return `failed     ${s.tx_id} in block ${s.block} (${s.result}): mined, but the tokens did not move\n`;
    case 'expired':
      return `expired    ${s.tx_id}${when}: in no block, and it can never land now: it was not sent\n`;
    default:
      return `pending    ${s.tx_id}${when}: in no block yet${s.expiration ? '' : ' (no expiration known: pass --expiration to learn whether it expired)'}${s.idempotency_key ? `; finish it with its send command and --idempotency-key ${s.idempotency_key}` : ''}\n`;
  }
}

async function runTx(ctx: Context, { args: [txid], opts }: { args: [string]; opts: TxOptions }) {
  const id = txid.replace(/^0x/i, '').toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(id)) throw new UsageError(`${txid} is not a transaction id (64 hex characters)`);
  const kept = opts.expiration === undefined ? await keptRecord(ctx, id) : undefined;
  const expiration = opts.expiration !== undefined ? parseInteger(opts.expiration, '--expiration') : kept?.expiration;
  const { transfers } = await ctx.chain.handles(opts.node);
  const status = await transfers.status(id, { expiration });
  const { receipt: _receipt, ...shown } = status;
  const out = { ...shown, ...(kept ? { idempotency_key: kept.key } : {}) };
  ctx.out.result(out, () => render(out));
}
