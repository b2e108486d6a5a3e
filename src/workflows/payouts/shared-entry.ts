/**
 * `sharedPayoutJournal` for the package's entry point, loading the shared journal's modules (and
 * `pg`) only when called, so `import 'trx-rent'` stays light.
 * @module
 */
import type { SharedPayoutLedger } from './shared-journal.js';

/**
 * The payout journal `name` in the PostgreSQL store at `url`, shared by every worker that opens
 * it (pass it as `sendMany`'s `journal` in each): rows are claimed one worker at a time under a
 * lease (`leaseMs`, default 15 s) with a fencing token; the batch's rental is placed once.
 */
export async function sharedPayoutJournal(url: string, name: string, options: { leaseMs?: number | undefined } = {}): Promise<SharedPayoutLedger> {
  return (await import('./shared-journal.js')).sharedPayoutJournal(url, name, options);
}
