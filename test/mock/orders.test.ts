/** Order state machine, money locking and the market, on a manual clock. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { Order } from '../../src/schemas/orders.js';
import { type MockServer, createManualClock, createMockState } from '../../src/mock/index.js';
import { T0, TARGET, manualServer } from './helpers.js';

let mock: MockServer;
let sdk: TrxRent;
const energy = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET } as const;

beforeEach(async () => {
  mock = await manualServer({ market: { offlineRate: 0 } });
  sdk = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, maxRetries: 0 });
});
afterEach(async () => {
  expect(mock.state.checkInvariants()).toEqual({ ok: true, problems: [] });
  await mock.close();
});

const balance = () => sdk.balance.get();
/**
 * What the mock knows beyond the service's answer (why an order failed, a PERIODIC order's runs):
 * the spec's Order carries none of it, so it comes from the control route, not from the order.
 */
const details = async (id: string) =>
  (await (await fetch(`${mock.url}/__mock/orders/${id}`)).json()) as {
    failure_reason: string | null;
    runs: number;
    interval_sec: number | null;
    next_run_at: string | null;
  };

describe('MARKET', () => {
  it('PENDING -> EXECUTING -> FILLED on the clock; cost locked, then spent exactly; fills verified later', async () => {
    const { selectMs, fillMs, verifyMs } = mock.state.timings;
    const start = await balance();
    const preview = await sdk.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 });
    const created = await sdk.orders.create(energy);
    const cost = 65_000 * preview.best!.price_sun;
    expect(await balance()).toMatchObject({ trx: start.trx - cost, trx_locked: start.trx_locked + cost });
    expect((await sdk.orders.get(created.id)).status).toBe('PENDING');
    await mock.state.advance(selectMs);
    expect((await sdk.orders.get(created.id)).status).toBe('EXECUTING');
    await mock.state.advance(fillMs - 1);
    expect((await sdk.orders.get(created.id)).status).toBe('EXECUTING');
    await mock.state.advance(1);
    const filled = Order.parse(await sdk.orders.get(created.id));
    expect(filled).toMatchObject({ status: 'FILLED', total_cost_sun: cost, total_fee_sun: 0 });
    expect(Date.parse(String(filled.filled_at))).toBe(T0 + selectMs + fillMs);
    expect(filled.fills).toHaveLength(1);
    const fill = filled.fills![0]!;
    expect(fill).toMatchObject({
      provider: preview.best!.provider,
      price_sun: preview.best!.price_sun,
      amount: 65_000,
      cost_sun: cost,
      status: 'CONFIRMED',
      verified: false,
    });
    expect(fill.tx_id).toMatch(/^[0-9a-f]{64}$/);
    expect(fill.tronscan_url).toBe(`https://tronscan.org/#/transaction/${fill.tx_id}`);
    expect(await balance()).toMatchObject({ trx: start.trx - cost, trx_locked: start.trx_locked });
    await mock.state.advance(verifyMs);
    expect((await sdk.orders.get(created.id)).fills![0]!.verified).toBe(true);
  });

  it('preview and execution pick the same provider and price (one selection function)', async () => {
    for (const duration of [300, 3600, 86_400, 7 * 86_400]) {
      const preview = await sdk.orders.preview({ resource: 'ENERGY', amount: 200_000, duration });
      const o = await sdk.orders.create({ ...energy, amount: 200_000, duration_sec: duration });
      await mock.state.advance(mock.state.timings.selectMs + mock.state.timings.fillMs);
      const fill = (await sdk.orders.get(o.id)).fills![0]!;
      expect([fill.provider, fill.price_sun]).toEqual([preview.best!.provider, preview.best!.price_sun]);
    }
    // bandwidth: only providers with bandwidth tiers
    const bw = await sdk.orders.preview({ resource: 'BANDWIDTH', amount: 5_000, duration: 3600 });
    const withBandwidth = (await sdk.prices.list()).filter((p) => p.bandwidth_prices.length).map((p) => p.provider);
    expect([bw.best!, ...bw.fallbacks].map((o) => o.provider).sort()).toEqual(withBandwidth.sort());
  });

  it('FAILED with PRICE_EXCEEDED when the price rises above max_price_sun before selection; funds released', async () => {
    const start = await balance();
    const best = (await sdk.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 })).best!;
    const o = await sdk.orders.create({ ...energy, max_price_sun: best.price_sun });
    mock.state.setProviderOverride(best.provider, { price_factor: 3 });
    for (const p of mock.state.market.providers) if (p.id !== best.provider) mock.state.setProviderOverride(p.id, { price_factor: 3 });
    await mock.state.advance(mock.state.timings.selectMs);
    const failed = await sdk.orders.get(o.id);
    expect(failed).toMatchObject({ status: 'FAILED', fills: [] });
    expect(await details(o.id)).toMatchObject({ failure_reason: 'PRICE_EXCEEDED' });
    expect(await balance()).toMatchObject({ trx: start.trx, trx_locked: start.trx_locked });
  });

  it('FAILED with INSUFFICIENT_BALANCE when the price rises beyond what the balance covers', async () => {
    const best = (await sdk.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 })).best!;
    const acct = mock.state.createAccount({ trx_sun: 65_000 * best.price_sun });
    const client = new TrxRent({ baseUrl: mock.url, apiKey: acct.api_key, maxRetries: 0 });
    const o = await client.orders.create(energy);
    expect((await client.balance.get()).trx).toBe(0);
    for (const p of mock.state.market.providers) mock.state.setProviderOverride(p.id, { price_factor: 2 });
    await mock.state.advance(mock.state.timings.selectMs);
    expect(await client.orders.get(o.id)).toMatchObject({ status: 'FAILED' });
    expect(await details(o.id)).toMatchObject({ failure_reason: 'INSUFFICIENT_BALANCE' });
    expect(await client.balance.get()).toMatchObject({ trx: 65_000 * best.price_sun, trx_locked: 0 });
  });

  it('a failing delegation is retried on the next provider; when every one fails: EXECUTING -> FAILED', async () => {
    const preview = await sdk.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 });
    mock.state.setProviderOverride(preview.best!.provider, { fail_delegations: true });
    const o = await sdk.orders.create(energy);
    await mock.state.advance(mock.state.timings.selectMs + mock.state.timings.fillMs);
    const retried = await sdk.orders.get(o.id);
    expect(retried.status).toBe('FILLED');
    expect(retried.fills!.map((f) => [f.provider, f.status, f.cost_sun])).toEqual([
      [preview.best!.provider, 'FAILED', 0],
      [preview.fallbacks[0]!.provider, 'CONFIRMED', 65_000 * preview.fallbacks[0]!.price_sun],
    ]);
    expect(retried.total_cost_sun).toBe(65_000 * preview.fallbacks[0]!.price_sun);

    const start = await balance();
    for (const p of mock.state.market.providers) mock.state.setProviderOverride(p.id, { fail_delegations: true });
    const doomed = await sdk.orders.create(energy);
    await mock.state.advance(mock.state.timings.selectMs);
    expect((await sdk.orders.get(doomed.id)).status).toBe('EXECUTING');
    await mock.state.advance(mock.state.timings.fillMs);
    const failed = await sdk.orders.get(doomed.id);
    expect(failed).toMatchObject({ status: 'FAILED', total_cost_sun: null });
    expect(await details(doomed.id)).toMatchObject({ failure_reason: 'PROVIDER_UNAVAILABLE' });
    expect(failed.fills!.length).toBe(3); // first try + 2 retries
    expect(failed.fills!.every((f) => f.status === 'FAILED' && f.cost_sun === 0)).toBe(true);
    expect(await balance()).toMatchObject({ trx: start.trx, trx_locked: start.trx_locked });
  });
});

