/**
 * Watches, one-time receives and invoices, fed by the simulated chain's TRC-20 Transfer events.
 * Detection is synchronous with the block that carries the transfer; the webhook is handed to
 * the mock's delivery (signed, retried) at once, so it lands well within the spec's 3 seconds.
 * Expiry uses the mock clock: a watch stops after 24 h of mock time, a receive after its
 * timeout, an invoice after expires_in_seconds.
 * @module
 */
import { atomicToDecimal, decimalToAtomic } from '../../utils/units.js';
import type { SimulatedChain } from '../chain/chain.js';
import type { Trc20Transfer } from '../chain/types.js';

export interface WatchRecord {
  watch_id: string;
  address: string;
  webhook_url: string;
  event_types: string[];
  token_contract: string | null;
  min_amount: string | null;
  created_at: number;
  expires_at: number;
  secret: string;
  deliveries: number;
}

export interface ReceiveRecord {
  payment_id: string;
  watch_address: string;
  expected_amount: string;
  token_contract: string;
  tolerance_pct: number;
  webhook_url: string | null;
  created_at: number;
  expires_at: number;
  secret: string;
  status: 'waiting' | 'received' | 'expired';
  payment: { txid: string; from: string; amount: string; detected_at: string } | null;
}

export interface InvoiceRecord {
  invoice_id: string;
  amount_usdt: string;
  description: string | null;
  pay_to_address: string;
  token_contract: string;
  created_at: number;
  expires_at: number;
  status: 'pending' | 'paid' | 'expired';
  paid_total: string;
  paid_at: string | null;
  payments: Array<{ txid: string; from: string; amount: string; detected_at: string }>;
}

export type Deliver = (url: string, body: object, secret: string, event: string) => void;

const iso = (ms: number) => new Date(ms).toISOString();

export class Watchers {
  readonly watches = new Map<string, WatchRecord>();
  readonly receives = new Map<string, ReceiveRecord>();
  readonly invoices = new Map<string, InvoiceRecord>();

  constructor(
    private readonly chain: SimulatedChain,
    private readonly now: () => number,
    private readonly deliver: Deliver,
  ) {
    chain.onTransfer((t) => this.#onTransfer(t));
  }

  watchStatus(w: WatchRecord): 'active' | 'expired' {
    return this.now() >= w.expires_at ? 'expired' : 'active';
  }

  receiveStatus(r: ReceiveRecord): ReceiveRecord['status'] {
    if (r.status === 'waiting' && this.now() >= r.expires_at) r.status = 'expired';
    return r.status;
  }

  invoiceStatus(i: InvoiceRecord): InvoiceRecord['status'] {
    if (i.status === 'pending' && this.now() >= i.expires_at) i.status = 'expired';
    return i.status;
  }

  #onTransfer(t: Trc20Transfer): void {
    const symbol = t.token.symbol.toLowerCase();
    const amount = atomicToDecimal(t.amount, t.token.decimals);
    const detected_at = iso(this.now());
    for (const w of this.watches.values()) {
      if (w.address !== t.to || this.watchStatus(w) !== 'active') continue;
      if (w.token_contract && w.token_contract !== t.token.address) continue;
      const specific = `${symbol}_incoming`;
      const event = w.event_types.includes(specific) ? specific : w.event_types.includes('trc20_incoming') ? 'trc20_incoming' : undefined;
      if (!event) continue;
      if (w.min_amount && t.amount < decimalToAtomic(w.min_amount, t.token.decimals)) continue;
      w.deliveries++;
      this.deliver(
        w.webhook_url,
        {
          event,
          data: {
            watch_id: w.watch_id,
            address: w.address,
            txid: t.txid,
            from: t.from,
            to: t.to,
            token_contract: t.token.address,
            token_symbol: t.token.symbol,
            amount,
            amount_atomic: t.amount.toString(),
            block_number: t.block,
            detected_at,
          },
          timestamp: Math.floor(this.now() / 1000),
        },
        w.secret,
        event,
      );
    }
    for (const r of this.receives.values()) {
      if (r.watch_address !== t.to || r.token_contract !== t.token.address || this.receiveStatus(r) !== 'waiting') continue;
      const expected = decimalToAtomic(r.expected_amount, t.token.decimals);
      // tolerance in basis points of a percent, exact: |got - expected| * 10000 <= expected * tol * 100
      const tolerance = (expected * BigInt(Math.round(r.tolerance_pct * 100))) / 10_000n;
      const diff = t.amount > expected ? t.amount - expected : expected - t.amount;
      if (diff > tolerance) continue;
      r.status = 'received';
      r.payment = { txid: t.txid, from: t.from, amount, detected_at };
      if (r.webhook_url) {
        this.deliver(
          r.webhook_url,
          {
            event: 'payment.received',
            data: {
              payment_id: r.payment_id,
              watch_address: r.watch_address,
              expected_amount: r.expected_amount,
              amount,
              token_contract: t.token.address,
              token_symbol: t.token.symbol,
              txid: t.txid,
              from: t.from,
              detected_at,
            },
            timestamp: Math.floor(this.now() / 1000),
          },
          r.secret,
          'payment.received',
        );
      }
    }
    // An invoice's address may be shared (caller-chosen pay_to_address): oldest pending first.
    const invoice = [...this.invoices.values()]
      .filter((i) => i.pay_to_address === t.to && i.token_contract === t.token.address && this.invoiceStatus(i) === 'pending')
      .sort((a, b) => a.created_at - b.created_at)[0];
    if (invoice) {
      invoice.payments.push({ txid: t.txid, from: t.from, amount, detected_at });
      const total = decimalToAtomic(invoice.paid_total, t.token.decimals) + t.amount;
      invoice.paid_total = atomicToDecimal(total, t.token.decimals);
      if (total >= decimalToAtomic(invoice.amount_usdt, t.token.decimals)) {
        invoice.status = 'paid';
        invoice.paid_at = detected_at;
      }
    }
  }

  watchView(w: WatchRecord) {
    return {
      watch_id: w.watch_id,
      address: w.address,
      webhook_url: w.webhook_url,
      event_types: w.event_types,
      ...(w.token_contract ? { token_contract: w.token_contract } : {}),
      ...(w.min_amount ? { min_amount: w.min_amount } : {}),
      status: this.watchStatus(w),
      created_at: iso(w.created_at),
      expires_at: iso(w.expires_at),
      deliveries: w.deliveries,
      // How deliveries are signed: the service's watch result does not carry it (the spec's
      // watch result is watch_id, expires_at, status), so tests read it here.
      webhook_secret: w.secret,
    };
  }

  receiveView(r: ReceiveRecord) {
    return {
      payment_id: r.payment_id,
      watch_address: r.watch_address,
      expected_amount: r.expected_amount,
      token_contract: r.token_contract,
      tolerance_pct: r.tolerance_pct,
      status: this.receiveStatus(r),
      expires_at: iso(r.expires_at),
      payment: r.payment,
      // How the one delivery is signed (not in the service's receive result).
      webhook_secret: r.secret,
    };
  }

  invoiceView(i: InvoiceRecord) {
    return {
      invoice_id: i.invoice_id,
      amount_usdt: i.amount_usdt,
      ...(i.description ? { description: i.description } : {}),
      pay_to_address: i.pay_to_address,
      token_contract: i.token_contract,
      status: this.invoiceStatus(i),
      paid_total: i.paid_total,
      paid_at: i.paid_at,
      payments: i.payments,
      created_at: iso(i.created_at),
      expires_at: iso(i.expires_at),
    };
  }
}
