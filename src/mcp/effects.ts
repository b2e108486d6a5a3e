/**
 * What one chain spend (ensure_resources, send_token) did, recorded as it happens, so that an
 * unknown outcome is settled by looking up what was recorded, never by running the tool again:
 *
 * - each order request as it left (POST /orders: its Idempotency-Key and body, seen by the
 *   session's fetch while the spend runs, {@link recordingFetch});
 * - each order the engine reported (`ordered`, `filled` progress events, or an `order_id` in an
 *   error's details);
 * - the signed transfer (`signed` carries its tx id; its broadcast may follow), with its
 *   expiration, or the `tx_id`/`expiration`/`transfer_sent` an error's details give.
 *
 * From that alone (no network) {@link Effects.known} says, per currency, what was spent, what
 * was not, and what is not known yet; `lookups.ts` settles the rest. Bound to a journal
 * (`spend-journal.ts`, under the server's state folder), every change is written there as a
 * snapshot, each order request's before it leaves, so a spend outlives the server process.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ENDPOINTS } from '../api/endpoints.js';
import { isTrxRentError } from '../errors/index.js';
import { FINAL_ORDER_STATUSES } from '../schemas/orders.js';
import type { ProgressEvent } from '../tron/engine.js';
import type { TransferState } from '../tron/identity.js';
import { type Clock, systemClock } from '../utils/clock.js';
import { sunToTrx } from '../utils/units.js';
import { type Currency, type Known, type Outcome, guardOutcome } from './outcome.js';

/** How long a transfer the engine signs stays valid (its `expirationMs` default), ms. */
export const TRANSFER_EXPIRATION_MS = 60_000;
/** Most order requests one spend records (ensure places at most two orders; retries reuse a key). */
const MAX_SLOTS = 8;

/** An order as far as the settlement reads it. */
export interface OrderView {
  id: string;
  status: string;
  resource_type?: string | undefined;
  total_cost_sun?: number | null | undefined;
}

/** One order the spend asked for: the request as it left, and the order once known. */
export interface OrderSlot {
  resource: string;
  key?: string | undefined;
  body?: string | undefined;
  order?: OrderView | undefined;
  /** The service refused the request with a definite answer: no order. */
  refused?: boolean | undefined;
}

/** The signed transfer of a send. */
export interface TransferTrace {
  tx_id: string;
  /** ms since the epoch; after it (on the chain's clock) the transaction can no longer land. */
  expiration: number;
  /** false: the engine says the broadcast never left (the transfer was not sent). */
  sent?: boolean | 'unknown' | undefined;
  state?: TransferState | undefined;
  block?: number | undefined;
  /** What the receipt burnt, SUN. */
  fee_sun?: number | undefined;
}

const recording = new AsyncLocalStorage<Effects>();

/** What an {@link Effects} knows, as its journal keeps it. */
export interface EffectsSnapshot {
  slots: OrderSlot[];
  transfer?: TransferTrace | undefined;
}

/** The journal of one spend (see the module comment). */
export class Effects {
  readonly #slots: OrderSlot[] = [];
  readonly #clock: Clock;
  transfer: TransferTrace | undefined;

  #sink: ((snapshot: EffectsSnapshot) => Promise<void>) | undefined;

  constructor(clock: Clock = systemClock) {
    this.#clock = clock;
  }

  /** The effects a journal kept (a spend of an earlier server process, looked up again). */
  static restore(snapshot: EffectsSnapshot, clock: Clock = systemClock): Effects {
    const effects = new Effects(clock);
    effects.#slots.push(...structuredClone(snapshot.slots ?? []).slice(0, MAX_SLOTS));
    effects.transfer = snapshot.transfer && structuredClone(snapshot.transfer);
    return effects;
  }

