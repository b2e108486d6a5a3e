/**
 * State that survives a restart when asked: startMockServer({ stateFile }) saves the whole world
 * atomically and restores it; ids never repeat across restarts (with or without a state file),
 * while one seed in one process still gives the same ids.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createManualClock, createMockState, startMockServer } from '../../src/mock/index.js';
import { decodeState, encodeState } from '../../src/mock/state/persist.js';
import { T0, TARGET, raw, startReceiver } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'trx-rent-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const order = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET } as const;

describe('stateFile', () => {
  it('restores accounts, orders, balance, ledger, chain, keys, webhooks and the clock; pending work resumes; new ids are new', async () => {
    const file = join(dir, 'world.json');
    const receiver = await startReceiver();
    let first = await startMockServer({ stateFile: file, clock: createManualClock(T0), rateLimits: false, seed: 3 });
    const key = { key: first.apiKey };
    const filled = await raw(first.url, 'POST', '/api/v1/orders', { ...key, body: order, headers: { 'idempotency-key': 'k-1' } });
    expect(filled.status).toBe(201);
    const hook = await raw(first.url, 'POST', '/api/v1/webhooks', { ...key, body: { url: receiver.url, events: ['order.filled'] } });
    await first.state.advance(5_000); // FILLED and verified
    const pending = await raw(first.url, 'POST', '/api/v1/orders', { ...key, body: order });
    await first.state.advance(100); // still PENDING at save time
    const withdrawal = await raw(first.url, 'POST', '/api/v1/withdraw', { ...key, body: { address: TARGET, amount: 50_000_000, currency: 'TRX' } });
    expect(withdrawal.status).toBe(200);
    const before = {
      orders: (await raw(first.url, 'GET', '/api/v1/orders', key)).json,
      balance: (await raw(first.url, 'GET', '/api/v1/balance', key)).json,
      filled: (await raw(first.url, 'GET', `/api/v1/orders/${filled.json.id}`, key)).json,
      hooks: (await raw(first.url, 'GET', '/api/v1/webhooks', key)).json,
      now: first.state.now(),
      txs: first.state.chain.transactions.size,
      energy: first.state.chain.availableEnergy(TARGET),
    };
    expect(before.filled.status).toBe('FILLED');
    await first.close();
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const second = await startMockServer({ stateFile: file, rateLimits: false, clock: 'manual' });
    try {
      expect(second.apiKey).toBe(first.apiKey);
      expect(second.state.now()).toBe(before.now);
      expect((await raw(second.url, 'GET', '/api/v1/orders', key)).json).toEqual(before.orders);
      expect((await raw(second.url, 'GET', '/api/v1/balance', key)).json).toEqual(before.balance);
      expect((await raw(second.url, 'GET', `/api/v1/orders/${filled.json.id}`, key)).json).toEqual(before.filled);
      expect((await raw(second.url, 'GET', '/api/v1/webhooks', key)).json).toEqual(before.hooks);
      expect(second.state.chain.transactions.size).toBe(before.txs);
      expect(second.state.chain.availableEnergy(TARGET)).toBe(before.energy);
      // The JWT of the first run still authenticates (same secret).
      expect((await raw(second.url, 'GET', '/api/v1/balance', { jwt: first.jwt })).status).toBe(200);
      // An old Idempotency-Key replays its order instead of creating a new one.
      const replay = await raw(second.url, 'POST', '/api/v1/orders', { ...key, body: order, headers: { 'idempotency-key': 'k-1' } });
      expect(replay.status).toBe(200);
      expect(replay.json.id).toBe(filled.json.id);
      // Pending work resumes: the PENDING order fills, the withdrawal completes, webhooks fire.
      await second.state.advance(5_000);
      expect((await raw(second.url, 'GET', `/api/v1/orders/${pending.json.id}`, key)).json.status).toBe('FILLED');
      await second.state.advance(second.state.timings.withdrawalMs);
      expect(second.state.money.withdrawals.get(withdrawal.json.id)?.status).toBe('COMPLETED');
      await receiver.waitFor(2);
      // A new order gets a new id, different from every earlier one.
      const fresh = await raw(second.url, 'POST', '/api/v1/orders', { ...key, body: order });
      expect(fresh.status).toBe(201);
      expect(before.orders.orders.map((o: { id: string }) => o.id)).not.toContain(fresh.json.id);
      expect([filled.json.id, pending.json.id]).not.toContain(fresh.json.id);
      expect(second.state.checkInvariants().problems).toEqual([]);
      expect(hook.status).toBe(201);
    } finally {
      await second.close();
      await receiver.close();
    }
    // Third start: the second run's orders are there too, with the saved clock.
    first = await startMockServer({ stateFile: file, rateLimits: false, clock: 'manual' });
    try {
      expect((await raw(first.url, 'GET', '/api/v1/orders', key)).json.total).toBe(3);
    } finally {
      await first.close();
    }
  });

  it('a real clock keeps its advance across a restart; without a state file ids differ per run but not per seed within a run', async () => {
    const file = join(dir, 'real.json');
    const a = await startMockServer({ stateFile: file, rateLimits: false });
    await raw(a.url, 'POST', '/__mock/clock/advance', { body: { ms: 3_600_000 } });
    await a.close();
    const b = await startMockServer({ stateFile: file, rateLimits: false });
    try {
      expect(b.state.now() - Date.now()).toBeGreaterThan(3_590_000);
    } finally {
      await b.close();
    }
    // Same process, same seed: same ids (parity); a restored epoch: different ones.
    const s1 = createMockState({ seed: 9, clock: createManualClock(T0) });
    const s2 = createMockState({ seed: 9, clock: createManualClock(T0) });
    const s3 = createMockState({ restore: s1.snapshot(), clock: createManualClock(T0) });
    const id = (s: ReturnType<typeof createMockState>) => s.orders.create(s.getAccount(s.demo.account_id)!, order).id;
    const [i1, i2, i3] = [id(s1), id(s2), id(s3)];
    expect(i1).toBe(i2);
    expect(i3).not.toBe(i1);
    for (const s of [s1, s2, s3]) s.dispose();
  });

  it('a damaged or foreign file is refused with a message naming it; the text round-trips Maps, Sets and bigints', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"hello": 1}');
    await expect(startMockServer({ stateFile: bad })).rejects.toThrow(/bad\.json is not a trx-rent mock state file/);
    writeFileSync(bad, '{oops');
    await expect(startMockServer({ stateFile: bad })).rejects.toThrow(/bad\.json is not valid JSON/);
    const s = createMockState({ seed: 4, clock: createManualClock(T0) });
    const text = encodeState(s.snapshot());
    const back = decodeState(text);
    expect(back.chain.accounts).toBeInstanceOf(Map);
    expect(encodeState(back)).toBe(text);
    s.dispose();
    expect(readFileSync(join(dir, 'world.json'), 'utf8')).toMatch(/^\{"format":"trx-rent-mock-state","version":1,/);
  });
});
