/**
 * A state's world as plain data and back: what {@link MockState.snapshot} saves (accounts,
 * orders, money, market overrides, chain, idempotency keys, webhooks, the clock) and how a
 * restored state loads it, each part rescheduling its pending work. `persist.ts` writes it to a
 * file; the layout is `SavedState` (`state-options.ts`).
 * @module
 */
import type { SimulatedChain } from '../chain/chain.js';
import type { Accounts } from './accounts.js';
import type { MockClock } from './clock.js';
import type { IdempotencyStore } from './idempotency.js';
import type { Market } from './market.js';
import type { Money } from './money.js';
import type { OrderEngine } from './orders.js';
import type { CreatedAccount, SavedState } from './state-options.js';
import type { WebhookHub } from './webhooks.js';

/** The parts of a state that are saved (a MockState has them all). */
export interface SavedParts {
  readonly seed: number;
  readonly epoch: number;
  readonly clock: MockClock;
  readonly demo: CreatedAccount;
  readonly accounts: Accounts;
  readonly orders: OrderEngine;
  readonly money: Money;
  readonly market: Market;
  readonly chain: SimulatedChain;
  readonly idempotency: IdempotencyStore;
  readonly webhooks: WebhookHub;
}

/** The whole world as plain data. The paid side's records (x402 invoices, permits, DEX pools) are not part of it. */
export function saveState(state: SavedParts): SavedState {
  const now = state.clock.now();
  return {
    format: 'trx-rent-mock-state',
    version: 1,
    saved_at: new Date().toISOString(),
    seed: state.seed,
    epoch: state.epoch,
    clock: { kind: state.clock.kind, now, offset: now - Date.now() },
    demo: state.demo,
    accounts: state.accounts.dump(),
    orders: state.orders.dump(),
    money: state.money.dump(),
    market: state.market.dump(),
    chain: state.chain.dump(),
    idempotency: state.idempotency.dump(),
    webhooks: state.webhooks.snapshot(),
  };
}

/** Load a saved world into a new state's parts (the demo account is the caller's to take). */
export function loadState(state: Omit<SavedParts, 'seed' | 'epoch' | 'clock' | 'demo'>, saved: SavedState): void {
  state.accounts.load(saved.accounts);
  state.market.load(saved.market);
  state.chain.load(saved.chain);
  state.money.load(saved.money);
  state.orders.load(saved.orders);
  state.idempotency.load(saved.idempotency);
  state.webhooks.restore(saved.webhooks);
}
