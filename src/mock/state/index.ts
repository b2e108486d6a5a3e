import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import { PERMISSIONS, type Permission } from '../../schemas/keys.js';
import { toTronAddress } from '../../utils/address.js';
import { type AuthContext, Accounts, type MockAccount } from './accounts.js';
import type { HeaderReader } from '../http/headers.js';
import { memoToHex } from '../../protocol/tron-transaction.js';
import { type ClockOption, type MockClock, createManualClock, createRealClock, resolveClock } from './clock.js';
import { IdempotencyStore } from './idempotency.js';
import type { Currency } from './ledger.js';
import { Market, type MarketOptions, type ProviderOverride } from './market.js';
import { DEFAULT_MONEY_TIMINGS, type DepositRecord, Money, type MoneyTimings, withdrawalMockView } from './money.js';
import { DEFAULT_ORDER_TIMINGS, OrderEngine, type OrderTimings } from './orders.js';
import { orderMockView } from './order-wire.js';
import { type Rng, createRng, hash32 } from './rng.js';
import { type RetentionLimits, type RetentionOption, resolveRetention } from './retention.js';
import { Scheduler } from './scheduler.js';
import { sampleEventData } from './samples.js';
import { type WebhookDelivery, WebhookHub, type WebhookRecord } from './webhooks.js';
import type { WebhookEventType } from '../../schemas/webhooks.js';
import { SimulatedChain, labelAddress } from '../chain/chain.js';
import { UsagePatterns } from '../chain/usage.js';
import { PaidMock, type PaidMockOptions } from '../x402/paid.js';
import { isLoopbackHost } from '../../internal/net.js';

/** The loopback test webhook delivery uses (exported for the mock's users). */
export { isLoopbackHost };

/** Every delay of the simulated steps (orders and money), in mock-clock ms. */
export type MockTimings = OrderTimings & MoneyTimings;

/** Options of {@link createMockState}. */
export interface MockStateOptions {
  /** Seeds ids, secrets, keys, the market drift and chaos. Same seed, same run. Default 1. */
  seed?: number;
  /** 'real' (default): wall time, work runs on timers. 'manual': time moves only on advance(). */
  clock?: ClockOption;
  /** Delays of the simulated steps (mock-clock ms). */
  timings?: Partial<MockTimings>;
  market?: MarketOptions;
  /** Opening balance of the demo account. Default 1 000 TRX and 100 USDT. */
  demoBalance?: { trx_sun?: number; usdt?: number };
  /** fetch used for webhook deliveries. Default globalThis.fetch at delivery time. */
  fetch?: typeof fetch;
  /**
   * Where webhooks may really be sent. 'loopback' (default, unless `fetch` is given): only
   * 127.0.0.0/8, ::1 and localhost, so a test that registers https://example.com/hook never
   * reaches the internet; other targets get a recorded failed attempt. 'any': wherever the URL
   * points (e.g. a tunnel to a staging receiver, or an msw-intercepted fake host).
   */
  webhookTargets?: 'loopback' | 'any';
  /** Options of the paid side (/x402/tron/*), e.g. `{ version: 1 }` for v1-only clients. */
  x402?: PaidMockOptions;
  /**
   * History kept (orders with their fills, webhook deliveries, idempotency keys, chain
   * transactions): one number for all, or per kind. Oldest finished records go first.
   * @default RETENTION_DEFAULTS (10 000 orders and deliveries, 50 000 keys and transactions)
   */
  retain?: RetentionOption;
  /** Per-attempt timeout of webhook deliveries, in real ms (short values for tests). @default 10 000 */
  webhookTimeoutMs?: number;
  /**
   * A world saved by {@link MockState.snapshot} (e.g. read from `--state FILE`): accounts, orders,
   * money, market overrides, chain, idempotency keys, webhooks and the clock come back as they were,
   * pending work is scheduled again. The seed then comes from the snapshot.
   */
  restore?: SavedState;
}

/**
 * A saved world (see {@link MockState.snapshot}; written to a file by `persist.ts`). Plain data
 * plus Maps, Sets and bigints; the layout is versioned.
 */
