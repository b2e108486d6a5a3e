/**
 * The sweep run: plan (or, on a resume, read the plan from the journal), have it confirmed, then
 * per source, a few at a time: activate it from the funding wallet if it is no account (the signed
 * activation journaled before it is broadcast, so a resume lands it rather than signing another),
 * rent its energy (one order, its Idempotency-Key and max_price_sun journaled before it is placed),
 * wait for the delegation on the node, and sweep the confirmed amount to the treasury with the
 * source's own signer through the one transfer protocol (`transferOnce`, the journal as its store:
 * signed once, stored before the broadcast, landed). The confirmation binds: every order carries
 * its share of the approved budget as max_price_sun, and a step that would take the spend past the
 * budget stops the run (SPENDING_CAP_EXCEEDED; a resume with a higher `maxCostSun` goes on).
 * @module
 */
import { TimeoutError, TrxRentError } from '../../errors/index.js';
import type { UncheckedSigners } from '../../tron/account-signers.js';
import { type TransferDeps, type TransferWho, transferOnce } from '../../tron/transfer.js';
import type { SendTronWeb } from '../../tron/types.js';
import { atomicToDecimal } from '../../utils/units.js';
import { eachLimit } from '../payouts/deps.js';
import type { SweepDeps } from './deps.js';
import { type SweepJournalEntry, type SweepLedger, openSweepJournal } from './journal.js';
import { planSweep, sweepKeyOf } from './plan.js';
import { type StepContext, activateSource, rentEnergy } from './steps.js';
import { buildSweepReport, planFromJournal } from './resume.js';
import type { SweepEvent, SweepOptions, SweepPlan, SweepReport, SweepSource } from './types.js';

/** Errors that stop the whole run (the budget, the journal, the account). */
const STOPS_THE_RUN = new Set([
  'SPENDING_CAP_EXCEEDED',
  'JOURNAL_CORRUPT',
  'JOURNAL_LOCKED',
  'CONFIGURATION_ERROR',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'INSUFFICIENT_BALANCE',
  'INSUFFICIENT_TRX',
  'SENDER_NOT_ACTIVATED',
]);
/** Errors final for one source: journaled as failed (anything else leaves it pending for a resume). */
const FAILS_THE_SOURCE = new Set(['ORDER_FAILED', 'TRANSFER_FAILED', 'TRANSFER_EXPIRED', 'SIMULATION_FAILED', 'PERMISSION_DENIED']);

/** A source's signer as given: a key or TronWeb instance, or a `Signer` (KMS, function) to check against its account on chain. */
type Resolved = import('../../protocol/signer.js').ResolvedSigner<SendTronWeb> | UncheckedSigners;

/** A sweep that can be planned, started, stopped and resumed (same sources, same journal). */
export class SweepRun {
  readonly #deps: SweepDeps;
  readonly #options: SweepOptions;
  readonly #stop = new AbortController();
  #signers = new Map<string, Resolved>();
  /** Each source's signer once checked (a `Signer`: against its account on the node). */
  #checked = new Map<string, TransferWho>();
  #addresses: string[] = [];
  #journal: SweepLedger | undefined;
  #plan: SweepPlan | undefined;

  constructor(deps: SweepDeps, sources: readonly SweepSource[], options: SweepOptions) {
    this.#deps = deps;
    this.#options = options;
    this.#sources = sources;
    options.signal?.addEventListener('abort', () => this.stop(), { once: true });
  }

  readonly #sources: readonly SweepSource[];

