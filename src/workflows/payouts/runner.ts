/**
 * The payout run: plan (check and estimate every row), rent the batch's energy and bandwidth in
 * a handful of orders, wait for the delegation, then sign, broadcast and land the rows with
 * bounded concurrency, topping up (`chain.ensure`) if energy runs short. Every step is
 * journaled before it is taken; `resume` reads the journal and never signs a second transaction
 * for a row whose first may still land (the transfer identity's `landTransfer` re-broadcasts the
 * same bytes until the receipt, or until the solidified block passes the expiration).
 * @module
 */
import { TrxRentError } from '../../errors/index.js';
import type { TransferSigner } from '../../tron/engine.js';
import { type TransferWho, multiSignFeeSun } from '../../tron/transfer-sign.js';
import type { PayoutDeps } from './deps.js';
import type { TransferRecord } from './identity-types.js';
import { PayoutIndex, type PayoutJournal, type PayoutJournalEntry, memoryJournal, openPayoutJournal } from './journal.js';
import { type PayoutPlan, type RowEstimate, estimateRows, planOrders, worstBurn } from './plan.js';
import { type Payout, type PayoutRow, checkPayouts } from './rows.js';
import { batchKeyOf, buildReport } from './report.js';
import type { PayoutEvent, PayoutReport, SendManyOptions } from './types.js';

type OrderEntry = Extract<PayoutJournalEntry, { type: 'order' }>;

/** A payout batch that can be started, stopped and resumed (after a crash too: same rows, same journal). */
export class PayoutRun {
  readonly #deps: PayoutDeps;
  readonly #payouts: readonly Payout[];
  readonly #where: readonly string[] | undefined;
  readonly #options: SendManyOptions;
  readonly #stop = new AbortController();
  #journal: PayoutJournal | undefined;
  #signer: TransferWho | undefined;
  #rows: PayoutRow[] | undefined;
  #estimates = new Map<string, RowEstimate>();
  #plan: PayoutPlan | undefined;
  #key = '';
  #hash = '';
  /** Estimates made by {@link plan}, journaled once the plan is approved. */
  #unjournaled: RowEstimate[] = [];
  #running = false;

  /** `where`: per payout, where it came from (`line 4`) for messages. */
  constructor(deps: PayoutDeps, payouts: readonly Payout[], options: SendManyOptions, where?: readonly string[]) {
    this.#deps = deps;
    this.#payouts = payouts;
    this.#options = options;
    this.#where = where;
    options.signal?.addEventListener('abort', () => this.stop(), { once: true });
  }

  /** The batch's key (after {@link plan}). */
  get batchKey(): string {
    return this.#key;
  }

