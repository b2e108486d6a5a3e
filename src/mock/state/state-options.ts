/**
 * What {@link createMockState} takes and what a {@link MockState} hands back: its options and
 * timings, the saved world it can be restored from, the accounts it creates, and the report of
 * its invariant check. Types only; the state itself is `index.ts`.
 * @module
 */
import type { Permission } from '../../schemas/keys.js';
import type { SimulatedChain } from '../chain/chain.js';
import type { PaidMockOptions } from '../x402/paid.js';
import type { Accounts } from './accounts.js';
import type { ClockOption } from './clock.js';
import type { IdempotencyStore } from './idempotency.js';
import type { Market } from './market.js';
import type { MarketOptions } from './market-pricing.js';
import type { Money, MoneyTimings } from './money.js';
import type { OrderEngine } from './orders.js';
import type { OrderTimings } from './order-rules.js';
import type { RetentionOption } from './retention.js';
import type { WebhookHub } from './webhooks.js';

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
