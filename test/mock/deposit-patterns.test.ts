/**
 * The mock's deposit patterns (`POST /__mock/chain/deposits`): customers paying into deposit
 * addresses over time on the mock clock. Over HTTP, as a test or `trx-rent mock` user drives it:
 * each deposit is a USDT transfer on the chain of an amount in [min, max] to one of the
 * addresses, the addresses stay unactivated (a TRC-20 receipt creates no account on java-tron),
 * the same seed gives the same deposits, a bad body is the spec's error envelope naming the field;
 * and `client.chain.watchTransfers` reading the chain while a pattern runs reports each deposit
 * once. The judge is the mock's chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent, virtualClock } from '../../src/index.js';
import { labelAddress } from '../../src/mock/chain/labels.js';
import type { DepositPattern } from '../../src/mock/chain/deposits.js';
import { type MockServer, createManualClock, startMockServer } from '../../src/mock/index.js';
import type { Deposit } from '../../src/tron/watch.js';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const mocks: MockServer[] = [];
const start = async (seed: number) => {
  const m = await startMockServer({ seed, clock: createManualClock(Date.UTC(2026, 11, 1)), rateLimits: false });
  mocks.push(m);
  return m;
};
let mock: MockServer;
beforeAll(async () => {
  mock = await start(4105);
});
afterAll(async () => {
  for (const m of mocks) await m.close();
});

const post = (m: MockServer, body: unknown) =>
  fetch(`${m.url}/__mock/chain/deposits`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const get = async (m: MockServer, id: string) => (await (await fetch(`${m.url}/__mock/chain/deposits/${id}`)).json()) as DepositPattern;
const addresses = (tag: string, n: number) => Array.from({ length: n }, (_, i) => labelAddress(`deposit pattern ${tag} ${i}`));
const atomic = (decimal: string) => {
  const [whole, frac = ''] = decimal.split('.');
  return BigInt(whole!) * 1_000_000n + BigInt(frac.padEnd(6, '0'));
};

describe('POST /__mock/chain/deposits', { timeout: 60_000 }, () => {
  it('lands one deposit every every_sec of mock time, in [min, max], to the addresses; they stay unactivated; the seed repeats it', async () => {
    const to = addresses('a', 20);
    const res = await post(mock, { addresses: to, every_sec: 60, min: '1.5', max: '50', count: 30 });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as DepositPattern;
    await mock.state.advance(29 * 60_000);
    expect((await get(mock, id)).deposits).toHaveLength(29);
    await mock.state.advance(10 * 60_000);
    const pattern = await get(mock, id);
    // count bounds it: 30 deposits, one a minute from a minute after the start.
    expect(pattern.deposits).toHaveLength(30);
    expect(pattern.deposits.map((d) => d.at - pattern.started_at)).toEqual(Array.from({ length: 30 }, (_, i) => (i + 1) * 60_000));
    const chain = mock.state.chain;
    const perAddress = new Map<string, bigint>();
    for (const d of pattern.deposits) {
      const tx = chain.transactions.get(d.txid)!;
      expect(tx.result).toBe('SUCCESS');
      expect(tx.transfer).toMatchObject({ to: d.to, amount: atomic(d.amount) });
      expect(tx.transfer!.token.address).toBe(USDT);
      expect(atomic(d.amount)).toBeGreaterThanOrEqual(1_500_000n);
      expect(atomic(d.amount)).toBeLessThanOrEqual(50_000_000n);
      expect(to).toContain(d.to);
      perAddress.set(d.to, (perAddress.get(d.to) ?? 0n) + atomic(d.amount));
    }
    // Spread over the addresses, and the chain's balances are the deposits.
    expect(perAddress.size).toBeGreaterThan(5);
    for (const [address, sum] of perAddress) expect(chain.tokenBalance(address, USDT)).toBe(sum);
    // Never activated: java-tron's getaccount answers {} for an address that only received TRC-20.
    const account = await (await fetch(`${mock.url}/wallet/getaccount`, { method: 'POST', body: JSON.stringify({ address: to[0], visible: true }) })).json();
    expect(account).toEqual({});
    // The same seed, the same deposits.
    const twin = await start(4105);
    const again = (await (await post(twin, { addresses: to, every_sec: 60, min: '1.5', max: '50', count: 30 })).json()) as DepositPattern;
    await twin.state.advance(40 * 60_000);
    expect((await get(twin, again.id)).deposits.map((d) => [d.to, d.amount])).toEqual(pattern.deposits.map((d) => [d.to, d.amount]));
  });

  it('stops at for_sec or on DELETE; a bad body is a 400 envelope naming the field; an unknown id is 404', async () => {
    const to = addresses('b', 3);
    const timed = (await (await post(mock, { addresses: to, every_sec: 10, for_sec: 55 })).json()) as DepositPattern;
    await mock.state.advance(120_000);
    expect((await get(mock, timed.id)).deposits).toHaveLength(5);
    const open = (await (await post(mock, { addresses: to, every_sec: 10 })).json()) as DepositPattern;
    await mock.state.advance(25_000);
    const stopped = await fetch(`${mock.url}/__mock/chain/deposits/${open.id}`, { method: 'DELETE' });
    expect(stopped.status).toBe(200);
    await mock.state.advance(60_000);
    expect((await get(mock, open.id)).deposits).toHaveLength(2);
    for (const [body, field, code = 'VALIDATION_ERROR'] of [
      [{ addresses: [] }, 'addresses'],
      [{ addresses: ['Tnot-an-address'] }, 'addresses', 'INVALID_ADDRESS'],
      [{ addresses: to, min: '1.1234567' }, 'min'],
      [{ addresses: to, every_sec: 0 }, 'every_sec'],
      [{ addresses: to, token: 'DOGE' }, 'token'],
      [{ addresses: to, min: '10', max: '1' }, 'min'],
      [{ addresses: to, extra: 1 }, ''],
    ] as Array<[Record<string, unknown>, string, string?]>) {
      const res = await post(mock, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = (await res.json()) as { error: { code: string; details?: { field?: string } } };
      expect(error).toMatchObject({ error: { code } });
      if (field) expect(String(error.error.details?.field), JSON.stringify(body)).toContain(field);
    }
    expect((await fetch(`${mock.url}/__mock/chain/deposits/dp_999`)).status).toBe(404);
    expect((await fetch(`${mock.url}/__mock/chain/deposits/dp_999`, { method: 'DELETE' })).status).toBe(404);
  });

  it('chain.watchTransfers over a running pattern reports each of its deposits once, solidified', async () => {
    const m = await start(4106);
    const to = addresses('c', 50);
    const { id } = (await (await post(m, { addresses: to, every_sec: 7, min: '0.5', max: '900', count: 60 })).json()) as DepositPattern;
    const client = new TrxRent({ baseUrl: m.url, apiKey: 'unused', tronNode: m.url, clock: virtualClock(m.state.clock), maxRetries: 3 });
    const watch = await client.chain.watchTransfers({ addresses: to, token: 'USDT', maxRequestsPerMinute: 600 });
    const reported: Deposit[] = [];
    // Seven minutes of deposits and then enough blocks for the last to solidify, a poll every 9 s.
    for (let step = 0; step < 80; step++) {
      await m.state.advance(9_000);
      for (const e of await watch.poll()) if (e.type === 'deposit') reported.push(e.deposit);
    }
    await watch.close();
    const pattern = await get(m, id);
    expect(pattern.deposits).toHaveLength(60);
    const ids = reported.map((d) => d.tx_id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Map(reported.map((d) => [d.tx_id, BigInt(d.amount_atomic)]))).toEqual(new Map(pattern.deposits.map((d) => [d.txid, atomic(d.amount)])));
    expect(reported.every((d) => d.confirmed)).toBe(true);
  });
});
