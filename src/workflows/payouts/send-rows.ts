/**
 * Sending the rows: per row, sign once (journaled before the broadcast), mark the broadcast
 * (journaled before the request leaves), then land it with the transfer identity's
 * `landTransfer`: the same bytes again until the receipt, or until the solidified block passes
 * the expiration: only then is the record forgotten and the row signed anew. Energy is counted
 * before each signature; short, the run waits for the rows in flight, reads the node, and tops
 * up with `chain.ensure` (or burns, when allowed).
 * @module
 */
import { TimeoutError, TrxRentError } from '../../errors/index.js';
import { landTransfer } from '../../tron/identity.js';
import { type PayoutDeps, eachLimit } from './deps.js';
import type { TransferRecord } from './identity-types.js';
import type { PayoutJournal } from './journal.js';
import type { PayoutPlan, RowEstimate } from './plan.js';
import type { PayoutRow } from './rows.js';
import type { RowSigner } from './sign.js';
import type { PayoutEvent, SendManyOptions } from './types.js';

/** What {@link send} works with (the run's state). */
export interface SendContext {
  deps: PayoutDeps;
  journal: PayoutJournal;
  rows: PayoutRow[];
  total: number;
  confirmedBefore: number;
  estimates: Map<string, RowEstimate>;
  signer: RowSigner;
  key: string;
  plan: PayoutPlan;
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
  const every = options.rebroadcastEveryMs ?? 10_000;
  const done = { confirmed: 0, failed: 0 };
  for (const e of journal.entries()) if (e.type === 'confirmed') done.confirmed++;
  for (const e of journal.entries()) if (e.type === 'failed') done.failed++;
  const progress = () => emit({ event: 'progress', confirmed: done.confirmed, failed: done.failed, pending: ctx.total - done.confirmed - done.failed, total: ctx.total });

