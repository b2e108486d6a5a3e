/**
 * Sending the rows: each row is one transfer of the one transfer protocol (`src/tron/transfer.ts`,
 * with the payout journal as its store: signed once, journaled before the broadcast, landed, a
 * row signed anew only once its transaction is known dead). Energy is counted before each
 * signature; short, the run waits for the rows in flight, reads the node, and tops up with
 * `chain.ensure` under what is left of the budget (or burns, when allowed). On a journal several
 * workers share, the rows are claimed one at a time instead of taken in order, and the energy is
 * counted in the journal by every worker together (`shared-energy.ts`).
 * @module
 */
import { TimeoutError, TrxRentError } from '../../errors/index.js';
import { type TransferDeps, type TransferEvent, transferOnce } from '../../tron/transfer.js';
import { pollUntil } from '../../utils/clock.js';
import { type PayoutDeps, eachLimit } from './deps.js';
import type { PayoutJournal } from './journal.js';
import type { PayoutPlan, RowEstimate } from './plan.js';
import type { PayoutRow } from './rows.js';
import type { PayoutEvent, SendManyOptions } from './types.js';

/** What {@link send} works with (the run's state). */
export interface SendContext {
  deps: PayoutDeps;
  journal: PayoutJournal;
  rows: PayoutRow[];
  total: number;
  estimates: Map<string, RowEstimate>;
  signer: TransferDeps['signer'];
  key: string;
  plan: PayoutPlan;
  /** The most the rental may cost in all, SUN (orders already filled included). */
  budget: number;
  options: SendManyOptions;
  stop: AbortSignal;
  emit: (event: PayoutEvent) => void;
}

