/**
 * The paid side's state: the paywall (challenges, verification, settlement), the watchers
 * (watch, receive, invoice), the DEX, over the simulated chain and market of one `MockState`,
 * which creates it and holds it as `state.paid`.
 *
 * @module
 */
import type { SimulatedChain } from '../chain/chain.js';
import { Dex } from './dex.js';
import { Paywall } from './paywall.js';
import type { PaywallOptions } from './paywall-terms.js';
import { Watchers } from './watchers.js';

/** A provider as the paid side sees it when it buys energy. */
export interface MarketCandidate {
  provider: string;
  displayName?: string;
  price_sun: number;
  duration_sec: number;
  available: number;
  min_amount?: number;
}

/** The market calls the paid side makes (the account API's market satisfies it). */
export interface MarketLike {
  select(query: { resource: 'ENERGY' | 'BANDWIDTH'; amount?: number; duration_sec: number }): {
    best: MarketCandidate | null;
    fallbacks: MarketCandidate[];
    reason?: string;
    min_amount?: number;
  };
  consume?(providerId: string, resource: 'ENERGY' | 'BANDWIDTH', amount: number): void;
}

/** Options of the paid side (challenge version, schemes, networks, fees). */
export type PaidMockOptions = PaywallOptions;

/** What the paid side needs from the state that owns it. */
export interface PaidMockDeps {
  now: () => number;
  /** Seeded random hex (ids, secrets). */
  hex: (bytes: number) => string;
  chain: SimulatedChain;
  market: MarketLike;
  /** Signed webhook delivery with the mock's retry policy. */
  deliverWebhook: (url: string, body: object, secret: string, event: string) => unknown;
  /** Run the state's due work. */
  tick: () => void;
}

/** The paid side of one mock state. */
export class PaidMock {
  /** The owning state's clock. */
  readonly now: () => number;
  /** Seeded random hex (ids, secrets). */
  readonly hex: (bytes: number) => string;
  readonly chain: SimulatedChain;
  readonly market: MarketLike;
  readonly paywall: Paywall;
  readonly watchers: Watchers;
  readonly dex = new Dex();
  /** Run the owning state's due work. */
  readonly tick: () => void;

  constructor(deps: PaidMockDeps, options?: PaidMockOptions) {
    this.now = deps.now;
    this.hex = deps.hex;
    this.chain = deps.chain;
    this.market = deps.market;
    this.tick = deps.tick;
    this.paywall = new Paywall(deps.chain, deps.now, deps.hex, options);
    this.watchers = new Watchers(deps.chain, deps.now, deps.deliverWebhook);
  }
}

/**
 * The paid side of a mock state (`state.paid`), with `options` applied when given.
 * @deprecated Read `state.paid` (and `state.paid.paywall.configure(options)`).
 */
export function getPaidMock(state: { paid: PaidMock }, options?: PaidMockOptions): PaidMock {
  if (options) state.paid.paywall.configure(options);
  return state.paid;
}

/**
 * The simulated TRON chain of a mock state.
 * @deprecated Read `state.chain`.
 */
export function getSimulatedChain(state: { chain: SimulatedChain }): SimulatedChain {
  return state.chain;
}