  // ---- energy: counted before each signature ----
  // Rows that counted their energy and have not settled yet (signing, broadcasting or landing).
  const inflight = new Set<Promise<void>>();
  let left = -1;
  let unreserved = ctx.rows.reduce((s, r) => s + (ctx.estimates.get(r.id)?.energy ?? 0), 0);
  let topups = journal.entries().filter((e) => e.type === 'order' && e.key.includes(':topup:') && e.state === 'placing').length;
  let spent = journal.entries().reduce((s, e) => s + (e.type === 'order' && e.state === 'filled' ? (e.cost_sun ?? 0) : 0), 0);
  let gate: Promise<void> = Promise.resolve();
  const reserve = (energy: number): Promise<() => void> => {
    const turn = gate.then(async () => {
      if (left < energy) {
        // Let the rows that counted their energy settle, so the node's figure is exact, then read it.
        await Promise.allSettled([...inflight]);
        left = (await deps.chain.read(from)).energy;
        if (left < energy && !options.allowBurn && !stop.aborted) {
          const want = Math.max(energy, Math.ceil((unreserved * (100 + margin)) / 100));
          const key = `${ctx.key}:topup:${++topups}`;
          const ensured = await topUp(key, want, energy);
          left = ensured.after.energy;
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
   * Rent `want` more energy with `chain.ensure`; when no provider can take that much now,
   * ask for half (not below what the row needs), and at the floor wait for the market's next
   * price poll (30 s of the run's clock). Journaled before each attempt.
   */
  const topUp = async (key: string, want: number, floor: number) => {
    for (let attempt = 0; ; attempt++) {
      await journal.append({ type: 'order', key, state: 'placing', resource: 'ENERGY', amount: want, at: clock.now() });
      emit({ event: 'order', state: 'placing', key, resource: 'ENERGY', amount: want });
      const cap = options.maxCostSun === undefined ? undefined : Math.max(0, options.maxCostSun - spent);
      try {
        const ensured = await deps.chain.ensure({ address: from, energy: want, duration: plan.duration_sec, maxCostSun: cap, idempotencyKey: key, signal: stop });
        spent += ensured.cost_sun;
        await journal.append({ type: 'order', key, state: 'filled', resource: 'ENERGY', amount: ensured.bought.energy, order_id: ensured.order?.id, cost_sun: ensured.cost_sun, at: clock.now() });
        emit({ event: 'order', state: 'filled', key, resource: 'ENERGY', amount: ensured.bought.energy, order_id: ensured.order?.id, cost_sun: ensured.cost_sun });
        return ensured;
      } catch (error) {
        // Nothing was ordered when no provider could take it: the key is still unused.
        if ((error as TrxRentError)?.code !== 'PROVIDER_UNAVAILABLE' || attempt >= 40) throw error;
        if (Math.ceil(want / 2) >= Math.max(floor, 65_000)) want = Math.ceil(want / 2);
        else await clock.sleep(30_000, stop);
      }
    }
  };

  const broadcast = async (signed: TransferRecord['signed']) => {
    await deps.transactions.broadcast({ signed_tx: signed as never });
  };

  // The TAPOS reference: any of the last 65,536 blocks will do, so one head read serves 9 s of rows.
  let head: { at: number; block: Promise<{ number: number; id: string }> } | undefined;
  const refBlock = () => {
    if (!head || clock.now() - head.at > 9_000) head = { at: clock.now(), block: node.getNowBlock({ signal: stop }) };
    const current = head;
    return current.block.catch((error: unknown) => {
      if (head === current) head = undefined;
      throw error;
    });
  };

  const sign = async (row: PayoutRow, energy: number): Promise<TransferRecord> => {
    const block = await refBlock();
    const { buildTrc20Transfer } = await import('../../protocol/tron-transaction.js');
    const now = clock.now();
    const unsigned = buildTrc20Transfer({
      from,
      contract: row.contract,
      to: row.to,
      amount: BigInt(row.amount_atomic),
      refBlock: { number: block.number, hash: block.id },
      now,
      expirationMs,
      // What burning for the whole transfer would cost, plus 10 %: the most it may burn.
      feeLimitSun: Math.max(1_000_000, Math.ceil(energy * plan.fees.energy_sun * 1.1)),
    });
    const signed = await signer.sign(unsigned, row.to, BigInt(row.amount_atomic));
    const expiration = Number((unsigned.raw_data as { expiration: number }).expiration);
    return { key: `${ctx.key}:${row.id}`, tx_id: unsigned.txID, signed, expiration, from, to: row.to, contract: row.contract, amount_atomic: row.amount_atomic, created_at: now };
  };

  const land = async (row: PayoutRow): Promise<void> => {
    const key = `${ctx.key}:${row.id}`;
    const energy = ctx.estimates.get(row.id)?.energy ?? 0;
    let record = await journal.get(key);
    // Bounded: each turn ends final, pending, or with the last signature expired unlanded.
    for (let turn = 0; turn < 5; turn++) {
      if (stop.aborted) return;
      const release = record?.broadcast_at ? () => {} : await reserve(energy);
      try {
        if (await attempt()) return;
      } finally {
        release();
      }
    }
    throw new TrxRentError({ code: 'TRANSFER_EXPIRED', message: `Row ${row.id} expired unconfirmed five times; stopping the batch`, details: { stage: 'broadcast', transfer_sent: false, idempotency_key: key } });

    /** One signature's life: true when the row is final or left pending, false when it expired unlanded. */
    async function attempt(): Promise<boolean> {
      if (stop.aborted) return true;
      if (!record) {
        record = await sign(row, energy);
        await journal.put(record);
        emit({ event: 'signed', id: row.id, tx_id: record.tx_id, expiration: record.expiration });
      }
      const again = record.broadcast_at !== undefined;
      let firstFailed = again;
      if (!again) {
        record = { ...record, broadcast_at: clock.now() };
        await journal.put(record);
        // No signal on the broadcast itself: once it is on its way, an abort could only hide the outcome.
        await broadcast(record.signed).catch(() => (firstFailed = true));
      }
      emit({ event: 'broadcast', id: row.id, tx_id: record.tx_id, again });
      const landing = landTransfer(node, record, { broadcast, clock, deadline: clock.now() + rowTimeout, signal: stop, rebroadcastEveryMs: every, broadcastFirst: firstFailed });
      let status;
      try {
        status = await landing;
      } catch (error) {
        if (stop.aborted) return true;
        if (error instanceof TimeoutError) return true; // pending: its outcome is unknown; resume goes on with the same bytes
        throw error;
      }
      if (status.state === 'confirmed' || status.state === 'failed') {
        const receipt = status.receipt;
        const r = receipt?.receipt;
        if (status.state === 'confirmed') {
          const used = r?.energy_usage_total || (r?.energy_usage ?? 0) + (r?.origin_energy_usage ?? 0);
          // Burnt for energy: the node has less than counted (a delegation taken back, another
          // spender on the wallet). Count afresh from the node before the next row.
          if ((r?.energy_fee ?? 0) > 0) left = -1;
          await journal.append({ type: 'confirmed', id: row.id, tx_id: record.tx_id, block: status.block ?? 0, energy_used: used, fee_sun: receipt?.fee ?? 0, at: clock.now() });
          done.confirmed++;
          emit({ event: 'confirmed', id: row.id, tx_id: record.tx_id, block: status.block ?? 0 });
        } else {
          const reason = `mined but failed: ${status.result ?? 'FAILED'}`;
          await journal.append({ type: 'failed', id: row.id, reason, tx_id: record.tx_id, at: clock.now() });
          done.failed++;
          emit({ event: 'failed', id: row.id, reason, tx_id: record.tx_id });
        }
        progress();
        return true;
      }
      // Expired: the solidified block is past its expiration and it is in no block, so no block
      // can take it now. Only now may the row be signed anew.
      await journal.delete(key);
      emit({ event: 'expired', id: row.id, tx_id: record.tx_id });
      record = undefined;
      return false;
    }
  };

  progress();
  await eachLimit(ctx.rows, options.concurrency ?? 8, land, stop);
}
