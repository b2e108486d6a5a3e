import { LIMITS } from '../../schemas/common.js';
import { Fifo } from '../shared/fifo.js';
import type { SignedTransaction } from '../../schemas/deposits.js';
import { decodeRawDataHex, encodeRawDataJson, hexToMemo, verifySignedTransaction } from '../../protocol/tron-transaction.js';
import { recoverSigner } from '../chain/signatures.js';
import { MockApiError } from '../shared/errors.js';
import type { Accounts, MockAccount } from './accounts.js';
import type { Currency } from './ledger.js';
import type { Rng } from './rng.js';
import type { Scheduler } from '../shared/scheduler.js';
import type { WebhookHub } from './webhooks.js';

/**
 * Deposits and withdrawals.
 *
 * Deposit submit runs the spec's checks in order (each failure is 400 VALIDATION_ERROR naming
 * the field): the transaction verifies (txID = sha256(raw_data_hex), or of raw_data encoded when
 * raw_data_hex is absent, as the spec's txID + raw_data + signature form allows; one contract, first
 * signature recovers to the owner), it is a TRX TransferContract, the destination is the
 * platform address, raw_data.data holds a memo, the memo is well formed and belongs to a
 * registered user, and the amount is at least 1 TRX. Then the simulated network may reject it
 * (502 BROADCAST_FAILED): expired, or already broadcast. An accepted deposit answers
 * `pending` and is credited `depositCreditMs` later, firing deposit.received.
 *
 * Withdrawals lock the amount at once (so balances never go negative), complete after
 * `withdrawalMs` (the amount leaves the ledger) and fire withdrawal.completed. The spec shows
 * no condition for FAILED; the mock never fails a withdrawal on its own.
 */

export interface MoneyTimings {
  /** Deposit accepted -> credited. Default 3 000 ms. */
  depositCreditMs: number;
  /** Withdrawal PENDING -> COMPLETED. Default 2 000 ms. */
  withdrawalMs: number;
}

/** Default delays of deposits and withdrawals (mock-clock ms). */
export const DEFAULT_MONEY_TIMINGS: MoneyTimings = { depositCreditMs: 3_000, withdrawalMs: 2_000 };

/** A deposit as the mock stores it (PENDING until credited). */
export interface DepositRecord {
  tx_id: string;
  account_id: string;
  amount_sun: number;
  memo: string;
  from_address: string | null;
  status: 'pending' | 'credited';
  created_at: number;
  credited_at: number | null;
}

/** A withdrawal as the mock stores it (PENDING, then COMPLETED or FAILED). */
export interface WithdrawalRecord {
  id: string;
  account_id: string;
  status: 'PENDING' | 'COMPLETED' | 'FAILED';
  amount: number;
  currency: Currency;
  address: string;
  created_at: number;
  completed_at: number | null;
  tx_id: string | null;
  /** Why the treasury failed it (FAILED only). */
  failure_reason?: string;
}

/** A node's broadcasttransaction: accepts and executes a signed transaction, or says why not. */
export type NetworkBroadcast = (tx: SignedTransaction) => { result: boolean; code?: string; message?: string };

/** Transfers the mock's own treasury makes on the simulated chain; each returns the transaction id. */
export interface TreasuryChain {
  /** The platform pays a completed withdrawal (TRX in SUN, USDT in 6-decimal units). */
  payOut(to: string, amount: number, currency: Currency, label: string): string;
  /** An on-chain TRX deposit to the platform address carrying `memo` (the /__mock deposit helper). */
  deposit(from: string, amountSun: number, memo: string, label: string): string;
}

interface Deps {
  /** Most withdrawals and deposits kept each; the oldest finished ones are forgotten first. @default Infinity */
  maxRecords?: number;
  rng: Rng;
  now: () => number;
  scheduler: Scheduler;
  accounts: Accounts;
  webhooks: WebhookHub;
  platformAddress: string;
  timings: MoneyTimings;
}

/** The sender of a simulated deposit when the test names none (a fixed, valid address). */
const DEPOSIT_SENDER = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';

export class Money {
  readonly deposits = new Map<string, DepositRecord>();
  readonly withdrawals = new Map<string, WithdrawalRecord>();
  /** Transaction ids the simulated network has accepted (deposits and /broadcast). */
  readonly broadcasted = new Set<string>();
  /**
   * The simulated TRON node, once the paid side attaches it: deposits are then broadcast on
   * its chain (balances, TAPOS, expiry and duplicate checks, visible to /wallet/* and rpc).
   * Without it, only the duplicate and expiry checks below apply.
   */
  #network: NetworkBroadcast | undefined;
  /**
   * When set, the treasury signer fails withdrawals (PENDING -> FAILED, funds released). The
   * spec lists FAILED but not what causes it; this lets a test drive that path on purpose.
   */
  failWithdrawals: string | false = false;