/** Sign, broadcast and land `rows`, `options.concurrency` at a time; returns when each is final, pending (timed out) or the run stopped. */
export async function send(ctx: SendContext): Promise<void> {
  const { deps, journal, signer, options, stop, emit, plan } = ctx;
  const { clock, node } = deps;
  const from = signer.from;
  const margin = plan.energy.margin_pct;
  const expirationMs = options.expirationMs ?? 600_000;
  const rowTimeout = options.rowTimeoutMs ?? 300_000;
  const index = journal.index;
  const progress = () =>
    emit({ event: 'progress', confirmed: index.confirmed, failed: index.failed, pending: ctx.total - index.confirmed - index.failed, total: ctx.total });

  // ---- energy: counted before each signature ----
  // Rows that counted their energy and have not settled yet (signing, broadcasting or landing).
  const inflight = new Set<Promise<void>>();
  let left = -1;
  let unreserved = ctx.rows.reduce((s, r) => s + (ctx.estimates.get(r.id)?.energy ?? 0), 0);
  let topups = [...index.orders.keys()].filter((k) => k.includes(':topup:')).length;
  let gate: Promise<void> = Promise.resolve();
  const reserve = (energy: number): Promise<() => void> => {
    const turn = gate.then(async () => {
      if (left < energy) {
        // Let the rows that counted their energy settle, so the node's figure is exact, then read it.
        await Promise.allSettled([...inflight]);
        left = (await deps.chain.read(from)).energy;
        if (left < energy && !options.allowBurn && !stop.aborted) {
          const want = Math.max(energy, Math.ceil((unreserved * (100 + margin)) / 100));
          const ensured = await topUp(`${ctx.key}:topup:${++topups}`, want, energy);
          left = ensured!.after.energy;
        }
      }
      left -= energy;
      unreserved -= energy;
      // Registered inside the turn: the next row short of energy waits for this one too.
      let release!: () => void;
      const settled = new Promise<void>((resolve) => (release = resolve));
      inflight.add(settled);
      return () => {
        inflight.delete(settled);
        release();
      };
    });
    gate = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  };

  /**
   * Rent `want` more energy with `chain.ensure` under what is left of the budget; when no
   * provider can take that much now, ask for half (not below what the row needs), and at the
   * floor wait for the market's next price poll (30 s of the run's clock). Journaled right
   * before the order is sent (ensure's beforeOrder), so a top-up refused by the cap writes
   * nothing; past the budget, `confirmOverrun` is asked, else the run stops.
   */
  const topUp = (key: string, want: number, floor: number) =>
    pollUntil(
      async () => {
        for (;;) {
          const cap = Math.max(0, ctx.budget - index.spentSun);
          try {
            const ensured = await deps.chain.ensure({
              address: from,
              energy: want,
              duration: plan.duration_sec,
              maxCostSun: cap,
              idempotencyKey: key,
              signal: stop,
              // The exact request, written down right before it is sent: a resume after a crash
              // sends it again with its key (rent.ts), so the service answers the same order and
              // its cost counts against the budget before anything else is rented.
              beforeOrder: async ({ request }) => {
                const { amount, max_price_sun } = request;
                await journal.append({ type: 'order', key, state: 'placing', resource: 'ENERGY', amount, max_price_sun, at: clock.now() });
                emit({ event: 'order', state: 'placing', key, resource: 'ENERGY', amount });
              },
            });
            await journal.append({
              type: 'order',
              key,
              state: 'filled',
              resource: 'ENERGY',
              amount: ensured.bought.energy,
              order_id: ensured.order?.id,
              cost_sun: ensured.cost_sun,
              at: clock.now(),
            });
            emit({
              event: 'order',
              state: 'filled',
              key,
              resource: 'ENERGY',
              amount: ensured.bought.energy,
              order_id: ensured.order?.id,
              cost_sun: ensured.cost_sun,
            });
            return { done: true as const, value: ensured };
          } catch (error) {
            const e = error as TrxRentError;
            if (e?.code === 'SPENDING_CAP_EXCEEDED' && !e.details?.order_id) {
              // Refused before ordering: the budget cannot pay for it. Ask, or stop.
              if (await raiseBudget(want, e)) continue;
              throw overBudget(ctx, want, error);
            }
            // Nothing was ordered when no provider could take it: the key is still unused.
            if (e?.code !== 'PROVIDER_UNAVAILABLE') throw error;
            if (Math.ceil(want / 2) < Math.max(floor, 65_000)) return { done: false as const };
            want = Math.ceil(want / 2);
          }
        }
      },
      {
        timeoutMs: 40 * 30_000,
        intervalMs: 30_000,
        factor: 1,
        clock,
        signal: stop,
        timeoutMessage: () => `No provider could rent ${want} energy for ${from} in 20 minutes; the rows not sent resume from the journal`,
      },
    );

  /**
   * On a journal workers share, the energy is counted in the journal by every worker
   * (`shared-energy.ts`); a top-up there is sized by the rows not final (every worker's) and
   * keyed after the top-ups the journal holds.
   */
  const sharedReserve =
    journal.claims && !options.allowBurn
      ? (await import('./shared-energy.js')).sharedEnergy({
          journal,
          key: ctx.key,
          read: async () => (await deps.chain.read(from)).energy,
          topUp: async (energy) => {
            const open = ctx.rows.filter((r) => !index.finals.has(r.id)).reduce((s, r) => s + (ctx.estimates.get(r.id)?.energy ?? 0), 0);
            const n = [...index.orders.keys()].filter((k) => k.includes(':topup:')).length;
            const ensured = await topUp(`${ctx.key}:topup:${n + 1}`, Math.max(energy, Math.ceil((open * (100 + margin)) / 100)), energy);
            return ensured!.after.energy;
          },
          clock,
          stop,
          settleMs: 30_000,
          timeoutMs: rowTimeout,
        })
      : undefined;

  /** A top-up past the budget: asked (`confirmOverrun`); a yes is journaled as a new approval, the budget raised. */
  const raiseBudget = async (energy: number, refusal: TrxRentError): Promise<boolean> => {
    const cost = Number(refusal.details?.cost_sun);
    // A cap the caller set (maxCostSun) is a hard one: only an approval's budget is raised by asking.
    if (!options.confirmOverrun || options.maxCostSun !== undefined || !Number.isSafeInteger(cost) || cost <= 0) return false;
    const spent = index.spentSun;
    const question = {
      energy,
      cost_sun: cost,
      spent_sun: spent,
      budget_sun: ctx.budget,
      new_budget_sun: spent + Math.ceil((cost * (100 + (options.costMarginPct ?? 10))) / 100),
    };
    if (question.new_budget_sun <= ctx.budget || !(await options.confirmOverrun(question))) return false;
    const left = ctx.rows.filter((r) => !index.finals.has(r.id)).length;
    await journal.append({
      type: 'approved',
      rent_cost_sun: cost,
      budget_sun: question.new_budget_sun,
      worst_burn_sun: plan.worst_burn_sun,
      rows_left: left,
      at: clock.now(),
    });
    ctx.budget = question.new_budget_sun;
    return true;
  };

  // The TAPOS reference: any of the last 65,536 blocks will do, so one head read serves 9 s of rows.
  let head: { at: number; block: Promise<{ number: number; id: string; timestamp: number | undefined }> } | undefined;
  const refBlock = () => {
    if (!head || clock.now() - head.at > 9_000) head = { at: clock.now(), block: node.getNowBlock({ signal: stop }) };
    const current = head;
    return current.block.catch((error: unknown) => {
      if (head === current) head = undefined;
      throw error;
    });
  };
  // The chain's getMaxFeeLimit, read once for the batch.
  let maxFee: Promise<number | undefined> | undefined;
  const chainMaxFeeLimit = () => (maxFee ??= node.getChainParameters({ signal: stop }).then((p) => p.get('getMaxFeeLimit')));

  const protocol: TransferDeps = {
    node,
    clock,
    store: journal,
    signer,
    broadcast: (signed) => deps.transactions.broadcast({ signed_tx: signed as never }),
  };

  const serviceHost = (() => {
    try {
      return deps.service ? new URL(deps.service.origin).host : 'the service';
    } catch {
      return 'the service';
    }
  })();

  const land = async (row: PayoutRow): Promise<void> => {
    const key = `${ctx.key}:${row.id}`;
    const energy = ctx.estimates.get(row.id)?.energy ?? 0;
    const onEvent = (e: TransferEvent) => {
      if (e.step === 'signed') emit({ event: 'signed', id: row.id, tx_id: e.tx_id, expiration: e.expiration });
      else if (e.step === 'broadcast') emit({ event: 'broadcast', id: row.id, tx_id: e.tx_id, again: false });
      else if (e.step === 'resumed') emit({ event: 'broadcast', id: row.id, tx_id: e.tx_id, again: true });
      else if (e.step === 'expired') emit({ event: 'expired', id: row.id, tx_id: e.tx_id });
    };
    // A broadcast that meets a fault is said (the row waits for its next re-broadcast), never silent.
    const every = options.rebroadcastEveryMs ?? 10_000;
    const rowProtocol: TransferDeps = {
      ...protocol,
      broadcast: async (signed) => {
        try {
          return await protocol.broadcast(signed);
        } catch (error) {
          const e = error as TrxRentError;
          if (e?.status === 429 || (e?.status ?? 0) >= 500 || e?.status === undefined) {
            const wait = Math.max(every, (error as { retryAfterMs?: number }).retryAfterMs ?? 0);
            emit({
              event: 'waiting',
              id: row.id,
              tx_id: signed.txID.toLowerCase(),
              host: serviceHost,
              status: e?.status ?? null,
              code: String(e?.code ?? 'CONNECTION_ERROR'),
              retry_in_ms: wait,
            });
          }
          throw error;
        }
      },
    };
    // Bounded: each turn ends final, pending, or with the last signature expired unlanded.
    for (let turn = 0; turn < 5; turn++) {
      if (stop.aborted) return;
      let outcome: Awaited<ReturnType<typeof transferOnce>>;
      try {
        outcome = await transferOnce(
          rowProtocol,
          { key, from, to: row.to, contract: row.contract, amount_atomic: row.amount_atomic },
          {
            fee: { energy, energyFeeSun: plan.fees.energy_sun },
            expirationMs,
            deadline: clock.now() + rowTimeout,
            signal: stop,
            onRefused: 'land',
            rebroadcastEveryMs: options.rebroadcastEveryMs,
            refBlock,
            chainMaxFeeLimit,
            prepare: sharedReserve ? () => sharedReserve(row.id, energy) : () => reserve(energy),
            onEvent,
          },
        );
      } catch (error) {
        if (stop.aborted) return;
        if (error instanceof TimeoutError) return; // pending: its outcome is unknown; resume goes on with the same bytes
        throw error;
      }
      const { status, record } = outcome;
      if (status.state === 'expired') continue; // known dead: only now may the row be signed anew
      const r = status.receipt?.receipt;
      if (status.state === 'confirmed') {
        const used = r?.energy_usage_total || (r?.energy_usage ?? 0) + (r?.origin_energy_usage ?? 0);
        // Burnt for energy: the node has less than counted (a delegation taken back, another
        // spender on the wallet). Count afresh from the node before the next row.
        if ((r?.energy_fee ?? 0) > 0) left = -1;
        await journal.append({
          type: 'confirmed',
          id: row.id,
          tx_id: record.tx_id,
          block: status.block ?? 0,
          energy_used: used,
          fee_sun: status.receipt?.fee ?? 0,
          at: clock.now(),
        });
        emit({ event: 'confirmed', id: row.id, tx_id: record.tx_id, block: status.block ?? 0 });
      } else {
        const reason = `mined but failed: ${status.result ?? 'FAILED'}`;
        await journal.append({ type: 'failed', id: row.id, reason, tx_id: record.tx_id, at: clock.now() });
        emit({ event: 'failed', id: row.id, reason, tx_id: record.tx_id });
      }
      progress();
      return;
    }
    throw new TrxRentError({
      code: 'TRANSFER_EXPIRED',
      message: `Row ${row.id} expired unconfirmed five times; stopping the batch`,
      details: { stage: 'broadcast', transfer_sent: false, idempotency_key: key },
    });
  };

  progress();
  const claims = journal.claims;
  if (!claims) return eachLimit(ctx.rows, options.concurrency ?? 8, land, stop);
  // Workers sharing the journal: each lane claims one row at a time until no row is open; a row
  // another worker holds comes back once its lease passes (that worker died or stalled).
  const byId = new Map(ctx.rows.map((r) => [r.id, r]));
  const idleMax = Math.ceil((rowTimeout + 60_000) / 250);
  const lane = async () => {
    // Bounded: each claim is a row's turn (at most a few each), each idle wait a quarter second.
    for (let idle = 0, turns = 0; idle < idleMax && turns < ctx.total * 5 + 100 && !stop.aborted; turns++) {
      const [id] = await claims.claim(1);
      if (id === undefined) {
        if ((await claims.open()) === 0) return;
        idle++;
        await clock.sleep(250, stop).catch(() => {});
        continue;
      }
      idle = 0;
      await journal.sync();
      const row = byId.get(id);
      if (!row || index.finals.has(id)) continue;
      await land(row);
      // Left pending (timed out, stopped): give it up so a worker may land it later.
      if (!index.finals.has(id)) await claims.release(id);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, lane));
}

/** A top-up the budget cannot pay for: the run stops; a resume with a higher `maxCostSun` goes on. */
function overBudget(ctx: SendContext, want: number, cause?: unknown): TrxRentError {
  const spent = ctx.journal.index.spentSun;
  return new TrxRentError({
    code: 'SPENDING_CAP_EXCEEDED',
    message: `Renting ${want} more energy would take the batch past its confirmed cost (${spent} SUN spent of ${ctx.budget} SUN); nothing more was ordered. Rows sent are kept: resume with a higher maxCostSun (--max-cost) to go on`,
    details: { field: 'maxCostSun', spent_sun: spent, budget_sun: ctx.budget, energy: want },
    cause,
  });
}
