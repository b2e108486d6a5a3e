/**
 * Sweeps: collect a TRC-20 token (USDT) from many deposit addresses into a treasury, with the
 * energy rented for each source and never-activated sources activated once; journaled, so a crash
 * at any point resumes without sweeping or activating anything twice. Reached from
 * `client.transfers.sweep` (lazily), the CLI's `trx-rent sweep` and the MCP `sweep` tools.
 * @module
 */
import type { SweepDeps } from './deps.js';
import { SweepRun } from './run.js';
import type { SweepOptions, SweepReport, SweepSource } from './types.js';

export { SweepRun } from './run.js';
export type { SweepDeps } from './deps.js';
export { type SweepJournalEntry, SweepIndex, SweepLedger, openSweepJournal } from './journal.js';
export { planSweep, sweepKeyOf } from './plan.js';
export type { SweepEvent, SweepOptions, SweepPlan, SweepPlanSource, SweepReport, SweepReportRow, SweepSource } from './types.js';

/** Sweep every source (see {@link SweepRun}); resolves with the report when each source is final, pending or the run was stopped. */
export function sweep(deps: SweepDeps, sources: readonly SweepSource[], options: SweepOptions): Promise<SweepReport> {
  return new SweepRun(deps, sources, options).start();
}
