import { PERMISSIONS } from '../../schemas/keys.js';
import { type AuthContext, Accounts, type MockAccount } from './accounts.js';
import type { HeaderReader } from '../shared/headers.js';
import { memoToHex } from '../../protocol/tron-transaction.js';
import { PLATFORM_ADDRESS, providerAddress } from './addresses.js';
import { type MockClock, resolveClock, restoredClock } from './clock.js';
import { ClockDriver } from './clock-driver.js';
import { IdempotencyStore } from './idempotency.js';
import { checkInvariants } from './invariants.js';
import type { Currency } from './ledger.js';
import { Market } from './market.js';
import type { ProviderOverride } from './market-pricing.js';
import { DEFAULT_MONEY_TIMINGS, type DepositRecord, Money, withdrawalMockView } from './money.js';
import { OrderEngine } from './orders.js';
import { DEFAULT_ORDER_TIMINGS } from './order-rules.js';
import { orderMockView } from './order-wire.js';
import { PROCESS_SALT, type Rng, createRng, hash32 } from './rng.js';
import { type RetentionLimits, resolveRetention } from './retention.js';
import { Scheduler } from '../shared/scheduler.js';
import { sampleEventData } from './samples.js';
import { loadState, saveState } from './snapshot.js';
import type { CreateAccountOptions, CreatedAccount, InvariantReport, MockStateOptions, MockTimings, SavedState } from './state-options.js';
import { WebhookHub } from './webhooks.js';
import type { WebhookDelivery, WebhookRecord } from './webhook-records.js';
import type { WebhookEventType } from '../../schemas/webhooks.js';
import { SimulatedChain } from '../chain/chain.js';
import { UsagePatterns } from '../chain/usage.js';
import { DepositPatterns } from '../chain/deposits.js';
import { SANDBOX_TRX_SUN, SANDBOX_USDT_ATOMIC, sandboxAccounts } from '../chain/sandbox.js';
import { PaidMock } from '../x402/paid.js';
import { isLoopbackHost } from '../../internal/net.js';

/** The loopback test webhook delivery uses (exported for the mock's users). */
export { isLoopbackHost };

export type { MockTimings, MockStateOptions, SavedState, CreateAccountOptions, CreatedAccount, InvariantReport } from './state-options.js';

const DEFAULT_DEMO = { trx_sun: 1_000_000_000, usdt: 100_000_000 };

/**
 * The whole simulated service: accounts and keys, the market, orders, money, webhooks, on one
 * clock. Handlers read and change it; tests and other parts of the mock (the x402 side) use
 * its methods directly.
 */
export class MockState {
  readonly seed: number;
  /** The mock clock: `now()`, `advance(ms)`. Prefer `state.advance(ms)`, which also runs due work. */
  readonly clock: MockClock;
  /** Seeded random stream (ids, secrets). Use `rng.fork(label)` for an independent stream. */
  readonly rng: Rng;
  /** Timed work on the mock clock; `schedule(at, label, fn)` for other parts of the mock. */
  readonly scheduler = new Scheduler();
  /** Providers and current prices: `market.snapshot()`, `market.prices()`, `market.select(q)`. */
  readonly market: Market;
  /** Accounts, keys, JWTs, memos. */
  readonly accounts: Accounts;
  readonly orders: OrderEngine;
  /** Deposits, withdrawals, and the simulated network's accepted transaction ids. */
  readonly money: Money;
  readonly webhooks: WebhookHub;
  readonly idempotency: IdempotencyStore;
  /** The simulated TRON chain: deposits, fills, paid sends and the node routes all land on it. */
  readonly chain: SimulatedChain;
  /** Addresses spending energy over time on the mock clock (`POST /__mock/chain/usage`). */
  readonly usage: UsagePatterns;
  /** Customers paying into deposit addresses over time on the mock clock (`POST /__mock/chain/deposits`). */
  readonly deposits: DepositPatterns;
  /** The paid side (/x402/tron/*): paywall, watchers, DEX, on this state's chain and market. */
  readonly paid: PaidMock;
  readonly timings: MockTimings;
  /** The retention limits in force (see {@link MockStateOptions.retain}). */
  readonly retention: RetentionLimits;
  /** TRON address users deposit TRX to (base58). */
  readonly platformAddress: string;
  /** The seeded demo account (every permission, 1 000 TRX by default). */
  readonly demo: CreatedAccount;
  /** Errors thrown by scheduled tasks (always empty unless there is a bug). */
  readonly taskErrors: unknown[] = [];
  readonly #samples: Rng;
  /** Restores so far (see SavedState.epoch). */
  readonly epoch: number;
  /** Runs due work: on requests, on advance(), on a real clock's timer. */
  readonly #driver: ClockDriver;

