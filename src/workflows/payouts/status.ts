/**
 * A batch's state against the chain without resuming it: the journal read as it is (no lock:
 * a running batch keeps running), and each row's transaction looked up on the node. Nothing is
 * ordered, signed or written.
 * @module
 */
import { transferStatus } from '../../tron/identity.js';
import type { TronNode } from '../../tron/node.js';
import type { Clock } from '../../utils/clock.js';
import { PayoutLedger } from './journal.js';
import { batchKeyOf } from './report.js';
import type { PayoutRow } from './rows.js';

/** One row's state: what the journal says and what the chain says. */
export interface RowStatus {
  id: string;
  to: string;
  amount: string;
  /** confirmed/failed (journaled final), pending (signed, outcome not journaled), unsent. */
  journal: 'confirmed' | 'failed' | 'pending' | 'unsent';
  tx_id?: string | undefined;
  /** The node's answer for the transaction: confirmed, failed, pending, expired (undefined when nothing was signed). */
  chain?: 'confirmed' | 'failed' | 'pending' | 'expired' | 'unknown' | undefined;
  block?: number | undefined;
}

/** The journal at `path` for the rows from `from`, each row's transaction read on the node. */
export async function batchStatus(
  deps: { node: TronNode; clock: Clock },
  from: string,
  rows: readonly PayoutRow[],
  path: string,
  options: { signal?: AbortSignal } = {},
): Promise<{ batch_key: string; rows: RowStatus[] }> {
  const { openJournalFile } = await import('../../store/file.js');
  const ledger = new PayoutLedger(await openJournalFile(path));
  try {
    await ledger.sync();
    const index = ledger.index;
    const key = index.batch?.key ?? batchKeyOf(from, rows).key;
    const out: RowStatus[] = [];
    for (const r of rows) {
      const final = index.finals.get(r.id);
      const record = index.records.get(`${key}:${r.id}`);
      const row: RowStatus = {
        id: r.id,
        to: r.to,
        amount: r.amount,
        journal: final ? final.type : record ? 'pending' : 'unsent',
        tx_id: final?.tx_id ?? record?.tx_id,
      };
      if (row.tx_id) {
        try {
          const status = await transferStatus(deps.node, row.tx_id, record?.expiration, { signal: options.signal, now: deps.clock.now() });
          row.chain = status.state;
          row.block = status.block;
        } catch {
          row.chain = 'unknown';
        }
      }
      out.push(row);
    }
    return { batch_key: key, rows: out };
  } finally {
    await ledger.close();
  }
}
