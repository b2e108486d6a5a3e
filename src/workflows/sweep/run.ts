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
import { transferStatus } from '../../tron/identity.js';
import { type TransferDeps, transferOnce } from '../../tron/transfer.js';
import type { TransferSigner } from '../../tron/types.js';
import { pollUntil } from '../../utils/clock.js';
import { atomicToDecimal } from '../../utils/units.js';
import { eachLimit } from '../payouts/deps.js';
import type { SweepDeps } from './deps.js';
import { type SweepJournalEntry, type SweepLedger, openSweepJournal } from './journal.js';
import { planSweep, sweepKeyOf } from './plan.js';
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
const FAILS_THE_SOURCE = new Set(['ORDER_FAILED', 'TRANSFER_FAILED', 'TRANSFER_EXPIRED', 'SIMULATION_FAILED']);

type Resolved = import('../../protocol/signer.js').ResolvedSigner<import('../../tron/types.js').SendTronWeb>;

/** A sweep that can be planned, started, stopped and resumed (same sources, same journal). */
export class SweepRun {
  readonly #deps: SweepDeps;
  readonly #options: SweepOptions;
  readonly #stop = new AbortController();
  #signers = new Map<string, Resolved>();
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
    const { resolveSigner } = await import('../../protocol/signer.js');
    if (!Array.isArray(this.#sources) || this.#sources.length === 0)
      throw new TrxRentError({ code: 'VALIDATION_ERROR', message: 'sources: give at least one source', details: { field: 'sources' } });
    this.#sources.forEach((source, i) => {
      const given = (source as { signer?: TransferSigner }).signer ?? ({ privateKey: (source as { privateKey: string }).privateKey } as TransferSigner);
      let signer: Resolved;
      try {
        signer = resolveSigner(given as never) as Resolved;
      } catch {
        throw new TrxRentError({
          code: 'VALIDATION_ERROR',
          message: `sources[${i}]: pass { privateKey } or { signer } for each source`,
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
        writes.push({ type: 'sweep', key: plan.key, to: plan.to, token: plan.token.address, sources_hash: hash, sources: plan.sources, at: clock.now() });
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
            if (this.#stop.signal.aborted || error instanceof TimeoutError) return;
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
    const maxPrice = p.max_price_sun;
    const journal = this.#journal!;
    const index = journal.index;
    const { clock, node, orders, chain } = this.#deps;
    const signal = this.#stop.signal;
    const overBudget = (what: string, cost: number) =>
      new TrxRentError({
        code: 'SPENDING_CAP_EXCEEDED',
        message: `${what} (${cost} SUN) would take the sweep past its confirmed cost (${index.spentSun} SUN spent of ${budget} SUN); nothing more was spent. Resume with a higher maxCostSun (--max-cost) to go on`,
        details: { field: 'maxCostSun', spent_sun: index.spentSun, budget_sun: budget },
      });

    // ---- activation: once per address ----
    if (p.activate && index.activations.get(p.address)?.state !== 'done') {
      const earlier = index.activations.get(p.address);
      let landed: { tx_id?: string; fee_sun: number } | undefined;
      if (earlier?.state === 'signed' && earlier.tx_id) landed = await this.#landActivation(earlier.tx_id, earlier.expiration ?? 0);
      if (!landed) {
        const account = await node.getAccount(p.address, { signal });
        if (account.create_time || account.balance || account.address) landed = { fee_sun: 0 };
      }
      if (!landed) {
        if (index.spentSun + plan.fees.create_account_sun > budget) throw overBudget(`Activating ${p.address}`, plan.fees.create_account_sun);
        let signed: { tx_id: string; expiration: number } | undefined;
        try {
          const done = await chain.activate({
            address: p.address,
            signer: this.#options.funding!,
            signal,
            onSigned: async (tx) => {
              signed = tx;
              await journal.append({ type: 'activation', address: p.address, state: 'signed', tx_id: tx.tx_id, expiration: tx.expiration, at: clock.now() });
              this.#emit({ event: 'activation', address: p.address, state: 'signed', tx_id: tx.tx_id });
            },
          });
          landed = done ? { tx_id: done.tx_id, fee_sun: done.fee_sun } : { fee_sun: 0 };
        } catch (error) {
          // A lost answer or a refusal after signing: the transaction decides, not the answer.
          if (!signed || signal.aborted) throw error;
          landed = await this.#landActivation(signed.tx_id, signed.expiration);
          if (!landed)
            throw new TrxRentError({
              code: 'TRANSFER_FAILED',
              message: `The activation of ${p.address} (tx ${signed.tx_id}) did not land: ${(error as Error).message}`,
              cause: error,
            });
        }
      }
      await journal.append({ type: 'activation', address: p.address, state: 'done', tx_id: landed.tx_id, fee_sun: landed.fee_sun, at: clock.now() });
      this.#emit({ event: 'activation', address: p.address, state: 'done', tx_id: landed.tx_id, fee_sun: landed.fee_sun });
    }

    // ---- the energy: one order for this source (none to wait for once its sweep is signed: it may have used the energy) ----
    const key = `${plan.key}:${p.address}`;
    const signedBefore = (await journal.get(key)) !== undefined;
    if (p.order_amount > 0 && !signedBefore) {
      let order = index.orders.get(p.address);
      if (order?.state === 'failed') throw new TrxRentError({ code: 'ORDER_FAILED', message: `The order for ${p.address} failed: ${order.reason ?? ''}` });
      if (order?.state !== 'filled') {
        if (!order) {
          if (index.spentSun + maxPrice * p.order_amount > budget)
            throw overBudget(`Renting ${p.order_amount} energy for ${p.address}`, maxPrice * p.order_amount);
          await journal.append({
            type: 'order',
            key: `${plan.key}:${p.address}`,
            address: p.address,
            state: 'placing',
            amount: p.order_amount,
            max_price_sun: maxPrice,
            at: clock.now(),
          });
          order = index.orders.get(p.address)!;
        }
        this.#emit({ event: 'order', address: p.address, state: 'placing', amount: p.order_amount });
        const price = order.max_price_sun ?? maxPrice;
        // Above its confirmed price now, or no provider free: nothing was ordered (the key is still
        // unused); wait for the market's next price poll (30 s) rather than pay more, for up to 10 minutes.
        const created = await pollUntil(
          async () => {
            try {
              const placed = await orders.create(
                { resource_type: 'ENERGY', amount: p.order_amount, duration_sec: plan.duration_sec, target_address: p.address, max_price_sun: price },
                { idempotencyKey: order!.key, signal },
              );
              return { done: true as const, value: placed };
            } catch (error) {
              const code = String((error as TrxRentError)?.code);
              if (code !== 'PRICE_EXCEEDED' && code !== 'PROVIDER_UNAVAILABLE') throw error;
              this.#emit({ event: 'order', address: p.address, state: 'waiting', amount: p.order_amount, reason: (error as Error).message });
              return { done: false as const, last: error };
            }
          },
          {
            timeoutMs: 600_000,
            intervalMs: 30_000,
            factor: 1,
            clock,
            signal,
            timeoutMessage: () =>
              `No provider rented ${p.order_amount} energy for ${p.address} at ${price} SUN or less in 10 minutes; nothing was ordered for it`,
          },
        );
        const done = await orders
          .waitFor(created.id, { timeoutMs: 600_000, pollIntervalMs: 250, maxPollIntervalMs: 2_000, signal })
          .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
        if (done instanceof Error) {
          if (signal.aborted) throw signal.reason;
          if ((done as TrxRentError).code !== 'ORDER_FAILED') throw done;
          await journal.append({
            type: 'order',
            key: order.key,
            address: p.address,
            state: 'failed',
            amount: p.order_amount,
            order_id: created.id,
            reason: done.message,
            at: clock.now(),
          });
          this.#emit({ event: 'order', address: p.address, state: 'failed', amount: p.order_amount, order_id: created.id });
          throw new TrxRentError({
            code: 'ORDER_FAILED',
            message: `The order ${created.id} for ${p.address} did not fill (${done.message}); nothing was swept from it`,
            cause: done,
          });
        }
        const cost = Number(done.total_cost_sun ?? 0);
        await journal.append({
          type: 'order',
          key: order.key,
          address: p.address,
          state: 'filled',
          amount: p.order_amount,
          order_id: created.id,
          cost_sun: cost,
          at: clock.now(),
        });
        this.#emit({ event: 'order', address: p.address, state: 'filled', amount: p.order_amount, order_id: created.id, cost_sun: cost });
        if (cost > price * p.order_amount) throw overBudget(`Order ${created.id} charged above its max_price_sun`, cost);
      }
      // FILLED is the service's word; the node's is the one the transfer meets.
      const after = await pollUntil(
        async () => {
          const now = await chain.read(p.address, { signal });
          return now.energy >= p.energy ? { done: true, value: now } : { done: false, last: now };
        },
        {
          timeoutMs: 120_000,
          clock,
          signal,
          intervalMs: 250,
          maxIntervalMs: 2_000,
          timeoutMessage: () => `The order for ${p.address} is FILLED but it cannot spend ${p.energy} energy on the node yet`,
        },
      );
      this.#emit({ event: 'delegated', address: p.address, energy: after.energy });
    }

    // ---- the sweep: once, through the one transfer protocol ----
    const signer = this.#signers.get(p.address)!;
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

  /** Land an activation signed earlier: its fee once confirmed, undefined once it can never land (a new one may be signed). */
  async #landActivation(txId: string, expiration: number): Promise<{ tx_id: string; fee_sun: number } | undefined> {
    const { node, clock } = this.#deps;
    const signal = this.#stop.signal;
    const status = await pollUntil(
      async () => {
        const now = await transferStatus(node, txId, expiration || undefined, { signal });
        return now.state === 'pending' ? { done: false, last: now } : { done: true, value: now };
      },
      {
        timeoutMs: Math.max(120_000, expiration - clock.now() + 120_000),
        clock,
        signal,
        intervalMs: 500,
        maxIntervalMs: 3_000,
        timeoutMessage: () => `The activation ${txId} is in no block yet; its outcome is unknown`,
      },
    );
    if (status.state === 'confirmed') return { tx_id: txId, fee_sun: status.receipt?.fee ?? 0 };
    if (status.state === 'failed')
      throw new TrxRentError({ code: 'TRANSFER_FAILED', message: `The activation ${txId} failed on chain (${status.result ?? 'FAILED'})` });
    return undefined;
  }

  /** The report from the journal. */
  async report(): Promise<SweepReport> {
    const journal = this.#journal;
    if (journal) await journal.sync();
    return buildSweepReport(journal!.index, this.#plan!, this.#options.journal);
  }
}