  constructor(options: MockStateOptions = {}) {
    const saved = options.restore;
    this.seed = saved?.seed ?? options.seed ?? 1;
    this.epoch = saved ? saved.epoch + 1 : 0;
    this.clock = saved ? restoredClock(options.clock, saved.clock) : resolveClock(options.clock);
    this.rng = createRng(hash32(this.seed, PROCESS_SALT, this.epoch));
    this.#samples = this.rng.fork('samples');
    const now = () => this.clock.now();
    this.timings = { ...DEFAULT_ORDER_TIMINGS, ...DEFAULT_MONEY_TIMINGS, ...options.timings };
    this.retention = resolveRetention(options.retain);
    this.platformAddress = PLATFORM_ADDRESS;
    this.market = new Market(this.seed, now, options.market);
    this.accounts = new Accounts(this.rng.fork('accounts'), now);
    const fetchImpl = options.fetch;
    const anywhere = (options.webhookTargets ?? (fetchImpl ? 'any' : 'loopback')) === 'any';
    this.webhooks = new WebhookHub({
      rng: this.rng.fork('webhooks'),
      now,
      scheduler: this.scheduler,
      fetch: () => fetchImpl ?? globalThis.fetch,
      mayDeliverTo: (url) => anywhere || isLoopbackHost(url.hostname),
      maxDeliveries: this.retention.deliveries,
      ...(options.webhookTimeoutMs !== undefined ? { timeoutMs: options.webhookTimeoutMs } : {}),
    });
    this.orders = new OrderEngine({
      rng: this.rng.fork('orders'),
      now,
      scheduler: this.scheduler,
      market: this.market,
      webhooks: this.webhooks,
      account: (id) => this.accounts.get(id),
      timings: this.timings,
      maxOrders: this.retention.orders,
      delegate: (fill) =>
        this.chain.delegateResource({
          from: providerAddress(fill.provider),
          to: fill.target,
          resource: fill.resource,
          amount: fill.amount,
          lockSec: fill.duration_sec,
          success: fill.success,
          label: fill.label,
        }).txid,
      targetRefusal: (address) => this.chain.delegationRefusal(address),
    });
    this.orders.onRentalEnd = (target, resource, amount) => this.chain.undelegateResource(target, resource, amount);
    this.money = new Money({
      maxRecords: this.retention.orders,
      rng: this.rng.fork('money'),
      now,
      scheduler: this.scheduler,
      accounts: this.accounts,
      webhooks: this.webhooks,
      platformAddress: this.platformAddress,
      timings: this.timings,
    });
    this.idempotency = new IdempotencyStore(now, undefined, this.retention.idempotencyKeys);
    this.chain = new SimulatedChain({
      now,
      seed: this.seed,
      broadcasted: this.money.broadcasted,
      maxTransactions: this.retention.transactions,
      ...(saved ? { genesisTime: saved.chain.genesis_time } : {}),
    });
    this.usage = new UsagePatterns(this.chain, this.scheduler, now);
    this.deposits = new DepositPatterns(this.chain, this.scheduler, now, this.rng.fork('deposit patterns').next);
    // Deposits submitted to the account API land on this chain. Test wallets have no history, so a
    // sender is funded for a TRX shortfall; a TRC-20 transfer moves only what the sender holds.
    this.money.attachNetwork((tx) => this.chain.broadcast(tx as never, { fundShortfall: 'trx' }));
    // Withdrawals and simulated deposits are transactions on the same chain, so balances agree.
    const usdt = this.chain.token('USDT')!;
    this.money.attachTreasury({
      payOut: (to, amount, currency, label) =>
        currency === 'TRX'
          ? this.chain.syntheticTrxTransfer({ from: this.platformAddress, to, amountSun: BigInt(amount), label }).txid
          : this.chain.syntheticTransfer({ token: usdt, from: this.platformAddress, to, amount: BigInt(amount), mint: true, label }).txid,
      deposit: (from, amountSun, memo, label) =>
        this.chain.syntheticTrxTransfer({ from, to: this.platformAddress, amountSun: BigInt(amountSun), memo, label }).txid,
    });
    const paidRng = this.rng.fork('x402');
    this.paid = new PaidMock(
      {
        now,
        hex: (bytes) => paidRng.hex(bytes),
        chain: this.chain,
        market: this.market,
        deliverWebhook: (url, body, secret, event) => this.deliverWebhook(url, body, secret, event),
        tick: () => this.tick(),
      },
      options.x402,
    );
    this.scheduler.onError = (error) => void this.taskErrors.push(error);
    this.#driver = new ClockDriver(this.clock, this.scheduler, this.webhooks);
    this.scheduler.onChange = () => this.#driver.arm();
    if (saved) {
      loadState(this, saved);
      this.demo = saved.demo;
    } else {
      const demo = { ...DEFAULT_DEMO, ...options.demoBalance };
      // The demo key comes from the seed alone (no process salt): the same seed gives the same
      // key across restarts, so a script or a saved profile keeps working.
      this.demo = this.createAccount({ name: 'demo', trx_sun: demo.trx_sun, usdt: demo.usdt }, createRng(hash32(this.seed, 'demo-api-key')));
      // The sandbox's funded test accounts (`trx-rent mock accounts`): keys from the seed alone, TRX and USDT at genesis.
      for (const { address } of sandboxAccounts(this.seed)) this.chain.allocate(address, SANDBOX_TRX_SUN, [[usdt, SANDBOX_USDT_ATOMIC]]);
    }
  }

