/**
 * The public shapes of a payout batch: options, events, the report.
 * @module
 */
import type { Signer, SignerInput } from '../../protocol/signer.js';
import type { TransferSigner } from '../../tron/engine.js';
import type { PayoutJournal } from './journal.js';
import type { PayoutPlan } from './plan.js';

/** Options of `client.transfers.sendMany` / `client.transfers.batch`. */
export interface SendManyOptions {
  /**
   * The key (64 hex, used in this process only) or TronWeb instance that signs every row; the
   * sender is its address. A `Signer` (a KMS key) signs for its own account, or with `from` and
   * `permissionId` for another's. Leave it out when `signers` sign.
   */
  signer?: TransferSigner | Signer | undefined;
  /**
   * The keys of a multi-signature account's permission that sign every row, in this process:
   * each row's one txID is signed by all of them, their weights reaching the permission's
   * threshold. Checked on the chain before anything is estimated or rented (PERMISSION_DENIED
   * names the permission and the weight missing). Needs `from`.
   */
  signers?: readonly SignerInput[] | undefined;
  /** The account the rows are paid from, when `signers` sign for it (base58). */
  from?: string | undefined;
  /** The account permission the signers sign under: 0 the owner, 2 and up an active one. @default the signers' own, else 0 */
  permissionId?: number | undefined;
  /** Token of rows that name none. @default 'USDT' */
  token?: string | undefined;
  /** Accept two rows paying the same amount of the same token to the same address. @default false */
  allowDuplicates?: boolean | undefined;
  /**
   * The batch's idempotency key: rows are keyed `<batch key>:<row id>`, orders `<batch key>:energy:<n>`.
   * @default 'pb-' + 16 hex of sha256(sender and rows): the same rows from the same sender resume the same batch
   */
  batchKey?: string | undefined;
  /** The journal: a path (a JSON-lines file, locked while running; never a symlink) or your own {@link PayoutJournal}. @default in memory (nothing survives the process) */
  journal?: string | PayoutJournal | undefined;
  /** Energy rented beyond the rows' estimates, in percent. @default 10 */
  marginPct?: number | undefined;
  /** Rental duration, seconds. @default 3600 */
  duration?: number | undefined;
  /** Rows signed and in flight at once. @default 8 */
  concurrency?: number | undefined;
  /** When energy runs short mid-batch, burn TRX for it instead of renting more (ensure). @default false */
  allowBurn?: boolean | undefined;
  /**
   * The most the batch's rental may cost, top-ups included, SUN: each order carries its share as
   * max_price_sun, a charge above it is SPENDING_CAP_EXCEEDED, and a top-up past it stops the run
   * (resume with a higher cap). @default the approved plan's rental (and deferred energy) plus `costMarginPct`
   */
  maxCostSun?: number | undefined;
  /** How far the rental may exceed the approved plan's cost before the run stops, percent. @default 10 */
  costMarginPct?: number | undefined;
  /** How long each signed transaction stays valid, from the chain's head block time, ms (at most 24 h). @default 600000 */
  expirationMs?: number | undefined;
  /** Give up waiting for one row's receipt after this long (the row stays pending; resume goes on). @default 300000 */
  rowTimeoutMs?: number | undefined;
  /** Re-broadcast a pending row's same bytes this often. @default 10000 */
  rebroadcastEveryMs?: number | undefined;
  /**
   * Called with the plan before anything is spent, and on every resume with the plan of what is
   * left (`plan.resume` says what was done); false (or a throw) stops: CANCELLED, nothing
   * ordered, sent or written.
   */
  confirm?: ((plan: PayoutPlan) => boolean | Promise<boolean>) | undefined;
  /**
   * Asked when a top-up would take the rental past the budget (the confirmed cost and its
   * margin, or `maxCostSun`): what it costs and the budget it needs. True raises the budget to
   * `new_budget_sun` (journaled as a new approval) and goes on; false, a throw or no callback
   * stops the run with SPENDING_CAP_EXCEEDED. Nothing is ordered or written before the answer.
   * Not asked when `maxCostSun` is set: that cap is a hard one.
   */
  confirmOverrun?: ((question: OverrunQuestion) => boolean | Promise<boolean>) | undefined;
  /** Each step, for progress output (NDJSON in the CLI). */
  onEvent?: ((event: PayoutEvent) => void) | undefined;
  /** Stops the run: nothing new is signed or ordered; what is journaled stays resumable. */
  signal?: AbortSignal | undefined;
}

/** What {@link SendManyOptions.confirmOverrun} is asked: a top-up the budget cannot pay for. */
export interface OverrunQuestion {
  /** The energy the top-up rents. */
  energy: number;
  /** What it costs now, SUN. */
  cost_sun: number;
  /** What the batch's orders cost so far, SUN. */
  spent_sun: number;
  /** The budget confirmed so far, SUN. */
  budget_sun: number;
  /** The budget the top-up needs: spent plus its cost plus the batch's margin, SUN. */
  new_budget_sun: number;
}

/** What a run reports as it goes. */
export type PayoutEvent =
  | { event: 'planned'; plan: PayoutPlan }
  | { event: 'estimated'; done: number; total: number }
  | {
      event: 'order';
      state: 'placing' | 'filled' | 'failed';
      key: string;
      resource: 'ENERGY' | 'BANDWIDTH';
      amount: number;
      order_id?: string | undefined;
      cost_sun?: number | undefined;
    }
  | { event: 'delegated'; energy: number; bandwidth: number }
  | { event: 'signed'; id: string; tx_id: string; expiration: number }
  | { event: 'broadcast'; id: string; tx_id: string; again: boolean }
  | { event: 'confirmed'; id: string; tx_id: string; block: number }
  | { event: 'failed'; id: string; reason: string; tx_id?: string | undefined }
  | { event: 'expired'; id: string; tx_id: string }
  | { event: 'progress'; confirmed: number; failed: number; pending: number; total: number }
  /** A row's broadcast met a fault (429, 5xx, no answer): the row waits; the same bytes go again within `retry_in_ms`. */
  | { event: 'waiting'; id: string; tx_id: string; host: string; status: number | null; code: string; retry_in_ms: number }
  | { event: 'stopped'; pending: number }
  | { event: 'done'; report: PayoutReport };

/** One row of the report. */
export type PayoutReportRow = {
  id: string;
  to: string;
  amount: string;
  token: string;
  /** confirmed and failed are final; pending: signed and maybe sent, outcome not yet known; unsent: nothing signed. */
  status: 'confirmed' | 'failed' | 'pending' | 'unsent';
  tx_id?: string | undefined;
  block?: number | undefined;
  energy_used?: number | undefined;
  /** Its share of the rental (energy used x the rental's price per unit) plus what it burnt, SUN. */
  cost_sun?: number | undefined;
  reason?: string | undefined;
};

/** What a run did (also after a stop: `complete` false, the pending rows resume). */
export type PayoutReport = {
  batch_key: string;
  from: string;
  /** The journal's path, for a file journal. */
  journal?: string | undefined;
  journal_bytes: number;
  complete: boolean;
  rows: PayoutReportRow[];
  confirmed: number;
  failed: number;
  pending: number;
  orders: Array<{ key: string; order_id?: string | undefined; resource: 'ENERGY' | 'BANDWIDTH'; amount: number; cost_sun?: number | undefined; state: string }>;
  energy: { rented: number; used: number };
  rent_cost_sun: number;
  burned_sun: number;
  total_cost_sun: number;
  /** What burning TRX for all the energy used would have cost, plus the bandwidth burnt. */
  burn_cost_sun: number;
  saving_sun: number;
};
