/**
 * The batch key and the report, both derived: the key from the sender and the rows (the same
 * rows resume the same batch), the report from the journal alone (so a crashed run's report is
 * the same as a finished one's up to where it got).
 * @module
 */
import { ValidationError } from '../../errors/index.js';
import { sha256 } from '../../utils/base58check.js';
import type { PayoutIndex } from './journal.js';
import type { PayoutRow } from './rows.js';
import type { PayoutReport, PayoutReportRow } from './types.js';

const KEY = /^[A-Za-z0-9._-]{1,40}$/;

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/** The batch's key (given, or `pb-` + 16 hex of the rows' hash) and the rows' hash. */
export function batchKeyOf(from: string, rows: readonly PayoutRow[], given?: string): { key: string; hash: string } {
  const canonical = JSON.stringify([from, rows.map((r) => [r.id, r.to, r.contract, r.amount_atomic])]);
  const hash = hex(sha256(new TextEncoder().encode(canonical)));
  if (given !== undefined && !KEY.test(given)) {
    throw new ValidationError({ code: 'VALIDATION_ERROR', message: "batchKey: 1 to 40 letters, digits, '.', '_' or '-'", details: { field: 'batchKey' } });
  }
  return { key: given ?? `pb-${hash.slice(0, 16)}`, hash };
}

/** What the journal says of each row and of the rental (from its index: one lookup per row). */
export function buildReport(
  key: string,
  from: string,
  rows: readonly PayoutRow[],
  index: PayoutIndex,
  journalBytes: number,
  fees: { energy_sun: number; bandwidth_sun: number },
  journalPath?: string,
): PayoutReport {
  const final = index.finals;
  const orders = index.orders;
  const filled = [...orders.values()].filter((o) => o.state === 'filled');
  const rented = filled.filter((o) => o.resource === 'ENERGY').reduce((s, o) => s + o.amount, 0);
  const rentCost = filled.reduce((s, o) => s + (o.cost_sun ?? 0), 0);
  const energyRentCost = filled.filter((o) => o.resource === 'ENERGY').reduce((s, o) => s + (o.cost_sun ?? 0), 0);
  let used = 0;
  let burned = 0;
  let bandwidthBytes = 0;
  const out: PayoutReportRow[] = rows.map((r) => {
    const base = { id: r.id, to: r.to, amount: r.amount, token: r.symbol };
    const f = final.get(r.id);
    if (f?.type === 'confirmed') {
      used += f.energy_used;
      burned += f.fee_sun;
      bandwidthBytes += index.estimates.get(r.id)?.bandwidth ?? 0;
      const share = rented ? Math.round((f.energy_used * energyRentCost) / rented) : 0;
      return { ...base, status: 'confirmed', tx_id: f.tx_id, block: f.block, energy_used: f.energy_used, cost_sun: share + f.fee_sun };
    }
    if (f?.type === 'failed') return { ...base, status: 'failed', tx_id: f.tx_id, reason: f.reason };
    const tx = index.records.get(`${key}:${r.id}`)?.tx_id;
    return tx ? { ...base, status: 'pending', tx_id: tx } : { ...base, status: 'unsent' };
  });
  const confirmed = out.filter((r) => r.status === 'confirmed').length;
  const failed = out.filter((r) => r.status === 'failed').length;
  const burnCost = used * fees.energy_sun + bandwidthBytes * fees.bandwidth_sun;
  return {
    batch_key: key,
    from,
    ...(journalPath ? { journal: journalPath } : {}),
    journal_bytes: journalBytes,
    complete: confirmed + failed === rows.length,
    rows: out,
    confirmed,
    failed,
    pending: out.filter((r) => r.status === 'pending').length,
    orders: [...orders.values()].map((o) => ({
      key: o.key,
      order_id: o.order_id,
      resource: o.resource,
      amount: o.amount,
      cost_sun: o.cost_sun,
      state: o.state,
    })),
    energy: { rented, used },
    rent_cost_sun: rentCost,
    burned_sun: burned,
    total_cost_sun: rentCost + burned,
    burn_cost_sun: burnCost,
    saving_sun: burnCost - rentCost - burned,
  };
}
