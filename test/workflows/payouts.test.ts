/**
 * Payouts end to end against the mock over real HTTP (account API and the simulated node at one
 * origin): many USDT transfers from one sender with one rental. The judge is the mock's chain
 * (every transfer from the sender, per recipient) and its order log, never the SDK's report.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { account, ordersOf, paid, payouts, sender } from './payouts-helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 32, rateLimits: false, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
});
afterAll(async () => {
  await mock.close();
});

const client = (apiKey: string) => new TrxRent({ baseUrl: mock.url, apiKey, tronNode: mock.url, maxRetries: 2 });

describe('client.transfers.sendMany', { timeout: 60_000 }, () => {
  it('pays 20 rows once each with one energy order, journaled to a file', async () => {
    const s = sender(mock, 1);
    const rows = payouts(mock, 20, 'a');
    const acct = account(mock);
    const journal = join(mkdtempSync(join(tmpdir(), 'payouts-')), 'batch.journal');
    const events: string[] = [];
    const report = await client(acct.apiKey).transfers.sendMany(rows, { signer: { privateKey: s.privateKey }, journal, onEvent: (e) => events.push(e.event) });
    expect(report.complete).toBe(true);
    expect(report.confirmed).toBe(20);
    const chain = paid(mock, s.address);
    for (const r of rows) expect(chain.get(r.to)?.count, r.id).toBe(1);
    expect(ordersOf(mock, acct.accountId).filter((o) => o.resource_type === 'ENERGY').length).toBe(1);
    expect(report.energy.used).toBeLessThanOrEqual(report.energy.rented);
    const lines = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === 'confirmed').length).toBe(20);
    expect(events).toContain('planned');
  });
});

describe('one rental for the batch', { timeout: 90_000 }, () => {
  // Thousands of rows run on the mock's manual clock (payouts-scale.test.ts); here the real clock.
  it.each([200])('%i rows rent their energy in a handful of orders (the mock order log), never per row', async (n) => {
    // A market of its own: what one batch rents is not there for the next until the price poll.
    const mock = await startMockServer({ seed: 32 + n, rateLimits: false, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
    onTestFinished(() => mock.close());
    const client = (apiKey: string) => new TrxRent({ baseUrl: mock.url, apiKey, tronNode: mock.url, maxRetries: 2 });
    const s = sender(mock, 2);
    const rows = payouts(mock, n, `n${n}`);
    const acct = account(mock, '1000000');
    const started = Date.now();
    const report = await client(acct.apiKey).transfers.sendMany(rows, { signer: { privateKey: s.privateKey }, concurrency: 16 });
    const ms = Date.now() - started;
    const orders = ordersOf(mock, acct.accountId);
    const energy = orders.filter((o) => o.resource_type === 'ENERGY');
    const chain = paid(mock, s.address);
    expect(rows.every((r) => chain.get(r.to)?.count === 1)).toBe(true);
    expect(report.confirmed).toBe(n);
    expect(energy.length).toBeGreaterThanOrEqual(1);
    // As few as the market allows: one provider takes 200 rows whole.
    expect(energy.length).toBeLessThanOrEqual(2);
    // The rows' energy came from the rental: the chain burnt no TRX for any row's energy.
    const rented = energy.reduce((sum, o) => sum + o.amount, 0);
    expect(rented).toBeGreaterThanOrEqual(report.energy.used);
    const burnt = [...mock.state.chain.transactions.values()].filter((t) => t.transfer?.from === s.address).reduce((sum, t) => sum + (t.energyFeeSun ?? 0), 0);
    expect(burnt).toBe(0);
    console.log(
      `${n} rows: ${energy.length} energy order(s), ${orders.length - energy.length} bandwidth, ${rented} energy rented, ${report.energy.used} used, ${ms} ms`,
    );
  });
});