describe('LIMIT', () => {
  it('waits with amount x max_price_sun locked, then fills at or below the cap when the market moves', async () => {
    const start = await balance();
    const best = (await sdk.orders.preview({ resource: 'ENERGY', amount: 100_000, duration: 3600 })).best!;
    const cap = Math.floor(best.price_sun * 0.7);
    const o = await sdk.orders.create({ ...energy, amount: 100_000, order_type: 'LIMIT', max_price_sun: cap });
    expect(await balance()).toMatchObject({ trx: start.trx - 100_000 * cap, trx_locked: 100_000 * cap });
    await mock.state.advance(5 * 60_000); // ten polls of drift within ±12 %: still above the cap
    expect((await sdk.orders.get(o.id)).status).toBe('PENDING');
    mock.state.setProviderOverride(best.provider, { price_factor: 0.5 });
    await mock.state.advance(0);
    expect((await sdk.orders.get(o.id)).status).toBe('EXECUTING');
    await mock.state.advance(mock.state.timings.fillMs);
    const filled = await sdk.orders.get(o.id);
    expect(filled.status).toBe('FILLED');
    const fill = filled.fills![0]!;
    expect(fill.provider).toBe(best.provider);
    expect(fill.price_sun).toBeLessThanOrEqual(cap);
    expect(await balance()).toMatchObject({ trx: start.trx - fill.cost_sun, trx_locked: 0 });
  });

  it('fills at the first poll where the seeded drift reaches the cap (deterministic, same as a twin state)', async () => {
    const twin = createMockState({ seed: 7, clock: createManualClock(T0), market: { offlineRate: 0 } });
    const state = createMockState({ seed: 7, clock: createManualClock(T0), market: { offlineRate: 0 } });
    const q = { resource: 'ENERGY', amount: 65_000, duration_sec: 3600 } as const;
    const now = twin.market.select(q).best!.price_sun;
    let cap = now - 1;
    let fillPoll: number | undefined;
    for (let tries = 0; tries < 20 && fillPoll === undefined; tries++) {
      for (let k = 1; k <= 200; k++) {
        await twin.advance(30_000);
        if (twin.market.select({ ...q, max_price_sun: cap }).best) {
          fillPoll = twin.market.pollIndex();
          break;
        }
      }
      if (fillPoll === undefined) cap++;
    }
    expect(fillPoll).toBeDefined();
    const order = state.orders.create(state.getAccount(state.demo.account_id)!, {
      resource_type: 'ENERGY',
      amount: q.amount,
      duration_sec: q.duration_sec,
      target_address: TARGET,
      order_type: 'LIMIT',
      max_price_sun: cap,
    });
    for (let i = 0; i < 400 && order.status !== 'FILLED'; i++) await state.advance(10_000);
    expect(order.status).toBe('FILLED');
    expect(state.market.pollIndex(order.filled_at!)).toBe(fillPoll);
    expect(order.fills[0]!.price_sun).toBeLessThanOrEqual(cap);
    expect(state.checkInvariants().ok).toBe(true);
    twin.dispose();
    state.dispose();
  });

  it('expires after limitOrderTtlMs: FAILED (EXPIRED), funds released', async () => {
    const start = await balance();
    const o = await sdk.orders.create({ ...energy, order_type: 'LIMIT', max_price_sun: 1 });
    await mock.state.advance(mock.state.timings.limitOrderTtlMs - 1);
    expect((await sdk.orders.get(o.id)).status).toBe('PENDING');
    await mock.state.advance(1);
    expect(await sdk.orders.get(o.id)).toMatchObject({ status: 'FAILED' });
    expect(await details(o.id)).toMatchObject({ failure_reason: 'EXPIRED' });
    expect(await balance()).toMatchObject({ trx: start.trx, trx_locked: start.trx_locked });
  });
});

