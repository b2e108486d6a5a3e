/**
 * The paid side's view of the mock state, kept structural so it needs only what it uses:
 * the clock, the seeded random stream, the market, the webhook delivery, the set of broadcast
 * transaction ids. `MockState` satisfies it; a bare `{}` works too (wall clock, a fixed price
 * list, signed webhook POSTs without retries) for tests of the paid side alone.
 */
import { signWebhookPayload } from '../../webhooks/index.js';
import { SimulatedChain } from './chain.js';
import { Dex } from './dex.js';
import { Paywall, type PaywallOptions } from './paywall.js';
import { Watchers } from './watchers.js';

export interface MarketCandidate {
  provider: string;
  displayName?: string;
  price_sun: number;
  duration_sec: number;
  available: number;
  min_amount?: number;
}

export interface MarketLike {
  select(query: { resource: 'ENERGY' | 'BANDWIDTH'; amount?: number; duration_sec: number }): {
    best: MarketCandidate | null;
    fallbacks: MarketCandidate[];
    reason?: string;
    min_amount?: number;
  };
  consume?(providerId: string, resource: 'ENERGY' | 'BANDWIDTH', amount: number): void;
}

export interface PaidContext {
  now?: () => number;
  seed?: number;
  rng?: { hex(bytes: number): string; fork?(label: string): { hex(bytes: number): string } };
  market?: MarketLike;
  tick?: () => void;
  deliverWebhook?: (url: string, body: string | object, secret: string, event?: string) => unknown;
  money?: { broadcasted?: Set<string> };
}

export type PaidMockOptions = PaywallOptions;

export interface PaidMock {
  context: PaidContext;
  now: () => number;
  hex: (bytes: number) => string;
  chain: SimulatedChain;
  paywall: Paywall;
  watchers: Watchers;
  dex: Dex;
  market: MarketLike;
  tick: () => void;
}

const MOCKS = new WeakMap<object, PaidMock>();

/** A fixed provider list for a context without a market (the paid side tested alone). */
const FALLBACK_MARKET: MarketLike = {
  select(query) {
    const list: MarketCandidate[] =
      query.resource === 'ENERGY'
        ? [
            { provider: 'tem', displayName: 'TEM', price_sun: 48, duration_sec: 3600, available: 20_000_000, min_amount: 65_000 },
            { provider: 'tronsave', displayName: 'TronSave', price_sun: 52, duration_sec: 3600, available: 50_000_000, min_amount: 100_000 },
          ]
        : [{ provider: 'tronsave', displayName: 'TronSave', price_sun: 330, duration_sec: 3600, available: 2_000_000, min_amount: 5_000 }];
    const fit = list.filter((c) => query.amount === undefined || (query.amount >= (c.min_amount ?? 0) && query.amount <= c.available));
    return { best: fit[0] ?? null, fallbacks: fit.slice(1), ...(fit.length ? {} : { reason: 'below_minimum', min_amount: 65_000 }) };
  },
};

function randomHexFallback(bytes: number): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return Array.from(buf, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The paid side's state for a mock state object (created on first use, then the same one). */
export function getPaidMock(context: PaidContext, options?: PaidMockOptions): PaidMock {
  const key = context as object;
  let mock = MOCKS.get(key);
  if (mock) {
    if (options) mock.paywall.configure(options);
    return mock;
  }
  const now = () => (context.now ? context.now() : Date.now());
  const stream = context.rng?.fork ? context.rng.fork('x402') : context.rng;
  const hex = (bytes: number) => (stream ? stream.hex(bytes) : randomHexFallback(bytes));
  const chain = new SimulatedChain({ now, seed: context.seed ?? 1, broadcasted: context.money?.broadcasted });
  const deliver = (url: string, body: object, secret: string, event: string) => {
    if (context.deliverWebhook) {
      context.deliverWebhook(url, body, secret, event);
      return;
    }
    const raw = JSON.stringify(body);
    void signWebhookPayload(raw, secret).then((signature) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': signature }, body: raw }).catch(() => undefined),
    );
  };
  mock = {
    context,
    now,
    hex,
    chain,
    paywall: new Paywall(chain, now, hex, options),
    watchers: new Watchers(chain, now, deliver),
    dex: new Dex(),
    market: context.market ?? FALLBACK_MARKET,
    tick: () => context.tick?.(),
  };
  MOCKS.set(key, mock);
  return mock;
}

/** The simulated TRON chain of a mock state (for the deposit flow and tests). */
export function getSimulatedChain(context: PaidContext): SimulatedChain {
  return getPaidMock(context).chain;
}
