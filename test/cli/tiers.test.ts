/**
 * A duration between two price tiers (2h, between 1h and 1d) is charged at the longer tier:
 * `preview` and `buy` say which tier is charged and what the shorter tier would cost, and the
 * mock's charge is the judge of the figure shown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { ADDRESS, json, runCliInProcess } from './run.js';

let mock: MockServer;
let env: Record<string, string>;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 5, timings: { selectMs: 20, fillMs: 30, verifyMs: 40 } });
  env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
});
afterAll(async () => {
  await mock?.close();
});

describe('a duration between price tiers', () => {
  it('preview names the tier charged and the cheaper shorter tier (JSON and words); a tier duration has no note', async () => {
    const between = await runCliInProcess(['preview', '65000', '-d', '2h', '--json'], { env });
    expect(between.code, between.stderr).toBe(0);
    const doc = json(between);
    expect(doc.best.duration_sec).toBeGreaterThan(7200);
    expect(doc.tier).toMatchObject({
      requested_sec: 7200,
      charged: { duration_sec: doc.best.duration_sec, provider: doc.best.provider, price_sun: doc.best.price_sun },
    });
    // The shorter choice is what a preview at that tier quotes, and it costs less.
    const shorter = doc.tier.shorter;
    expect(shorter.duration_sec).toBeLessThan(7200);
    const direct = json(await runCliInProcess(['preview', '65000', '-d', String(shorter.duration_sec), '--json'], { env }));
    expect(direct.tier).toBeUndefined();
    expect(shorter).toMatchObject({ provider: direct.best.provider, price_sun: direct.best.price_sun });
    expect(shorter.cost_sun).toBeLessThan(doc.tier.charged.cost_sun);

    const words = await runCliInProcess(['preview', '65000', '-d', '2h'], { env: { ...env, NO_COLOR: '1' }, isTTY: true, columns: 120 });
    expect(words.code, words.stderr).toBe(0);
    expect(words.stdout).toMatch(/no provider has a 2h tier: 2h is charged at the 1d tier, \d+ SUN per unit/);
    expect(words.stdout).toMatch(/1h costs [\d,]+ SUN \([\d.]+ TRX\) \(\d+ SUN per unit\): pass -d 1h if that is long enough/);
  });

  it('buy says it before the order, and the mock charges the tier it named', async () => {
    const dry = json(await runCliInProcess(['buy', '65000', '--to', ADDRESS, '-d', '2h', '--dry-run', '--json'], { env }));
    expect(dry.tier.charged.duration_sec).toBe(86_400);
    const r = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '-d', '2h', '--yes', '--wait', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning no provider has a 2h tier: 2h is charged at the 1d tier/);
    const order = json(r);
    expect(order.status).toBe('FILLED');
    expect(order.duration_sec).toBe(7200);
    expect(order.total_cost_sun).toBe(dry.tier.charged.cost_sun);
    // At a tier, nothing is said.
    const plain = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '-d', '1h', '--yes', '--json'], { env });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).not.toMatch(/tier/);
  });
});
