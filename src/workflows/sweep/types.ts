/**
 * The public shapes of a sweep: its sources, options, plan, events and report. Types only.
 * @module
 */
import type { SignerInput } from '../../protocol/signer.js';
import type { SendTronWeb } from '../../tron/types.js';

/**
 * A deposit address and what signs for it: `{ privateKey }` (a `client.chain.deriveKeys` key is
 * one), or `{ signer }`: any signer (`{ privateKey }`, a TronWeb instance, or a `Signer` from
 * `trx-rent/signers`: `fromAwsKms`, `fromSignFunction`, `fromPrivateKey`), whose address is the
 * source. A `Signer` is checked against the source's account on the node (its permission and
 * weight) before anything is rented for it (PERMISSION_DENIED fails that source).
 */
export type SweepSource = { privateKey: string; address?: string | undefined } | { signer: SignerInput | SendTronWeb; address?: string | undefined };

/** Options of `client.transfers.sweep`. */
export interface SweepOptions {
  /** The treasury (base58) that receives every swept balance. */
  to: string;
  /** Sweep only sources holding at least this much (a decimal of the token). @default '0.000001' */
  min?: string | number | undefined;
  /** `'USDT'`, `'USDC'`, `'USDD'` or a TRC-20 contract. @default 'USDT' */
  token?: string | undefined;
  /** The wallet that activates never-activated sources (sends TRX; pays java-tron's account-creation fee). */
  funding?: SignerInput | undefined;
  /** The journal file; the same call resumes from it after a crash. @default in memory */
  journal?: string | undefined;
  /** Rental duration, seconds. @default 3600 */
  duration?: number | undefined;
  /** Sources in flight at once. @default 8 */
  concurrency?: number | undefined;
  /** Node reads in flight at once while planning. @default 8 */
  readConcurrency?: number | undefined;
  /** The most the run may spend (rental plus activation), SUN. @default the confirmed plan's cost plus `costMarginPct` */
  maxCostSun?: number | undefined;
  /** Margin over the confirmed cost when `maxCostSun` is not given, percent. @default 10 */
  costMarginPct?: number | undefined;
  /** How long each signed sweep stays valid, ms (from the chain's time). @default 300000 */
  expirationMs?: number | undefined;
  /** Names the sweep (its orders' Idempotency-Keys are `<key>:<address>`). @default from the sources' hash and the time it was planned, kept in the journal */
  key?: string | undefined;
  /** Shown the plan; false or a throw cancels before anything is spent. @default accept */
  confirm?: ((plan: SweepPlan) => boolean | Promise<boolean>) | undefined;
  /** Each step of the sweep, as it happens (progress displays, NDJSON in the CLI). */
  onEvent?: ((event: SweepEvent) => void) | undefined;
  signal?: AbortSignal | undefined;
}

/** One source in the plan. */
export type SweepPlanSource = {
  address: string;
  /** What it holds now (atomic, and as a decimal). */
  balance_atomic: string;
  balance: string;
  /** `sweep`: at least `min`; `below_min`: left alone. */
  action: 'sweep' | 'below_min';
  /** An account on chain now (else it is activated first: a TRC-20 receipt creates no account). */
  activated: boolean;
  /** Energy the sweep needs (simulated on the node) and what the source has. */
  energy: number;
  energy_available: number;
  bandwidth: number;
  bandwidth_available: number;
  /** The energy order for this source (one per source, at least the service's minimum), or null when it has enough. */
  order: { amount: number; price_sun: number; cost_sun: number } | null;
  /** What activating it costs at most (java-tron's account-creation fee and its bandwidth burn, plus the TRX sent). */
  activation_sun: number;
  /** Burning instead: its energy and bandwidth in TRX sent to it to burn. */
  burn_sun: number;
};

/** A sweep's plan: nothing spent. Money in SUN. */
export type SweepPlan = {
  key: string;
  to: string;
  token: { address: string; symbol: string | undefined; decimals: number };
  min: string;
  sources: number;
  to_sweep: number;
  below_min: number;
  to_activate: number;
  /** What the treasury receives. */
  total: string;
  total_atomic: string;
  fees: { energy_sun: number; bandwidth_sun: number; create_account_sun: number };
  duration_sec: number;
  /** One energy order per source: the spec's order has one target, so orders cannot be shared between sources. */
  orders: number;
  order_note: string;
  rent_cost_sun: number;
  activation_cost_sun: number;
  /** rent + activation: what the confirmation binds. */
  total_cost_sun: number;
  /** Burning TRX at each source instead (activation still needed): energy and bandwidth burnt plus activation. */
  burn_cost_sun: number;
  saving_sun: number;
  rows: SweepPlanSource[];
  /** On a resume: what the journal says was done (this plan covers what is left). */
  resume?: { swept: number; failed: number; spent_sun: number; budget_sun: number | undefined } | undefined;
};

/** What a sweep reports as it goes (NDJSON lines in the CLI's --json). */
export type SweepEvent =
  | { event: 'planned'; plan: SweepPlan }
  | { event: 'reading'; done: number; total: number }
  | { event: 'activation'; address: string; state: 'signed' | 'done' | 'failed'; tx_id?: string | undefined; fee_sun?: number | undefined }
  /** `waiting`: the price is above the order's confirmed share, or no provider is free; it waits for the market's next price poll. */
  | {
      event: 'order';
      address: string;
      state: 'placing' | 'waiting' | 'filled' | 'failed';
      amount: number;
      order_id?: string | undefined;
      cost_sun?: number | undefined;
      reason?: string | undefined;
    }
  | { event: 'delegated'; address: string; energy: number }
  | { event: 'signed'; address: string; tx_id: string }
  | { event: 'swept'; address: string; tx_id: string; amount: string }
  | { event: 'failed'; address: string; reason: string }
  | { event: 'progress'; swept: number; failed: number; total: number };

/** One source in the report. */
export type SweepReportRow = {
  address: string;
  status: 'swept' | 'failed' | 'pending' | 'below_min';
  /** What was (or is being) swept. */
  amount: string;
  amount_atomic: string;
  tx_id?: string | undefined;
  energy_used?: number | undefined;
  activation_tx_id?: string | undefined;
  activation_fee_sun: number;
  order_id?: string | undefined;
  order_cost_sun: number;
  /** TRX the sweep itself burnt (0 when the rental covered it). */
  fee_sun: number;
  cost_sun: number;
  reason?: string | undefined;
};

/** A sweep's report, from its journal. */
export type SweepReport = {
  key: string;
  to: string;
  token: string;
  complete: boolean;
  swept: number;
  failed: number;
  pending: number;
  total_swept: string;
  total_swept_atomic: string;
  orders: number;
  rent_cost_sun: number;
  activation_cost_sun: number;
  burned_sun: number;
  total_cost_sun: number;
  journal?: string | undefined;
  rows: SweepReportRow[];
};