describe('BROADCAST', () => {
  it('fills across three providers (cheapest first), one fill each, shares summing to the amount', async () => {
    const preview = await sdk.orders.preview({ resource: 'ENERGY', amount: 100_000, duration: 3600 });
    const start = await balance();
    const o = await sdk.orders.create({ ...energy, amount: 300_001, order_type: 'BROADCAST' });
    await mock.state.advance(mock.state.timings.selectMs + mock.state.timings.fillMs);
    const filled = await sdk.orders.get(o.id);
    expect(filled.status).toBe('FILLED');
    const fills = filled.fills!;
    expect(fills.map((f) => f.provider)).toEqual([preview.best!, ...preview.fallbacks].slice(0, 3).map((c) => c.provider));
    expect(new Set(fills.map((f) => f.provider)).size).toBe(3);
    expect(fills.map((f) => f.amount)).toEqual([100_001, 100_000, 100_000]);
    const total = fills.reduce((s, f) => s + f.cost_sun, 0);
    expect(filled.total_cost_sun).toBe(total);
    expect(await balance()).toMatchObject({ trx: start.trx - total, trx_locked: start.trx_locked });
  });

  it('uses fewer providers when the shares would fall below the minimum', async () => {
    const o = await sdk.orders.create({ ...energy, amount: 140_000, order_type: 'BROADCAST' });
    await mock.state.advance(1_000);
    const fills = (await sdk.orders.get(o.id)).fills!;
    expect(fills.map((f) => f.amount)).toEqual([70_000, 70_000]);
  });
});

