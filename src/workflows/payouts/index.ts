/**
 * Payouts: many TRC-20 transfers from one sender with one rental, journaled so that a crash at
 * any point resumes without paying any row twice. Reached from `client.transfers.sendMany` /
 * `client.transfers.batch` (lazily), the CLI's `send usdt --batch` and the MCP `send_batch` tools.
 * @module
 */
import type { PayoutDeps } from './deps.js';
import { PayoutRun } from './runner.js';
import type { Payout } from './rows.js';
import type { PayoutReport, SendManyOptions } from './types.js';

export { PayoutRun } from './runner.js';
export type { PayoutDeps } from './deps.js';
export {
  type JournalEntry,
  type PayoutJournalEntry,
  type PayoutJournal,
  type BatchService,
  PayoutLedger,
  PayoutIndex,
  MemoryJournal,
  memoryJournal,
  openPayoutJournal,
} from './journal.js';
export { type Payout, type PayoutRow, type RowProblem, type CheckOptions, checkPayouts, parsePayouts } from './rows.js';
export type { PayoutPlan, PlannedOrder, RowEstimate } from './plan.js';
export { batchKeyOf } from './report.js';
export { type RowStatus, batchStatus } from './status.js';
export type { OverrunQuestion, PayoutEvent, PayoutReport, PayoutReportRow, SendManyOptions } from './types.js';

/** Send every payout (see {@link PayoutRun}); resolves with the report when every row is final, pending or the run was stopped. */
export function sendMany(deps: PayoutDeps, payouts: readonly Payout[], options: SendManyOptions): Promise<PayoutReport> {
  return new PayoutRun(deps, payouts, options).start();
}