  /**
   * The whole world as plain data, for {@link MockStateOptions.restore} (`persist.ts` writes it to
   * a file). The paid side's records (x402 invoices, permits, DEX pools) are not part of it.
   */
  snapshot(): SavedState {
    return saveState(this);
  }

  /** The mock clock's current time (ms since the epoch). */
  now(): number {
    return this.clock.now();
  }

  /** Run every task that is due. Handlers call it on each request; timers call it on a real clock. */
  tick(): void {
    this.#driver.tick();
  }

  /**
   * Move the clock forward by `ms`, running due work in time order at the time it is due
   * (order steps, credits, price polls, webhook attempts and their retries), and waiting for
   * webhook attempts to finish so their retries land at the right time. Bounded.
   */
  async advance(ms: number): Promise<void> {
    return this.#driver.advance(ms);
  }

  /** Resolves when no webhook attempt is in flight. */
  idle(): Promise<void> {
    return this.webhooks.idle();
  }

  /** A new account with an opening balance and a first API key; returns everything needed to call the API as it. */
  createAccount(options: CreateAccountOptions = {}, keySecrets?: Rng): CreatedAccount {
    const account = this.accounts.create(options.name);
    if (options.trx_sun) account.ledger.credit('TRX', options.trx_sun, 'opening');
    if (options.usdt) account.ledger.credit('USDT', options.usdt, 'opening');
    const key = this.accounts.createKey(account, options.name ?? 'default', options.permissions ?? [...PERMISSIONS], keySecrets);
    return {
      account_id: account.id,
      api_key: key.secret,
      key_id: key.id,
      jwt: this.accounts.issueJwt(account),
      memo: account.memo,
      memo_hex: memoToHex(account.memo),
    };
  }

  /** The account with this id. */
  getAccount(id: string): MockAccount | undefined {
    return this.accounts.get(id);
  }

  /** The account an API key secret belongs to (revoked keys included). */
  findAccountByApiKey(secret: string): MockAccount | undefined {
    const key = this.accounts.keyBySecret(secret);
    return key ? this.accounts.get(key.account_id) : undefined;
  }

  /** The account a deposit memo belongs to. */
  findAccountByMemo(memo: string): MockAccount | undefined {
    return this.accounts.byMemo(memo);
  }

  /** Resolve request headers to an account (X-API-Key or Authorization: Bearer). */
  authenticate(headers: HeaderReader): AuthContext | undefined {
    return this.accounts.authenticate(headers);
  }

  /** Add money to an account (a test credit, not a deposit: no webhook). */
  credit(accountId: string, amount: number, currency: Currency = 'TRX'): void {
    const account = this.#account(accountId);
    account.ledger.credit(currency, amount, 'test-credit');
  }

  /** GET /balance body for an account. */
  balance(accountId: string): { trx: number; usdt: number; trx_locked: number; updated_at: string } {
    const { ledger } = this.#account(accountId);
    return {
      trx: ledger.available('TRX'),
      usdt: ledger.available('USDT'),
      trx_locked: ledger.locked('TRX'),
      updated_at: new Date(ledger.updatedAt).toISOString(),
    };
  }

  /**
   * An on-chain TRX deposit carrying the account's memo arrived (no signature needed). It is
   * credited after `depositCreditMs` and fires deposit.received, like a submitted one.
   */
  simulateDeposit(input: { account_id?: string; memo?: string; amount_sun: number; from_address?: string }): DepositRecord {
    const account = input.memo !== undefined ? this.accounts.byMemo(input.memo) : this.accounts.get(input.account_id ?? this.demo.account_id);
    if (!account) throw new RangeError(`No account for ${input.memo ?? input.account_id}`);
    const record = this.money.simulateDeposit(account, input.amount_sun, input.from_address);
    this.tick();
    return record;
  }

  /** What the mock knows of an order beyond the service's answer (`GET /__mock/orders/:id`); undefined if unknown. */
  orderDetails(id: string): ReturnType<typeof orderMockView> | undefined {
    const order = this.orders.find(id);
    return order && orderMockView(order);
  }

