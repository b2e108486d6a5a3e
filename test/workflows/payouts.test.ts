/**
 * Payouts end to end against the mock over real HTTP (account API and the simulated node at one
 * origin): many USDT transfers from one sender with one rental. The judge is the mock's chain
 * (every transfer from the sender, per recipient) and its order log, never the SDK's report.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    const lines = readFileSync(journal, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.filter((l) => l.type === 'confirmed').length).toBe(20);
    expect(events).toContain('planned');
  });
});