export interface SavedState {
  format: 'trx-rent-mock-state';
  version: 1;
  saved_at: string;
  seed: number;
  /** How many times this world was restored: mixed into id generation so ids never repeat. */
  epoch: number;
  clock: { kind: string; now: number; offset: number };
  demo: CreatedAccount;
  accounts: ReturnType<Accounts['dump']>;
  orders: ReturnType<OrderEngine['dump']>;
  money: ReturnType<Money['dump']>;
  market: ReturnType<Market['dump']>;
  chain: ReturnType<SimulatedChain['dump']>;
  idempotency: ReturnType<IdempotencyStore['dump']>;
  webhooks: ReturnType<WebhookHub['snapshot']>;
}

/**
 * Mixed into id generation, once per process: two runs (or a restart) never hand out the same
 * order, delivery or key ids, while two states with one seed in one process still agree id for
 * id (a seeded run is reproducible within the run; parity tests rely on it).
 */
const PROCESS_SALT = `${Date.now().toString(36)}:${Math.floor(Math.random() * 2 ** 32).toString(36)}`;

/** Options of {@link MockState.createAccount}. */
export interface CreateAccountOptions {
  name?: string;
  /** Opening TRX balance in SUN. Default 0. */
  trx_sun?: number;
  /** Opening USDT balance in 6-decimal units. Default 0. */
  usdt?: number;
  /** Permissions of the account's first API key. Default: all. */
  permissions?: Permission[];
}

/** An account made by createAccount or /__mock/accounts, with everything needed to call the API. */
export interface CreatedAccount {
  account_id: string;
  /** `sk_live_…` secret of the account's first key. */
  api_key: string;
  key_id: string;
  /** A JWT (Authorization: Bearer) for the account. */
  jwt: string;
  /** Deposit memo and its hex (for raw_data.data). */
  memo: string;
  memo_hex: string;
}