  /** A withdrawal with its creation time and transaction (`GET /__mock/withdrawals/:id`); undefined if unknown. */
  withdrawalDetails(id: string): ReturnType<typeof withdrawalMockView> | undefined {
    const withdrawal = this.money.withdrawals.get(id);
    return withdrawal && withdrawalMockView(withdrawal);
  }

  /** Webhook deliveries made so far, oldest first, optionally filtered (GET /__mock/webhooks/deliveries). */
  webhookDeliveries(filter?: { webhook_id?: string; event?: string; account_id?: string; status?: string }): WebhookDelivery[] {
    return this.webhooks.deliveries(filter);
  }

  /**
   * POST a signed body to `url` with the mock's delivery policy (10 s timeout, attempts at once,
   * +30 s, +5 min on the mock clock). `X-Service-Signature` is `signWebhookPayload(body, secret)`.
   */
  deliverWebhook(url: string, body: string | object, secret: string, event?: string): WebhookDelivery {
    const delivery = this.webhooks.deliver(url, body, secret, event);
    this.tick();
    return delivery;
  }

  /**
   * Fire `event` at the account's webhooks subscribed to it (like `stripe trigger`): with `data`,
   * or a sample of the event's real shape. Nothing else changes. Default account: the demo one.
   */
  triggerWebhook(event: WebhookEventType, options: { account_id?: string; data?: unknown } = {}): WebhookDelivery[] {
    const account = this.#account(options.account_id ?? this.demo.account_id);
    const data = options.data ?? sampleEventData(event, account, this.#samples, this.now());
    const deliveries = this.webhooks.emit(account.id, event, data);
    this.tick();
    return deliveries;
  }

  /** Turn a deactivated webhook back on; undefined when there is no such webhook. */
  reactivateWebhook(id: string): WebhookRecord | undefined {
    return this.webhooks.reactivate(id);
  }

  /**
   * Send a past delivery's event again (a new delivery, re-stamped, to the webhook's current URL).
   * Undefined for an unknown delivery; throws RedeliverError when its webhook is inactive or deleted.
   */
  redeliverWebhook(deliveryId: string): WebhookDelivery | undefined {
    const delivery = this.webhooks.redeliver(deliveryId);
    if (delivery) this.tick();
    return delivery;
  }

  /**
   * Make the treasury fail withdrawals from now on (PENDING -> FAILED when they would complete,
   * funds released back to available), with `reason`; null makes it pay out again.
   */
  setWithdrawalFailure(reason: string | null): void {
    this.money.failWithdrawals = reason ?? false;
  }

  /** Change a provider for tests (offline, cheaper, out of stock, failing delegations); null clears. */
  setProviderOverride(providerId: string, override: ProviderOverride | null): void {
    this.market.setOverride(providerId, override);
    this.tick();
  }

  /**
   * Every account's books balance (credited = available + locked + spent + withdrawn, no
   * negative or fractional amounts), locks match open orders and pending withdrawals, spent
   * matches confirmed fills, withdrawn matches completed withdrawals, and no task threw.
   */
  checkInvariants(): InvariantReport {
    return checkInvariants(this);
  }

  /** Stop timers and abort webhook attempts in flight. */
  dispose(): void {
    this.#driver.dispose();
    this.webhooks.dispose();
  }

  #account(id: string): MockAccount {
    const account = this.accounts.get(id);
    if (!account) throw new RangeError(`No account ${id}`);
    return account;
  }
}

/** A new simulated service: a seeded demo account, the market, the chain, on one clock. */
export function createMockState(options?: MockStateOptions): MockState {
  return new MockState(options);
}

export type { AuthContext, MockAccount, ApiKeyRecord } from './accounts.js';
export { JWT_LIFETIME_MS } from './accounts.js';
export type { MockClock, ClockOption } from './clock.js';
export { createManualClock, createRealClock } from './clock.js';
export type { Currency } from './ledger.js';
export type { MarketOptions, ProviderOverride, MarketSnapshot, ProviderSnapshot } from './market-pricing.js';
export type { Selection, SelectionQuery, Candidate, PlanItem } from './market-selection.js';
export { MARKET_RULES, PROVIDERS } from './market-providers.js';
export type { RetentionLimits, RetentionOption } from './retention.js';
export { RETENTION_DEFAULTS } from './retention.js';
export type { DepositRecord, WithdrawalRecord, MoneyTimings } from './money.js';
export type { OrderRecord, FillRecord } from './order-record.js';
export type { OrderTimings } from './order-rules.js';
export type { Rng } from './rng.js';
export type { WebhookDelivery, DeliveryAttempt, WebhookRecord } from './webhook-records.js';
export { WEBHOOK_POLICY, RedeliverError } from './webhook-records.js';