  /** What is known now (a copy). */
  snapshot(): EffectsSnapshot {
    return structuredClone({ slots: this.#slots, ...(this.transfer ? { transfer: this.transfer } : {}) });
  }

  /** Write every change from now on through `sink` (the spend's journal). */
  bind(sink: (snapshot: EffectsSnapshot) => Promise<void>): void {
    this.#sink = sink;
  }

  /** Write what is known now to the bound journal, durably; nothing when unbound. */
  persist(): Promise<void> {
    return this.#sink ? this.#sink(this.snapshot()) : Promise.resolve();
  }

  /** The orders asked for or reported. */
  get slots(): readonly OrderSlot[] {
    return this.#slots;
  }

  /** Runs `fn` with this journal recording the order requests the session's fetch sends. */
  run<T>(fn: () => Promise<T>): Promise<T> {
    return recording.run(this, fn);
  }

  /** The engine's progress events (pass as `onProgress`). */
  readonly onProgress = (event: ProgressEvent): void => {
    if (event.step === 'ordered' || event.step === 'filled') this.noteOrder(event.order as OrderView);
    // The broadcast follows the signature: from here the transfer may be sent. The transaction
    // was built a moment before, so its expiration is at most this far ahead.
    if (event.step === 'signed' && !this.transfer) this.transfer = { tx_id: event.tx_id.toLowerCase(), expiration: event.expiration };
    // Progress events cannot wait: the transfer store keeps the signed transaction before its
    // broadcast, and an order request was written before it left (recordingFetch).
    if (this.#sink && (event.step === 'ordered' || event.step === 'filled' || event.step === 'signed')) this.persist().catch(() => {});
  };

  /** An order request as it left (Idempotency-Key and the body as sent). */
  noteRequest(key: string, body: string | undefined): void {
    if (this.#slots.some((s) => s.key === key)) return; // a retry of the same request
    let resource = '?';
    try {
      resource = String((JSON.parse(body ?? '') as { resource_type?: unknown }).resource_type ?? '?');
    } catch {
      // kept with no resource: still looked up by its key
    }
    const reported = this.#slots.find((s) => s.key === undefined && s.order && s.resource === resource);
    if (reported) Object.assign(reported, { key, body });
    else if (this.#slots.length < MAX_SLOTS) this.#slots.push({ resource, key, body });
  }

  /** An order the engine reported (or an error named): the latest view wins. */
  noteOrder(order: OrderView): void {
    if (!order || typeof order.id !== 'string') return;
    const resource = String(order.resource_type ?? '?');
    const slot =
      this.#slots.find((s) => s.order?.id === order.id) ??
      this.#slots.find((s) => !s.order && s.resource === resource) ??
      (this.#slots.length < MAX_SLOTS ? this.#slots[this.#slots.push({ resource }) - 1] : undefined);
    if (slot) slot.order = { ...slot.order, ...order };
  }

  /** What an error says of the effects: the keyed POST it came from, the order and transfer ids in its details. */
  noteError(error: unknown): void {
    for (let e = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
      if (!isTrxRentError(e)) continue;
      const keyed = (e as { idempotencyKey?: string }).idempotencyKey;
      const slot = keyed === undefined ? undefined : this.#slots.find((s) => s.key === keyed && !s.order);
      if (slot && guardOutcome(e) === 'refused') slot.refused = true;
      const d = e.details ?? {};
      if (typeof d.order_id === 'string' && d.order_id) this.noteOrder({ id: d.order_id, status: 'UNKNOWN' });
      if (typeof d.tx_id === 'string' && /^[0-9a-fA-F]{64}$/.test(d.tx_id)) {
        this.transfer ??= { tx_id: d.tx_id.toLowerCase(), expiration: this.#clock.now() + TRANSFER_EXPIRATION_MS };
        if (typeof d.expiration === 'number' && d.tx_id.toLowerCase() === this.transfer.tx_id) this.transfer.expiration = d.expiration;
      }
      if (this.transfer && (d.transfer_sent === false || d.transfer_sent === true || d.transfer_sent === 'unknown')) this.transfer.sent ??= d.transfer_sent;
      // TRANSFER_FAILED: mined but failed; its report has the receipt.
      const report = d.report as { tx_id?: unknown; burned_sun?: unknown; receipt?: { block?: unknown } } | undefined;
      if (e.code === 'TRANSFER_FAILED' && this.transfer && report?.tx_id === this.transfer.tx_id) {
        Object.assign(this.transfer, { state: 'failed', fee_sun: Number(report.burned_sun) || 0, block: Number(report.receipt?.block) || undefined });
      }
    }
  }

  /**
   * What is known now, per currency: `TRX` the orders' charges (plus the transfer's fee), `token`
   * the transfer's amount in that currency (send_token only).
   */
  known(token?: { currency: Currency; atomic: bigint; label: string } | undefined): Known {
    const parts: string[] = [];
    let trx: Outcome = { state: 'none' };
    let charge = 0n;
    for (const slot of this.#slots) {
      const outcome = slotOutcome(slot);
      parts.push(describeSlot(slot, outcome));
      if (outcome.state === 'pending') trx = outcome;
      else if (outcome.state === 'spent' && trx.state !== 'pending') {
        charge += outcome.atomic ?? 0n;
        trx = { state: 'spent' };
      }
    }
    if (!this.#slots.length) parts.push('no order placed');
    const outcomes: Partial<Record<Currency, Outcome>> = {};
    if (token) {
      const t = this.transfer;
      let sent: Outcome = { state: 'none' };
      if (!t || t.sent === false) parts.push('the transfer was not sent');
      else if (t.state === 'confirmed') {
        sent = { state: 'spent', atomic: token.atomic };
        parts.push(`transfer ${t.tx_id} confirmed in block ${t.block ?? '?'}: ${token.label}`);
      } else if (t.state === 'failed') parts.push(`transfer ${t.tx_id} mined but failed (nothing sent)`);
      else if (t.state === 'expired') parts.push(`transfer ${t.tx_id} expired unconfirmed (nothing sent)`);
      else {
        sent = { state: 'pending' };
        parts.push(`transfer ${t.tx_id} signed and maybe broadcast, in no block yet`);
      }
      outcomes[token.currency] = sent;
      // The receipt's fee is TRX spent too; while the receipt is unknown the TRX stay held.
      if (sent.state === 'pending') trx = { state: 'pending' };
      else if (t?.fee_sun && trx.state !== 'pending') {
        charge += BigInt(t.fee_sun);
        trx = { state: 'spent' };
      }
    }
    outcomes.TRX = trx.state === 'spent' ? { state: 'spent', atomic: charge } : trx;
    const orderIds = this.#slots.flatMap((s) => (s.order ? [s.order.id] : []));
    const ids = {
      ...(orderIds.length ? { order_ids: orderIds } : {}),
      ...(this.transfer && this.transfer.sent !== false ? { tx_id: this.transfer.tx_id, expiration: this.transfer.expiration } : {}),
    };
    return { outcomes, what: parts.join('; '), ids };
  }
}

/** Whether a slot still needs a lookup. */
export function unsettled(slot: OrderSlot): boolean {
  return slotOutcome(slot).state === 'pending';
}

function slotOutcome(slot: OrderSlot): Outcome {
  const order = slot.order;
  if (!order) return slot.refused ? { state: 'none' } : { state: 'pending' };
  if (!FINAL_ORDER_STATUSES.includes(order.status)) return { state: 'pending' };
  const cost = order.total_cost_sun;
  if (typeof cost === 'number' && Number.isSafeInteger(cost) && cost > 0) return { state: 'spent', atomic: BigInt(cost) };
  // FILLED without its cost is a partial view: the full order (a lookup) has it.
  if (order.status === 'FILLED' || order.status === 'PARTIALLY_FILLED')
    return cost === undefined || cost === null ? { state: 'pending' } : { state: 'spent', atomic: 0n };
  return { state: 'none' }; // FAILED, CANCELLED, EXPIRED: the lock is released
}

function describeSlot(slot: OrderSlot, outcome: Outcome): string {
  if (slot.order) {
    const cost = outcome.state === 'spent' ? ` for ${sunToTrx(Number(outcome.atomic ?? 0n))} TRX` : '';
    return `order ${slot.order.id} ${slot.order.status === 'UNKNOWN' ? '(status unknown)' : slot.order.status}${cost}`;
  }
  if (slot.refused) return `${slot.resource} order refused by the service (idempotency key ${slot.key})`;
  return `${slot.resource} order requested, no answer yet (idempotency key ${slot.key})`;
}

/**
 * The session's fetch, noting each order request that leaves while a spend's journal records
 * (inside {@link Effects.run}): its Idempotency-Key and body, as sent.
 */
export function recordingFetch(inner: typeof fetch = (input, init) => globalThis.fetch(input, init)): typeof fetch {
  const path = ENDPOINTS.createOrder.path;
  return (input, init) => {
    const effects = recording.getStore();
    if (effects) {
      const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (method.toUpperCase() === 'POST' && new URL(url).pathname.replace(/\/+$/, '').endsWith(path)) {
        const key = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined)).get('idempotency-key');
        if (key) {
          effects.noteRequest(key, typeof init?.body === 'string' ? init.body : undefined);
          // Written down before it leaves: a lost answer is looked up by this key and body, by this process or the next.
          return effects.persist().then(() => inner(input, init));
        }
      }
    }
    return inner(input, init);
  };
}