/** The result of {@link MockState.checkInvariants}: ok, or the problems found. */
export interface InvariantReport {
  ok: boolean;
  problems: string[];
}

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
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;
  #disposed = false;

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
      targetActive: (address) => this.chain.isActivated(address),
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
    // Deposits submitted to the account API are broadcast on this chain, like any transaction.
    // Test wallets have no on-chain history, so a sender is funded for a TRX shortfall; tokens are
    // not minted: a TRC-20 transfer (POST /broadcast) moves only what the sender holds.
    this.money.attachNetwork((tx) => this.chain.broadcast(tx as never, { fundShortfall: 'trx' }));
    // Withdrawals and simulated deposits are transactions on the same chain, so balances agree.
    const usdt = this.chain.token('USDT')!;
    this.money.attachTreasury({
      payOut: (to, amount, currency, label) =>
        currency === 'TRX'
          ? this.chain.syntheticTrxTransfer({ from: this.platformAddress, to, amountSun: BigInt(amount), label }).txid
          : this.chain.syntheticTransfer({ token: usdt, from: this.platformAddress, to, amount: BigInt(amount), mint: true, label }).txid,
      deposit: (from, amountSun, memo, label) => this.chain.syntheticTrxTransfer({ from, to: this.platformAddress, amountSun: BigInt(amountSun), memo, label }).txid,
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
    this.scheduler.onError = (error) => {
      this.taskErrors.push(error);
    };
    this.scheduler.onChange = () => this.#arm();
    if (saved) {
      this.accounts.load(saved.accounts);
      this.market.load(saved.market);
      this.chain.load(saved.chain);
      this.money.load(saved.money);
      this.orders.load(saved.orders);
      this.idempotency.load(saved.idempotency);
      this.webhooks.restore(saved.webhooks);
      this.demo = saved.demo;
    } else {
      const demo = { ...DEFAULT_DEMO, ...options.demoBalance };
      // The demo key comes from the seed alone (no process salt): the same seed gives the same
      // key across restarts, so a script or a saved profile keeps working.
      this.demo = this.createAccount({ name: 'demo', trx_sun: demo.trx_sun, usdt: demo.usdt }, createRng(hash32(this.seed, 'demo-api-key')));
    }
  }

  /**
   * The whole world as plain data, for {@link MockStateOptions.restore} (`persist.ts` writes it to
   * a file). The paid side's records (x402 invoices, permits, DEX pools) are not part of it.
   */
  snapshot(): SavedState {
    const now = this.clock.now();
    return {
      format: 'trx-rent-mock-state',
      version: 1,
      saved_at: new Date().toISOString(),
      seed: this.seed,
      epoch: this.epoch,
      clock: { kind: this.clock.kind, now, offset: now - Date.now() },
      demo: this.demo,
      accounts: this.accounts.dump(),
      orders: this.orders.dump(),
      money: this.money.dump(),
      market: this.market.dump(),
      chain: this.chain.dump(),
      idempotency: this.idempotency.dump(),
      webhooks: this.webhooks.snapshot(),
    };
  }

  /** The mock clock's current time (ms since the epoch). */
  now(): number {
    return this.clock.now();
  }

  /** Run every task that is due. Handlers call it on each request; timers call it on a real clock. */
  tick(): void {
    if (!this.#disposed) this.scheduler.runDue(this.clock.now());
  }

  /**
   * Move the clock forward by `ms`, running due work in time order at the time it is due
   * (order steps, credits, price polls, webhook attempts and their retries), and waiting for
   * webhook attempts to finish so their retries land at the right time. Bounded.
   */
  async advance(ms: number): Promise<void> {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw new RangeError('advance(ms) needs a non-negative number');
    const target = this.clock.now() + ms;
    for (let step = 0; step < 1_000_000; step++) {
      if (this.webhooks.inflight) await this.webhooks.idle();
      const next = this.scheduler.peek();
      if (next === undefined || next > target) break;
      if (next > this.clock.now()) this.clock.advance(next - this.clock.now());
      this.scheduler.runDue(this.clock.now());
    }
    if (this.clock.now() < target) this.clock.advance(target - this.clock.now());
    this.tick();
    await this.webhooks.idle();
    this.#arm();
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

  /** Recorded webhook deliveries (every attempt), oldest first. */
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
    const problems: string[] = [];
    for (const account of this.accounts.byId.values()) {
      const { ledger } = account;
      problems.push(...ledger.problems(account.id));
      let spent = this.orders.evictedSpent(account.id);
      const openRefs = new Set<string>();
      for (const order of this.orders.all(account.id)) {
        let cost = 0;
        for (const fill of order.fills) {
          if (fill.status === 'CONFIRMED') {
            cost += fill.cost_sun;
            if (fill.cost_sun !== fill.amount * fill.price_sun) problems.push(`fill ${fill.id}: cost ${fill.cost_sun} != amount x price`);
          } else if (fill.cost_sun !== 0) problems.push(`failed fill ${fill.id} charged ${fill.cost_sun}`);
        }
        spent += cost;
        if (order.status === 'FILLED') {
          if (order.total_cost_sun !== cost) problems.push(`order ${order.id}: total_cost_sun ${order.total_cost_sun} != fills ${cost}`);
          if (order.filled_at === null || order.total_fee_sun !== 0) problems.push(`order ${order.id}: FILLED without filled_at or fee 0`);
        }
        const open = order.status === 'PENDING' || order.status === 'EXECUTING' || order.plan !== null;
        if (open) openRefs.add(order.id);
        else if (ledger.lockedFor(order.id) !== 0) problems.push(`order ${order.id} (${order.status}) still holds ${ledger.lockedFor(order.id)}`);
      }
      if (spent !== ledger.pots.TRX.spent) problems.push(`${account.id}: spent ${ledger.pots.TRX.spent} != confirmed fills ${spent}`);
      const withdrawn: Record<Currency, number> = {
        TRX: this.money.evictedWithdrawn.get(`${account.id} TRX`) ?? 0,
        USDT: this.money.evictedWithdrawn.get(`${account.id} USDT`) ?? 0,
      };
      for (const w of this.money.withdrawals.values()) {
        if (w.account_id !== account.id) continue;
        if (w.status === 'COMPLETED') withdrawn[w.currency] += w.amount;
        if (w.status === 'PENDING') openRefs.add(`withdrawal:${w.id}`);
      }
      for (const currency of ['TRX', 'USDT'] as const) {
        if (withdrawn[currency] !== ledger.pots[currency].withdrawn) {
          problems.push(`${account.id}: withdrawn ${currency} ${ledger.pots[currency].withdrawn} != completed withdrawals ${withdrawn[currency]}`);
        }
      }
      for (const ref of ledger.locks.keys()) if (!openRefs.has(ref)) problems.push(`${account.id}: lock ${ref} has no open order or withdrawal`);
    }
    for (const error of this.taskErrors) problems.push(`scheduled task threw: ${String((error as Error)?.stack ?? error)}`);
    return { ok: problems.length === 0, problems };
  }

  /** Stop timers and abort webhook attempts in flight. */
  dispose(): void {
    this.#disposed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.webhooks.dispose();
  }

  #account(id: string): MockAccount {
    const account = this.accounts.get(id);
    if (!account) throw new RangeError(`No account ${id}`);
    return account;
  }

  /** Real clock: one unref'd timer for the earliest due task. */
  #arm(): void {
    if (this.#disposed || this.clock.kind !== 'real') return;
    const next = this.scheduler.peek();
    if (next === this.#timerAt && this.#timer) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
    if (next === undefined) return;
    const delay = Math.min(Math.max(0, next - this.clock.now()), 2 ** 31 - 1);
    this.#timerAt = next;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#timerAt = Infinity;
      this.tick();
      this.#arm();
    }, delay);
    (this.#timer as { unref?: () => void }).unref?.();
  }
}