describe('PERIODIC', () => {
  it('re-executes every duration_sec, adding fills and cost, until periodicMaxRuns', async () => {
    await mock.close();
    mock = await manualServer({ market: { offlineRate: 0 }, timings: { periodicMaxRuns: 3 } });
    sdk = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, maxRetries: 0 });
    const start = await balance();
    const o = await sdk.orders.create({ ...energy, duration_sec: 600, order_type: 'PERIODIC' });
    await mock.state.advance(1_000);
    let got = await sdk.orders.get(o.id);
    expect(got).toMatchObject({ status: 'FILLED' });
    expect(await details(o.id)).toMatchObject({ runs: 1, interval_sec: 600 });
    expect(Date.parse(String((await details(o.id)).next_run_at))).toBe(Date.parse(String(got.filled_at)) + 600_000);
    await mock.state.advance(600_000 + 1_000);
    got = await sdk.orders.get(o.id);
    expect(got).toMatchObject({ status: 'FILLED' });
    expect(await details(o.id)).toMatchObject({ runs: 2 });
    expect(got.fills!.length).toBe(2);
    await mock.state.advance(3 * 600_000);
    got = await sdk.orders.get(o.id);
    expect(await details(o.id)).toMatchObject({ runs: 3, next_run_at: null });
    expect(got.fills!.length).toBe(3);
    const total = got.fills!.reduce((s, f) => s + f.cost_sun, 0);
    expect(got.total_cost_sun).toBe(total);
    expect(await balance()).toMatchObject({ trx: start.trx - total, trx_locked: 0 });
    const filledEvents = mock.state.webhookDeliveries().length; // no webhook registered: nothing sent
    expect(filledEvents).toBe(0);
  });

  it('stops (stays FILLED) when a renewal cannot be paid', async () => {
    const best = (await sdk.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 600 })).best!;
    const acct = mock.state.createAccount({ trx_sun: Math.floor(65_000 * best.price_sun * 1.5) });
    const client = new TrxRent({ baseUrl: mock.url, apiKey: acct.api_key, maxRetries: 0 });
    const o = await client.orders.create({ ...energy, duration_sec: 600, order_type: 'PERIODIC' });
    await mock.state.advance(1_000 + 600_000 + 1_000);
    const got = await client.orders.get(o.id);
    expect(got).toMatchObject({ status: 'FILLED' });
    expect(await details(o.id)).toMatchObject({ runs: 1, next_run_at: null });
    expect((await client.balance.get()).trx_locked).toBe(0);
  });
});

describe('market', () => {
  it('is deterministic per seed and time; a different seed drifts differently', () => {
    const a = createMockState({ seed: 3, clock: createManualClock(T0) });
    const b = createMockState({ seed: 3, clock: createManualClock(T0) });
    const c = createMockState({ seed: 4, clock: createManualClock(T0) });
    expect(a.market.prices()).toEqual(b.market.prices());
    expect(a.market.prices()).not.toEqual(c.market.prices());
    expect(a.market.history({ period: '24h' })).toEqual(b.market.history({ period: '24h' }));
    expect(a.market.stats()).toEqual(b.market.stats());
    expect(a.demo.api_key).toBe(b.demo.api_key);
    for (const s of [a, b, c]) s.dispose();
  });

  it('prices stay within ±12 % of base tiers and change from poll to poll', async () => {
    const state = createMockState({ clock: createManualClock(T0), market: { offlineRate: 0 } });
    const seen = new Set<number>();
    for (let i = 0; i < 50; i++) {
      const tem = state.market.prices().find((p) => p.provider === 'tem')!;
      const oneHour = tem.energy_prices[0]!.price_sun;
      expect(oneHour).toBeGreaterThanOrEqual(Math.round(48 * 0.88));
      expect(oneHour).toBeLessThanOrEqual(Math.round(48 * 1.12));
      seen.add(oneHour);
      await state.advance(30_000);
    }
    expect(seen.size).toBeGreaterThan(3);
    state.dispose();
  });

  it('an offline provider is skipped, shows no availability and a stale fetched_at', async () => {
    const best = (await sdk.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 })).best!;
    const before = (await sdk.prices.list()).find((p) => p.provider === best.provider)!;
    await mock.state.advance(30_000);
    mock.state.setProviderOverride(best.provider, { online: false });
    const entry = (await sdk.prices.list()).find((p) => p.provider === best.provider)!;
    expect(entry).toMatchObject({ available_energy: 0 });
    expect(Date.parse(String(entry.fetched_at))).toBeLessThan(mock.state.market.pollIndex() * 30_000);
    expect(Date.parse(String(entry.fetched_at))).toBeGreaterThanOrEqual(Date.parse(String(before.fetched_at)));
    const preview = await sdk.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 });
    expect([preview.best!, ...preview.fallbacks].map((o) => o.provider)).not.toContain(best.provider);
    // unforced, providers go offline now and then with the seeded rate
    const flaky = createMockState({ clock: createManualClock(T0), market: { offlineRate: 0.2 } });
    let offline = 0;
    for (let i = 0; i < 40; i++) {
      offline += flaky.market.snapshot().providers.filter((p) => !p.online).length;
      await flaky.advance(30_000);
    }
    expect(offline).toBeGreaterThan(10);
    flaky.dispose();
  });

  it('delegations use up availability until the next poll; "has the amount" is checked', async () => {
    mock.state.setProviderOverride('tem', { available_energy: 1_000_000 });
    const o1 = await sdk.orders.create({ ...energy, amount: 900_000 });
    await mock.state.advance(mock.state.timings.selectMs);
    expect((await sdk.orders.get(o1.id)).status).toBe('EXECUTING');
    const tem = (await sdk.prices.list()).find((p) => p.provider === 'tem')!;
    expect(tem.available_energy).toBe(100_000);
    const preview = await sdk.orders.preview({ resource: 'ENERGY', amount: 200_000, duration: 3600 });
    expect([preview.best!, ...preview.fallbacks].map((c) => c.provider)).not.toContain('tem');
  });
});