  #emit(event: SweepEvent): void {
    try {
      this.#options.onEvent?.(event);
    } catch {
      // a display's failure must not stop a sweep half-way
    }
  }

  async #resolveSources(): Promise<void> {
    if (this.#addresses.length) return;
    const { transferSigners } = await import('../../tron/account-signers.js');
    if (!Array.isArray(this.#sources) || this.#sources.length === 0)
      throw new TrxRentError({ code: 'VALIDATION_ERROR', message: 'sources: give at least one source', details: { field: 'sources' } });
    this.#sources.forEach((source, i) => {
      const given =
        source && typeof source === 'object' && 'signer' in source ? source.signer : { privateKey: (source as { privateKey?: string })?.privateKey ?? '' };
      let signer: Resolved;
      try {
        // A lone signer signs for its own address: the source is the signer's account.
        signer = transferSigners({ signer: given });
      } catch {
        throw new TrxRentError({
          code: 'VALIDATION_ERROR',
          message: `sources[${i}]: pass { privateKey } or { signer } (a Signer such as fromAwsKms or fromSignFunction, or a TronWeb instance) for each source`,
          details: { field: `sources[${i}]` },
        });
      }
      if (source.address !== undefined && source.address !== signer.from) {
        throw new TrxRentError({
          code: 'VALIDATION_ERROR',
          message: `sources[${i}]: its key signs for ${signer.from}, not ${source.address}`,
          details: { field: `sources[${i}].address` },
        });
      }
      this.#signers.set(signer.from, signer);
      this.#addresses.push(signer.from);
    });
  }

  /**
   * Read the sources and plan (spends nothing, writes nothing); on a resume (the journal has a
   * sweep), the journal's sources and amounts, with what is left to pay.
   */
  async plan(): Promise<SweepPlan> {
    if (this.#plan) return this.#plan;
    await this.#resolveSources();
    const o = this.#options;
    const journal = (this.#journal ??= await openSweepJournal(o.journal));
    const head = journal.index.head;
    if (head) {
      this.#plan = await this.#resumePlan(head);
    } else {
      this.#plan = await planSweep(this.#deps, this.#addresses, {
        to: o.to,
        min: o.min,
        token: o.token,
        duration: o.duration,
        readConcurrency: o.readConcurrency,
        key: o.key,
        signal: this.#stop.signal,
        onRead: (done) => {
          if (done % 50 === 0 || done === this.#addresses.length) this.#emit({ event: 'reading', done, total: this.#addresses.length });
        },
      });
    }
    this.#emit({ event: 'planned', plan: this.#plan });
    return this.#plan;
  }

  /** The plan of what the journal left to do. */
  #resumePlan(head: Extract<SweepJournalEntry, { type: 'sweep' }>): Promise<SweepPlan> {
    return planFromJournal(this.#deps, this.#journal!, head, this.#addresses, this.#options, this.#stop.signal);
  }

  /** Release the journal (after {@link plan} alone; {@link start} releases it when it ends). */
  async close(): Promise<void> {
    await this.#journal?.close();
    this.#journal = undefined;
    this.#plan = undefined;
  }

  /** Stop: nothing new is activated, ordered or signed; what is in flight stays in the journal. */
  stop(): void {
    this.#stop.abort(new TrxRentError({ code: 'CANCELLED', message: 'The sweep was stopped; resume goes on from the journal' }));
  }

  /** Run the sweep to the end (or until stopped); the journal says where a resume goes on. */
  async start(): Promise<SweepReport> {
    try {
      const plan = await this.plan();
      const journal = this.#journal!;
      const { clock } = this.#deps;
      const index = journal.index;
      if (this.#options.confirm && !(await this.#options.confirm(plan))) {
        throw new TrxRentError({
          code: 'CANCELLED',
          message: plan.resume ? 'Cancelled: nothing more was spent; the journal keeps what was done' : 'Cancelled before anything was spent',
        });
      }
      const margin = this.#options.costMarginPct ?? 10;
      const budget = this.#options.maxCostSun ?? index.approval?.budget_sun ?? Math.ceil((plan.total_cost_sun * (100 + margin)) / 100);
      if (index.spentSun + plan.total_cost_sun > budget) {
        throw new TrxRentError({
          code: 'SPENDING_CAP_EXCEEDED',
          message: `The sweep costs ${plan.total_cost_sun} SUN now${index.spentSun ? ` on top of ${index.spentSun} SUN spent` : ''}, above the cap of ${budget} SUN; nothing was spent`,
          details: { cost_sun: plan.total_cost_sun, spent_sun: index.spentSun, max_cost_sun: budget },
        });
      }
      if (plan.to_activate > 0 && this.#options.funding === undefined) {
        throw new TrxRentError({
          code: 'TARGET_NOT_ACTIVATED',
          message: `${plan.to_activate} source(s) are not activated on chain (a TRC-20 receipt creates no account), so they cannot receive energy or send; pass a funding wallet (funding / --funding-key-file) to activate them; nothing was spent`,
          details: {
            field: 'funding',
            addresses: plan.rows
              .filter((r) => r.action === 'sweep' && !r.activated)
              .slice(0, 10)
              .map((r) => r.address),
          },
        });
      }
      const writes: SweepJournalEntry[] = [];
      if (!index.head) {
        const { hash } = sweepKeyOf(plan.to, plan.token.address, this.#addresses, this.#options.key);
        // Each order's share of the budget, in proportion to its quote, fixed with the confirmation.
        const scale = plan.total_cost_sun > 0 ? budget / plan.total_cost_sun : 1;
        // Each source's line first, the sweep's head after them: a write a crash cut short (a large
        // write can end part-way when the process is killed) holds no head, so the resume plans
        // again rather than take the sources it lost for none.
        for (const r of plan.rows) {
          if (r.action !== 'sweep') {
            writes.push({ type: 'below_min', address: r.address, amount_atomic: r.balance_atomic });
            continue;
          }
          const maxPrice = r.order ? Math.max(1, Math.floor((r.order.cost_sun * scale) / r.order.amount)) : 0;
          writes.push({
            type: 'planned',
            address: r.address,
            amount_atomic: r.balance_atomic,
            energy: r.energy,
            order_amount: r.order?.amount ?? 0,
            max_price_sun: maxPrice,
            activate: !r.activated,
          });
        }
        writes.push({ type: 'sweep', key: plan.key, to: plan.to, token: plan.token.address, sources_hash: hash, sources: plan.sources, at: clock.now() });
      }
      writes.push({ type: 'approved', cost_sun: plan.total_cost_sun, budget_sun: budget, at: clock.now() }, { type: 'run', state: 'started', at: clock.now() });
      await journal.append(...writes);
      const open = [...index.planned.values()].filter((p) => !index.finals.has(p.address));
      const total = index.planned.size;
      const progress = () => this.#emit({ event: 'progress', swept: index.swept, failed: index.failed, total });
      progress();
      await eachLimit(
        open,
        this.#options.concurrency ?? 8,
        async (p) => {
          if (this.#stop.signal.aborted) return;
          try {
            await this.#source(p, plan, budget);
          } catch (error) {
            if (this.#stop.signal.aborted) return;
            if (error instanceof TimeoutError) {
              this.#emit({ event: 'failed', address: p.address, reason: `left pending: ${error.message}` });
              return;
            }
            const code = String((error as TrxRentError)?.code);
            // The budget and the wiring stop the run; one source's trouble stops only that source.
            if (STOPS_THE_RUN.has(code)) throw error;
            if (FAILS_THE_SOURCE.has(code)) {
              const reason = (error as Error).message;
              await journal.append({ type: 'failed', address: p.address, reason, at: clock.now() });
              this.#emit({ event: 'failed', address: p.address, reason });
              return;
            }
            // Unknown outcome (a node or network fault): left open; a resume goes on from the journal.
            this.#emit({ event: 'failed', address: p.address, reason: `left pending: ${(error as Error).message}` });
          } finally {
            progress();
          }
        },
        this.#stop.signal,
      );
      const report = await this.report();
      await journal.append({ type: 'run', state: report.complete ? 'finished' : 'stopped', at: clock.now() });
      return report;
    } finally {
      await this.#journal?.close();
      this.#journal = undefined;
      this.#plan = undefined;
    }
  }

  /** One source: activate, rent, wait for the delegation, sweep. */
  async #source(p: Extract<SweepJournalEntry, { type: 'planned' }>, plan: SweepPlan, budget: number): Promise<void> {
    const journal = this.#journal!;
    const index = journal.index;
    const { clock, node } = this.#deps;
    const signal = this.#stop.signal;
    const overBudget = (what: string, cost: number) =>
      new TrxRentError({
        code: 'SPENDING_CAP_EXCEEDED',
        message: `${what} (${cost} SUN) would take the sweep past its confirmed cost (${index.spentSun} SUN spent of ${budget} SUN); nothing more was spent. Resume with a higher maxCostSun (--max-cost) to go on`,
        details: { field: 'maxCostSun', spent_sun: index.spentSun, budget_sun: budget },
      });

    const ctx: StepContext = { deps: this.#deps, journal, plan, budget, signal, funding: this.#options.funding, emit: (e) => this.#emit(e), overBudget };
    await activateSource(ctx, p);
    const key = `${plan.key}:${p.address}`;
    // A Signer is checked against the account (now that it is one) before anything is rented for it.
    const signer = await this.#signerOf(p.address);
    // No delegation to wait for once its sweep is signed: that transfer may have used the energy.
    if ((await journal.get(key)) === undefined) await rentEnergy(ctx, p);

    // ---- the sweep: once, through the one transfer protocol ----
    const protocol: TransferDeps = {
      node,
      clock,
      store: journal,
      signer,
      broadcast: (signed) => this.#deps.transactions.broadcast({ signed_tx: signed as never }),
    };
    for (let turn = 0; turn < 5; turn++) {
      const outcome = await transferOnce(
        protocol,
        { key, from: p.address, to: plan.to, contract: plan.token.address, amount_atomic: p.amount_atomic },
        {
          fee: { energy: p.energy, energyFeeSun: plan.fees.energy_sun },
          expirationMs: this.#options.expirationMs ?? 300_000,
          deadline: clock.now() + 300_000,
          signal,
          onRefused: 'land',
          onEvent: (e) => {
            if (e.step === 'signed') this.#emit({ event: 'signed', address: p.address, tx_id: e.tx_id });
          },
        },
      );
      const { status, record } = outcome;
      if (status.state === 'expired') continue;
      const r = status.receipt?.receipt;
      if (status.state === 'confirmed') {
        const used = r?.energy_usage_total || (r?.energy_usage ?? 0) + (r?.origin_energy_usage ?? 0);
        await journal.append({
          type: 'swept',
          address: p.address,
          tx_id: record.tx_id,
          block: status.block ?? 0,
          energy_used: used,
          fee_sun: status.receipt?.fee ?? 0,
          at: clock.now(),
        });
        this.#emit({ event: 'swept', address: p.address, tx_id: record.tx_id, amount: atomicToDecimal(BigInt(p.amount_atomic), plan.token.decimals) });
      } else {
        const reason = `mined but failed: ${status.result ?? 'FAILED'}`;
        await journal.append({ type: 'failed', address: p.address, reason, tx_id: record.tx_id, at: clock.now() });
        this.#emit({ event: 'failed', address: p.address, reason });
      }
      return;
    }
    throw new TrxRentError({
      code: 'TRANSFER_EXPIRED',
      message: `The sweep of ${p.address} expired unconfirmed five times`,
      details: { transfer_sent: false, idempotency_key: key },
    });
  }

  /** The source's signer; a `Signer` checked against its account's permission on the node (PERMISSION_DENIED), once. */
  async #signerOf(address: string): Promise<TransferWho> {
    const known = this.#checked.get(address);
    if (known) return known;
    const { checkedSigners } = await import('../../tron/account-signers.js');
    const who = await checkedSigners(this.#deps.node, this.#signers.get(address)!, this.#stop.signal);
    this.#checked.set(address, who);
    return who;
  }

  /** The report from the journal. */
  async report(): Promise<SweepReport> {
    const journal = this.#journal;
    if (journal) await journal.sync();
    return buildSweepReport(journal!.index, this.#plan!, this.#options.journal);
  }
}