/**
 * The clock of a restored world: a real clock keeps its offset (time went on while the mock was
 * stopped, an advance made before stays); a manual one resumes at the saved time; a clock object
 * given by the caller is used as is.
 */
function restoredClock(option: ClockOption | undefined, saved: SavedState['clock']): MockClock {
  if (option !== undefined && typeof option === 'object') return option;
  if (option === 'manual' || (option === undefined && saved.kind === 'manual')) return createManualClock(saved.now);
  return createRealClock(saved.kind === 'real' ? saved.offset : saved.now - Date.now());
}

/** A new simulated service: a seeded demo account, the market, the chain, on one clock. */
export function createMockState(options?: MockStateOptions): MockState {
  return new MockState(options);
}

const providerAddresses = new Map<string, string>();

/** A provider's delegating address on the simulated chain (the same for every seed; cached: a hash and base58 per fill showed in profiles). */
function providerAddress(provider: string): string {
  let address = providerAddresses.get(provider);
  if (address === undefined) {
    address = labelAddress(`provider ${provider}`);
    if (providerAddresses.size < 1_000) providerAddresses.set(provider, address);
  }
  return address;
}

/** A fixed, valid TRON address for the simulated platform (the same for every seed). */
const PLATFORM_ADDRESS = toTronAddress(`41${bytesToHex(sha256(new TextEncoder().encode('trx-rent mock platform deposit address'))).slice(0, 40)}`);

export type { AuthContext, MockAccount, ApiKeyRecord } from './accounts.js';
export { JWT_LIFETIME_MS } from './accounts.js';
export type { MockClock, ClockOption } from './clock.js';
export { createManualClock, createRealClock } from './clock.js';
export type { Currency } from './ledger.js';
export type { MarketOptions, ProviderOverride, Selection, SelectionQuery, Candidate, PlanItem, MarketSnapshot, ProviderSnapshot } from './market.js';
export { MARKET_RULES, PROVIDERS } from './market.js';
export type { RetentionLimits, RetentionOption } from './retention.js';
export { RETENTION_DEFAULTS } from './retention.js';
export type { DepositRecord, WithdrawalRecord, MoneyTimings } from './money.js';
export type { OrderRecord, FillRecord, OrderTimings } from './orders.js';
export type { Rng } from './rng.js';
export type { WebhookDelivery, DeliveryAttempt, WebhookRecord } from './webhooks.js';
export { WEBHOOK_POLICY, RedeliverError } from './webhooks.js';