  /** Completed withdrawals forgotten by retention, per `${account} ${currency}` (the books still count them). */
  readonly evictedWithdrawn = new Map<string, number>();
  readonly #withdrawalAge = new Fifo<WithdrawalRecord>();
  readonly #depositAge = new Fifo<DepositRecord>();

  constructor(private readonly deps: Deps) {}

  /** Retention: past `maxRecords`, forget the oldest finished withdrawals and credited deposits (constant work per call). */
  #trim(): void {
    const max = this.deps.maxRecords ?? Infinity;
    for (let moves = 0; this.withdrawals.size > max; ) {
      const oldest = this.#withdrawalAge.shift();
      if (!oldest) break;
      if (oldest.status === 'PENDING') {
        this.#withdrawalAge.push(oldest);
        if (++moves >= 4) break;
        continue;
      }
      this.withdrawals.delete(oldest.id);
      if (oldest.status === 'COMPLETED') {
        const key = `${oldest.account_id} ${oldest.currency}`;
        this.evictedWithdrawn.set(key, (this.evictedWithdrawn.get(key) ?? 0) + oldest.amount);
      }
    }
    for (let moves = 0; this.deposits.size > max; ) {
      const oldest = this.#depositAge.shift();
      if (!oldest) break;
      if (oldest.status === 'pending') {
        this.#depositAge.push(oldest);
        if (++moves >= 4) break;
        continue;
      }
      this.deposits.delete(oldest.tx_id);
    }
  }

  attachNetwork(broadcast: NetworkBroadcast): void {
    this.#network = broadcast;
  }

  /** Withdrawals and simulated deposits become transactions on this chain (ids any node call finds). */
  attachTreasury(chain: TreasuryChain): void {
    this.#treasury = chain;
  }

  #treasury: TreasuryChain | undefined;

  /** `submitDeposit` after schema validation. */
  submitDeposit(tx: SignedTransaction): DepositRecord {
    const verified = verifySignedTransaction(tx, recoverSigner);
    if (!verified.ok) {
      throw invalid('signed_tx', `Not a valid signed transaction (${verified.reason})`, { reason: verified.reason });
    }
    const d = verified.decoded;
    if (d.contractType !== 'TransferContract' || d.amountSun === undefined || !d.toAddress) {
      throw invalid('signed_tx.raw_data.contract', `Not a TRX transfer (contract ${d.contractType})`, { reason: 'not_trx_transfer' });
    }
    if (d.toAddress !== this.deps.platformAddress) {
      throw invalid('signed_tx.raw_data.contract', `Wrong destination ${d.toAddress}: deposits go to ${this.deps.platformAddress}`, {
        reason: 'wrong_destination',
        expected: this.deps.platformAddress,
      });
    }
    if (!d.dataHex) throw invalid('signed_tx.raw_data.data', 'Missing memo: raw_data.data must hold your deposit memo', { reason: 'missing_memo' });
    const memo = hexToMemo(d.dataHex).trim();
    if (!this.deps.accounts.isMemoShaped(memo)) {
      throw invalid('signed_tx.raw_data.data', `Not a deposit memo: ${JSON.stringify(memo.slice(0, 40))}`, { reason: 'invalid_memo' });
    }
    const account = this.deps.accounts.byMemo(memo);
    if (!account) throw invalid('signed_tx.raw_data.data', `Memo ${memo} belongs to no registered user`, { reason: 'unknown_memo' });
    if (d.amountSun < BigInt(LIMITS.MIN_DEPOSIT_SUN) || d.amountSun > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw invalid('signed_tx.raw_data.contract', `Deposit amount must be at least ${LIMITS.MIN_DEPOSIT_SUN} SUN`, {
        reason: 'amount',
        min: LIMITS.MIN_DEPOSIT_SUN,
      });
    }
    if (!account.ledger.canCredit('TRX', Number(d.amountSun))) {
      throw invalid('signed_tx.raw_data.contract', 'The amount would take the balance beyond exact integer range', { reason: 'amount' });
    }
    this.#broadcast(tx, d.txID, d.expiration);
    return this.#record(account, d.txID, Number(d.amountSun), memo, verified.signer);
  }

  /**
   * The broadcast endpoint: any valid signed transaction; the network checks apply (a
   * multi-signature transaction's signatures are the network's to weigh). The txID
   * covers the signed content, so a transaction the network already accepted (a retry) answers
   * the same tx_id again instead of the network's duplicate error. Answers the natural design's
   * `{ tx_id, status }` only (the table's schema).
   */
  broadcast(tx: SignedTransaction): { tx_id: string; status: 'pending' } {
    const verified = verifySignedTransaction(tx, recoverSigner);
    let decoded = verified.ok ? verified.decoded : undefined;
    if (!verified.ok && verified.reason === 'signer_not_owner') {
      // A multi-signature transaction (it names a permission, or carries several signatures) is
      // signed by that permission's keys, not the owner's: the network weighs them (chain/permissions.ts).
      const d = decodeRawDataHex(tx.raw_data_hex ?? encodeRawDataJson(tx.raw_data));
      if (d.permissionId || (tx.signature?.length ?? 0) > 1) decoded = d;
    }
    if (!decoded)
      throw invalid('signed_tx', `Not a valid signed transaction (${verified.ok ? '' : verified.reason})`, { reason: verified.ok ? '' : verified.reason });
    const id = decoded.txID.toLowerCase();
    if (!this.broadcasted.has(id)) this.#broadcast(tx, id, decoded.expiration);
    return { tx_id: id, status: 'pending' };
  }

  /** Test helper: an on-chain deposit that arrived with the account's memo (no signature needed). */
  simulateDeposit(account: MockAccount, amountSun: number, fromAddress?: string): DepositRecord {
    if (!Number.isSafeInteger(amountSun) || amountSun <= 0) throw invalid('amount_sun', 'amount_sun must be a positive integer');
    if (!account.ledger.canCredit('TRX', amountSun)) throw invalid('amount_sun', 'The amount would take the balance beyond exact integer range');
    const label = `deposit ${this.deposits.size + 1}`;
    const txId = this.#treasury ? this.#treasury.deposit(fromAddress ?? DEPOSIT_SENDER, amountSun, account.memo, label) : this.deps.rng.hex(32);
    this.broadcasted.add(txId);
    return this.#record(account, txId, amountSun, account.memo, fromAddress ?? null);
  }

  /** POST /withdraw after validation: locks the amount (INSUFFICIENT_BALANCE when short). */
  withdraw(account: MockAccount, input: { address: string; amount: number; currency: Currency }): WithdrawalRecord {
    const record: WithdrawalRecord = {
      id: this.deps.rng.uuid(),
      account_id: account.id,
      status: 'PENDING',
      amount: input.amount,
      currency: input.currency,
      address: input.address,
      created_at: this.deps.now(),
      completed_at: null,
      tx_id: null,
    };
    account.ledger.lock(input.currency, input.amount, `withdrawal:${record.id}`);
    this.withdrawals.set(record.id, record);
    this.#withdrawalAge.push(record);
    this.#trim();
    this.deps.scheduler.schedule(this.deps.now() + this.deps.timings.withdrawalMs, `withdraw ${record.id}`, () => this.#settleWithdrawal(account, record));
    return record;
  }

  /** A pending deposit is credited. */
  #credit(account: MockAccount, record: DepositRecord): void {
    account.ledger.credit('TRX', record.amount_sun, `deposit:${record.tx_id}`, true);
    record.status = 'credited';
    record.credited_at = this.deps.now();
    this.deps.webhooks.emit(account.id, 'deposit.received', {
      tx_id: record.tx_id,
      amount_sun: record.amount_sun,
      currency: 'TRX',
      memo: record.memo,
      ...(record.from_address ? { from_address: record.from_address } : {}),
    });
  }

  /** Deposits, withdrawals, accepted transaction ids, the treasury switch (see persist.ts). */
  dump() {
    return {
      deposits: this.deposits,
      withdrawals: this.withdrawals,
      broadcasted: this.broadcasted,
      fail_withdrawals: this.failWithdrawals,
      evicted_withdrawn: this.evictedWithdrawn,
    };
  }

  /** Load a {@link dump}; pending deposits and withdrawals are scheduled again at their due time. */
  load(d: ReturnType<Money['dump']>): void {
    this.deposits.clear();
    this.withdrawals.clear();
    for (const id of d.broadcasted) this.broadcasted.add(id);
    for (const [key, amount] of d.evicted_withdrawn ?? []) this.evictedWithdrawn.set(key, amount);
    this.failWithdrawals = d.fail_withdrawals;
    for (const [id, record] of d.deposits) {
      this.deposits.set(id, record);
      this.#depositAge.push(record);
      const account = this.deps.accounts.get(record.account_id);
      if (account && record.status === 'pending') {
        this.deps.scheduler.schedule(record.created_at + this.deps.timings.depositCreditMs, `credit ${record.tx_id}`, () => this.#credit(account, record));
      }
    }
    for (const [id, record] of d.withdrawals) {
      this.withdrawals.set(id, record);
      this.#withdrawalAge.push(record);
      const account = this.deps.accounts.get(record.account_id);
      if (account && record.status === 'PENDING') {
        this.deps.scheduler.schedule(record.created_at + this.deps.timings.withdrawalMs, `withdraw ${record.id}`, () =>
          this.#settleWithdrawal(account, record),
        );
      }
    }
  }

  /** A PENDING withdrawal completes (or fails, when a test made the treasury fail). */
  #settleWithdrawal(account: MockAccount, record: WithdrawalRecord): void {
    if (record.status !== 'PENDING') return;
    if (this.failWithdrawals) {
      account.ledger.release(`withdrawal:${record.id}`);
      record.status = 'FAILED';
      record.completed_at = this.deps.now();
      record.failure_reason = this.failWithdrawals;
      return;
    }
    account.ledger.withdraw(`withdrawal:${record.id}`, record.amount);
    record.status = 'COMPLETED';
    record.completed_at = this.deps.now();
    record.tx_id = this.#treasury ? this.#treasury.payOut(record.address, record.amount, record.currency, `withdrawal ${record.id}`) : this.deps.rng.hex(32);
    this.deps.webhooks.emit(account.id, 'withdrawal.completed', { ...withdrawalShape(record), tx_id: record.tx_id });
  }

  #broadcast(tx: SignedTransaction, txId: string, expiration: number): void {
    const id = txId.toLowerCase();
    if (this.#network) {
      const outcome = this.#network(tx);
      if (!outcome.result) {
        throw new MockApiError(
          'BROADCAST_FAILED',
          `The network rejected the transaction: ${outcome.code ?? 'ERROR'}${outcome.message ? ` (${outcome.message})` : ''}`,
          {
            reason: outcome.code ?? 'ERROR',
            tx_id: id,
          },
        );
      }
      this.broadcasted.add(id);
      return;
    }
    if (this.broadcasted.has(id)) {
      throw new MockApiError('BROADCAST_FAILED', 'The network rejected the transaction: DUP_TRANSACTION_ERROR (already broadcast)', {
        reason: 'DUP_TRANSACTION_ERROR',
        tx_id: id,
      });
    }
    if (expiration <= this.deps.now()) {
      throw new MockApiError('BROADCAST_FAILED', 'The network rejected the transaction: TRANSACTION_EXPIRATION_ERROR', {
        reason: 'TRANSACTION_EXPIRATION_ERROR',
        expiration,
      });
    }
    this.broadcasted.add(id);
  }

  #record(account: MockAccount, txId: string, amount: number, memo: string, from: string | null): DepositRecord {
    const record: DepositRecord = {
      tx_id: txId.toLowerCase(),
      account_id: account.id,
      amount_sun: amount,
      memo,
      from_address: from,
      status: 'pending',
      created_at: this.deps.now(),
      credited_at: null,
    };
    account.ledger.expectCredit('TRX', amount); // checked by the callers: cannot fail here
    this.deposits.set(record.tx_id, record);
    this.#depositAge.push(record);
    this.#trim();
    this.deps.scheduler.schedule(this.deps.now() + this.deps.timings.depositCreditMs, `credit ${record.tx_id}`, () => this.#credit(account, record));
    return record;
  }
}

/** GET /__mock/withdrawals/:id: the withdrawal with what the service's answer does not carry. */
export function withdrawalMockView(w: WithdrawalRecord) {
  return { ...withdrawalShape(w), account_id: w.account_id, created_at: new Date(w.created_at).toISOString(), tx_id: w.tx_id };
}

/** POST /withdraw: the spec's Withdrawal fields, nothing else. */
export function withdrawalShape(w: WithdrawalRecord) {
  return {
    id: w.id,
    status: w.status,
    amount: w.amount,
    currency: w.currency,
    address: w.address,
  };
}

function invalid(field: string, message: string, extra: Record<string, unknown> = {}): MockApiError {
  return new MockApiError('VALIDATION_ERROR', `${field}: ${message}`, { field, ...extra });
}