  #emit(event: PayoutEvent): void {
    try {
      this.#options.onEvent?.(event);
    } catch {
      // a display's failure must not stop payments half-way
    }
  }

  /**
   * Check the rows, open the journal, estimate what is not estimated yet, and plan the rental of
   * what is left. Spends nothing and writes nothing (the journal is written once the plan is
   * approved, in {@link start}). A journal of another batch, sender or service is refused.
   */
  async plan(): Promise<PayoutPlan> {
    if (this.#plan) return this.#plan;
    const o = this.#options;
    // One key, or an account's permission and its signers: checked on the chain (PERMISSION_DENIED) before anything is estimated or rented.
    this.#signer ??= await (await import('../../tron/account-signers.js')).signersFor(this.#deps.node, o, this.#stop.signal);
    const from = this.#signer.from;
    const rows = (this.#rows = checkPayouts(this.#payouts, { token: o.token, allowDuplicates: o.allowDuplicates, from }, this.#where));
    const { key, hash } = batchKeyOf(from, rows, o.batchKey);
    this.#key = key;
    this.#hash = hash;
    const journal = (this.#journal ??= await this.#open());
    const margin = o.marginPct ?? 10;
    const head = journal.index.batch;
    if (head) this.#checkHead(head, { key, hash, from, rows: rows.length });
    for (const [id, e] of journal.index.estimates) this.#estimates.set(id, e);
    const todo = rows.filter((r) => !this.#estimates.has(r.id) && !journal.index.finals.has(r.id));
    if (todo.length) {
      const before = rows.length - todo.length;
      const fresh = await estimateRows(this.#deps, from, todo, {
        signal: this.#stop.signal,
        ...('signers' in this.#signer ? { signatures: this.#signer.signers.length, permissionId: this.#signer.permissionId } : {}),
        onProgress: (done) => this.#emit({ event: 'estimated', done: before + done, total: rows.length }),
      });
      for (const e of fresh) {
        this.#estimates.set(e.id, e);
        this.#unjournaled.push(e);
      }
    }
    this.#emit({ event: 'estimated', done: rows.length, total: rows.length });
    this.#plan = await this.#planRental(from, rows, head?.margin_pct ?? margin);
    this.#emit({ event: 'planned', plan: this.#plan });
    return this.#plan;
  }

  async #open(): Promise<PayoutJournal> {
    const given = this.#options.journal;
    if (typeof given === 'string') return openPayoutJournal(given);
    const journal = given ?? memoryJournal();
    await journal.hold();
    return journal;
  }

  /** A journal of another batch, sender or service: refused, naming both sides. */
  #checkHead(head: Extract<PayoutJournalEntry, { type: 'batch' }>, now: { key: string; hash: string; from: string; rows: number }): void {
    const service = this.#deps.service;
    const differs: string[] = [];
    if (head.key !== now.key || head.rows_hash !== now.hash)
      differs.push(`rows: the journal's batch ${head.key} has ${head.rows} rows, these rows are batch ${now.key} (${now.rows} rows)`);
    if (head.from !== now.from) differs.push(`sender: the journal's is ${head.from}, this signer is ${now.from}`);
    if (head.service && service && head.service.origin !== service.origin)
      differs.push(`service: confirmed on ${head.service.origin}, this client is on ${service.origin}`);
    else if (head.service && service && head.service.account !== service.account)
      differs.push(`account: confirmed with API key ${head.service.account}…, this client has ${service.account}…`);
    if (!differs.length) return;
    throw new TrxRentError({
      code: 'JOURNAL_MISMATCH',
      message: `The journal ${this.#journalName()} was confirmed for another batch; refusing to spend: ${differs.join('; ')}. Resume with the same rows, sender and service; a new batch needs a new journal (its rows already paid are in this one's report).`,
      details: { field: 'journal', batch_key: head.key, journal_service: head.service, service, journal_from: head.from, from: now.from },
    });
  }

  #journalName(): string {
    return typeof this.#options.journal === 'string' ? this.#options.journal : 'given';
  }

  #final(id: string): boolean {
    return this.#journal?.index.finals.has(id) ?? false;
  }

  async #planRental(from: string, rows: PayoutRow[], margin: number): Promise<PayoutPlan> {
    const { node, chain } = this.#deps;
    const duration = this.#options.duration ?? 3600;
    const open = rows.filter((r) => !this.#final(r.id));
    const est = open.map((r) => this.#estimates.get(r.id)!);
    const needed = est.reduce((s, e) => s + e.energy, 0);
    const bandwidth = est.reduce((s, e) => s + e.bandwidth, 0);
    const withMargin = Math.ceil((needed * (100 + margin)) / 100);
    const [have, params] = await Promise.all([chain.read(from), node.getChainParameters()]);
    const fees = { energy_sun: params.get('getEnergyFee') ?? 0, bandwidth_sun: params.get('getTransactionFee') ?? 0 };
    // Orders already journaled (a resume) are the rental: what they lack, top-ups buy.
    const rented = this.#orders().length > 0;
    const energyToRent = rented ? 0 : Math.max(0, withMargin - have.energy);
    const bwWanted = Math.ceil((bandwidth * (100 + margin)) / 100);
    const bwToRent = rented || bwWanted - have.bandwidth < 1_000 ? 0 : bwWanted - have.bandwidth;
    const orders = [...(await planOrders(this.#deps, 'ENERGY', energyToRent, duration)), ...(await planOrders(this.#deps, 'BANDWIDTH', bwToRent, duration))];
    const energyPlanned = orders.filter((q) => q.resource === 'ENERGY').reduce((s, q) => s + q.amount, 0);
    // Left to top-ups: what the market cannot rent now, or on a resume what the node lacks (a
    // delegation taken back, rows that burnt): priced, so the confirmation shows it.
    const deferred = rented ? Math.max(0, withMargin - have.energy) : Math.max(0, energyToRent - energyPlanned);
    const rentCost = orders.reduce((s, q) => s + q.cost_sun, 0);
    // One transfers.send per row: one order each at max(its energy, the minimum), bandwidth burnt.
    const single = est.length ? await this.#deps.orders.preview({ resource: 'ENERGY', amount: 65_000, duration }) : undefined;
    const unit = Number(single?.best?.price_sun ?? 0);
    const singles = est.reduce((s, e) => s + Math.ceil(Math.max(e.energy, 65_000) * unit) + e.bandwidth * fees.bandwidth_sun, 0);
    const burnCost = needed * fees.energy_sun + bandwidth * fees.bandwidth_sun;
    const totals = new Map<string, bigint>();
    for (const r of rows) totals.set(r.symbol, (totals.get(r.symbol) ?? 0n) + BigInt(r.amount_atomic));
    const { atomicToDecimal } = await import('../../utils/units.js');
    const planned: PayoutPlan = {
      batch_key: this.#key,
      from,
      rows: rows.length,
      holders: est.filter((e) => e.holder).length,
      empty_recipients: est.filter((e) => !e.holder).length,
      totals: [...totals].map(([token, atomic]) => ({ token, amount: atomicToDecimal(atomic, rows.find((r) => r.symbol === token)!.decimals) })),
      fees,
      energy: { needed, margin_pct: margin, with_margin: withMargin, available: have.energy, to_rent: energyPlanned, deferred },
      bandwidth: { needed: bandwidth, available: have.bandwidth, to_rent: orders.filter((q) => q.resource === 'BANDWIDTH').reduce((s, q) => s + q.amount, 0) },
      duration_sec: duration,
      orders,
      rent_cost_sun: rentCost,
      burn_cost_sun: burnCost,
      single_sends_cost_sun: singles,
      saving_sun: burnCost - rentCost,
      deferred_cost_sun: Math.ceil(deferred * unit),
      worst_burn_sun: worstBurn(est, fees) + est.length * multiSignFeeSun(this.#signer!, params),
    };
    if (this.#journal?.index.batch) planned.resume = this.#resumeInfo(planned);
    return planned;
  }

  #resumeInfo(plan: PayoutPlan): NonNullable<PayoutPlan['resume']> {
    const index = this.#journal!.index;
    const pending = this.#rows!.filter((r) => !index.finals.has(r.id) && index.records.get(`${this.#key}:${r.id}`)).length;
    return {
      confirmed: index.confirmed,
      failed: index.failed,
      pending,
      spent_sun: index.spentSun,
      budget_sun: index.approval?.budget_sun,
      budget_after_sun: this.#budgetFor(plan),
    };
  }

  /**
   * The budget a run holds to: `maxCostSun` when set; else what was spent plus this plan's rental
   * (and deferred energy) with the margin. On a resume that is put to `confirm` (which showed the
   * rental left), the larger of that and the earlier approval; without `confirm`, the earlier
   * approval: nothing more than what someone confirmed.
   */
  #budgetFor(plan: PayoutPlan): number {
    if (this.#options.maxCostSun !== undefined) return this.#options.maxCostSun;
    const index = this.#journal!.index;
    const wanted = index.spentSun + Math.ceil(((plan.rent_cost_sun + plan.deferred_cost_sun) * (100 + (this.#options.costMarginPct ?? 10))) / 100);
    const approved = index.approval?.budget_sun;
    if (approved === undefined) return wanted;
    return this.#options.confirm ? Math.max(approved, wanted) : approved;
  }

  /** The orders journaled so far, by key, latest state. */
  #orders(): OrderEntry[] {
    return [...(this.#journal?.index.orders.values() ?? [])];
  }

  /**
   * Run the batch to the end (or until stopped); the journal says where a resume goes on. The
   * plan (of what is left, on a resume) is put to `confirm` every time; declining writes nothing.
   * Everything the run orders is held to a budget: `maxCostSun`, else the approved rental plus
   * `costMarginPct`; an order carries its share as max_price_sun, and a top-up past the budget
   * stops the run (SPENDING_CAP_EXCEEDED, resumable with a higher `maxCostSun`).
   */
  async start(): Promise<PayoutReport> {
    if (this.#running) throw new TrxRentError({ code: 'IN_PROGRESS', message: 'This batch is already running' });
    this.#running = true;
    try {
      const plan = await this.plan();
      const journal = this.#journal!;
      const clock = this.#deps.clock;
      if (this.#options.confirm && !(await this.#options.confirm(plan))) {
        throw new TrxRentError({
          code: 'CANCELLED',
          message: plan.resume
            ? 'Cancelled: nothing more was ordered or sent; the journal keeps what was done'
            : 'Cancelled before anything was ordered or sent',
        });
      }
      const index = journal.index;
      let budget = this.#budgetFor(plan);
      if (index.spentSun + plan.rent_cost_sun > budget) {
        throw new TrxRentError({
          code: 'SPENDING_CAP_EXCEEDED',
          message: `Renting for the batch costs ${plan.rent_cost_sun} SUN now${index.spentSun ? ` on top of ${index.spentSun} SUN spent` : ''}, above the cap of ${budget} SUN; nothing was ordered`,
          details: { cost_sun: plan.rent_cost_sun, spent_sun: index.spentSun, max_cost_sun: budget },
        });
      }
      const setup = async () => {
        // Workers sharing the journal: one that planned before another's approval was written
        // (and saw its rental delegated already) takes the approved budget, never a lower one.
        if (journal.claims && this.#options.maxCostSun === undefined && index.approval) budget = Math.max(budget, index.approval.budget_sun);
        const writes: PayoutJournalEntry[] = [];
        const service = this.#deps.service;
        if (!index.batch)
          writes.push({
            type: 'batch',
            key: this.#key,
            from: plan.from,
            rows_hash: this.#hash,
            rows: this.#rows!.length,
            margin_pct: plan.energy.margin_pct,
            ...(service ? { service } : {}),
            at: clock.now(),
          });
        writes.push(...this.#unjournaled.splice(0).map((e) => ({ type: 'estimated' as const, ...e })));
        writes.push({
          type: 'approved',
          rent_cost_sun: plan.rent_cost_sun,
          budget_sun: budget,
          worst_burn_sun: plan.worst_burn_sun,
          rows_left: this.#rows!.filter((r) => !this.#final(r.id)).length,
          at: clock.now(),
        });
        writes.push({ type: 'run', state: 'started', at: clock.now() });
        await journal.append(...writes);
      };
      await this.#shared(setup, async (claims) => claims.seed(this.#rows!.map((r) => r.id)));
      await this.#rent(plan, budget);
      await this.#send(budget);
      const report = await this.report();
      await journal.append({ type: 'run', state: report.complete ? 'finished' : 'stopped', at: clock.now() });
      if (this.#stop.signal.aborted) this.#emit({ event: 'stopped', pending: report.pending + report.rows.filter((r) => r.status === 'unsent').length });
      this.#emit({ event: 'done', report });
      return report;
    } finally {
      this.#running = false;
      await this.#journal?.close();
      this.#journal = undefined;
      this.#plan = undefined;
    }
  }

  /** Release the journal (after {@link plan} alone; {@link start} releases it when it ends). */
  async close(): Promise<void> {
    if (this.#running) return;
    await this.#journal?.close();
    this.#journal = undefined;
    this.#plan = undefined;
  }

  /** Go on from the journal (the same as {@link start}: the journal decides what is left). */
  resume(): Promise<PayoutReport> {
    return this.start();
  }

  /** Stop: nothing new is ordered or signed; rows in flight are left pending in the journal. */
  stop(): void {
    this.#stop.abort(new TrxRentError({ code: 'CANCELLED', message: 'The payout run was stopped; resume goes on from the journal' }));
  }

  /** The report from the journal (a finished, stopped or crashed batch). */
  async report(): Promise<PayoutReport> {
    const journal = this.#journal;
    if (journal) await journal.sync();
    return buildReport(
      this.#key,
      this.#signer!.from,
      this.#rows!,
      journal?.index ?? new PayoutIndex(),
      journal?.size() ?? 0,
      this.#plan?.fees ?? { energy_sun: 0, bandwidth_sun: 0 },
      typeof this.#options.journal === 'string' ? this.#options.journal : undefined,
    );
  }

  /** Place the planned orders (see `rent.ts`; on a journal workers share, once for them all) and wait for the delegation. */
  async #rent(plan: PayoutPlan, budget: number): Promise<void> {
    const { rentForBatch } = await import('./rent.js');
    await rentForBatch({
      deps: this.#deps,
      journal: this.#journal!,
      key: this.#key,
      plan,
      budget,
      stop: this.#stop.signal,
      emit: (e) => this.#emit(e),
      shared: (fn) => this.#shared(fn),
      rowEnergyMax: Math.max(0, ...[...this.#estimates.values()].map((e) => e.energy)),
    });
  }

  /**
   * Run `fn` once for the batch: at once on a journal this run holds; on a journal workers share,
   * inside its exclusive section after reading it again (whoever comes first writes, the others
   * see it written), then `then` with the row claims.
   */
  async #shared(fn: () => Promise<void>, then?: (claims: NonNullable<PayoutJournal['claims']>) => Promise<void>): Promise<void> {
    const journal = this.#journal!;
    const claims = journal.claims;
    if (!claims || !journal.exclusive) return fn();
    // `::` never begins a row's id: this section is never a row's (see SharedPayoutLedger.exclusive).
    await journal.exclusive(`${this.#key}::batch`, async () => {
      await journal.sync();
      await fn();
      await then?.(claims);
    });
  }

  /** Sign, broadcast and land every open row, `concurrency` at a time. */
  async #send(budget: number): Promise<void> {
    const { send } = await import('./send-rows.js');
    await send({
      budget,
      deps: this.#deps,
      journal: this.#journal!,
      rows: this.#rows!.filter((r) => !this.#final(r.id)),
      total: this.#rows!.length,
      estimates: this.#estimates,
      signer: this.#signer!,
      key: this.#key,
      plan: this.#plan!,
      options: this.#options,
      stop: this.#stop.signal,
      emit: (e) => this.#emit(e),
    });
  }
}

export type { TransferRecord, TransferSigner };
