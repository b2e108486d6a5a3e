/**
 * Issue 29, item 3: an unknown outcome of the MCP server's chain spends is settled by looking
 * up what the spend recorded, never by running the tool again. Driven through the SDK's own MCP
 * client against the mock over real HTTP, with a hostile loopback proxy in front of the mock's
 * TRON node; the mock's chain and order log are the judge, the guard's own state the witness.
 */
import type { ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TrxRent } from '../../src/client.js';
import { Session } from '../../src/mcp/session.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { pollUntil } from '../../src/utils/clock.js';
import { type Hostile, type Seen, json } from '../security/hostile.js';
import { addressMaker } from '../helpers/wallets.js';
import { KEYS, accept, call, connect, errorOf, ok, proxy as mockProxy } from './helpers.js';

let mock: MockServer;
let api: TrxRent;
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const WALLET = privateKeyToTronAddress(KEYS.tron);
const hostiles: Hostile[] = [];

beforeAll(async () => {
  mock = await startMockServer({ rateLimits: false, seed: 29, timings: { selectMs: 20, fillMs: 40, verifyMs: 60 } });
  api = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey });
  const chain = mock.state.chain;
  chain.syntheticTransfer({ token: chain.token('USDT')!, to: WALLET, amount: 50_000_000n, label: 'mcp wallet' });
  // TRX for the bandwidth of the sends after the first (the free allowance covers one)
  chain.fundTrx(WALLET, 100_000_000n);
});
afterAll(async () => {
  for (const h of hostiles) await h.close();
  await mock.close();
});

const orderCount = async () => (await api.orders.list({ limit: 1 })).total;
const { fresh, target } = addressMaker(() => mock, 'replays');

/** A loopback proxy to the mock, closed after the file; `tamper` may answer a request itself (return true). */
async function proxy(tamper: (req: Seen, res: ServerResponse) => boolean | void): Promise<Hostile> {
  const h = await mockProxy(mock, tamper);
  hostiles.push(h);
  return h;
}

describe('send_token whose receipt poll fails', () => {
  test('is found by its tx id, never sent again: the recipient is paid once, the log says found, the server answers throughout', async () => {
    let failing = true;
    let faults = 0;
    // The node answers gettransactioninfobyid with 503s and 429s in turn while `failing`; the rest passes.
    const node = await proxy((req, res) => {
      if (!failing || req.url !== '/wallet/gettransactioninfobyid') return;
      if (faults++ % 2 === 0) json(res, 503, { Error: 'unavailable' });
      else json(res, 429, { Error: 'rate limited' }, { 'retry-after': '0' });
      return true;
    });
    const session = new Session({
      baseUrl: mock.url,
      apiKey: mock.apiKey,
      wallet: { tron: KEYS.tron },
      tronFullNode: node.url,
      allowSpend: true,
      limits: { maxWithdrawal: '100' },
      // The send gives up at this deadline (120 s by default): long after the broadcast and a few receipt polls.
      sendTimeoutMs: 30_000,
      log: (l) => logs.push(l),
    });
    const logs: string[] = [];
    const c = await connect(mock, {}, accept, session);
    const paid = fresh();
    const other = fresh();
    const ordersBefore = await orderCount();
    const sentFromWallet = () => [...mock.state.chain.transactions.values()].filter((t) => t.owner === WALLET && t.transfer).length;
    const txBefore = sentFromWallet();
    try {
      // The engine waits the node's faults out (polling, re-broadcasting the same bytes) until
      // the send's deadline (sendTimeoutMs), then gives up: outcome unknown.
      const first = errorOf(await call(c.client, 'send_token', { token: 'USDT', to: paid, amount: '1.5' }, 60_000));
      expect(first.code, first.message).toBe('TIMEOUT');
      expect(first.message).toMatch(/outcome is unknown/);
      expect(first.details).toMatchObject({
        outcome: 'unknown',
        stage: 'receipt',
        transfer_sent: 'unknown',
        idempotency_key: expect.stringMatching(/^[0-9a-f-]{36}$/),
        tx_id: expect.stringMatching(/^[0-9a-f]{64}$/),
        order_ids: [expect.any(String)],
      });
      expect(faults).toBeGreaterThan(2); // the receipt poll met the node's faults throughout
      // the broadcast did go through: the chain paid the recipient
      expect(mock.state.chain.tokenBalance(paid, USDT)).toBe(1_500_000n);
      // the error names the transaction that paid (the one id to look up)
      const paying = [...mock.state.chain.transactions.values()].filter((t) => t.transfer?.to === paid);
      expect(paying.map((t) => t.txid)).toEqual([first.details!.tx_id]);
      expect(logs.some((l) => /outcome unknown send_token: .*transfer [0-9a-f]{64} signed and maybe broadcast/.test(l))).toBe(true);
      // the tokens stay counted (reserved), the rental's charge is known (its order FILLED)
      expect(session.guard.reserved('USDT')).toBe(1_500_000n);
      expect(session.guard.unknownOutcomes).toBe(1);

      // the server answers throughout: a read, and a spend that needs no receipt (its lookup of
      // the first one fails again, quickly; the first stays reserved)
      expect(typeof ok<{ trx: number }>(await call(c.client, 'get_balance')).trx).toBe('number');
      const ensured = ok<{ bought: { energy: number } }>(await call(c.client, 'ensure_resources', { address: target(), energy: 65_000 }, 60_000));
      expect(ensured.bought.energy).toBe(65_000);
      expect(session.guard.unknownOutcomes).toBe(1);
      expect(logs.some((l) => l.includes('found send_token'))).toBe(false);

      // the node answers again: the next spend first looks the transfer up and finds it
      failing = false;
      const second = ok<{ tx_id: string }>(await call(c.client, 'send_token', { token: 'USDT', to: other, amount: '2' }, 60_000));
      const found = logs.filter((l) => l.includes('found send_token'));
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(
        /found send_token \(idempotency key [0-9a-f-]{36}\): order \S+ FILLED for [\d.]+ TRX; transfer [0-9a-f]{64} confirmed in block \d+: sent 1\.5 USDT to T\w+/,
      );
      expect(session.guard.unknownOutcomes).toBe(0);
      expect(session.guard.reserved('USDT')).toBe(0n);
      expect(session.guard.reserved('TRX')).toBe(0n);
      expect(session.guard.spent('USDT')).toBe(3_500_000n);

      // the judge: paid once each, one transfer per send, one order per rental (no replay bought or signed anything)
      expect(mock.state.chain.tokenBalance(paid, USDT)).toBe(1_500_000n);
      expect(mock.state.chain.tokenBalance(other, USDT)).toBe(2_000_000n);
      expect(sentFromWallet() - txBefore).toBe(2);
      expect(await orderCount()).toBe(ordersBefore + 3);
      expect(second.tx_id).toMatch(/^[0-9a-f]{64}$/);
    } finally {
      await c.close();
    }
  }, 120_000);
});

describe('ensure_resources whose order answer is lost', () => {
  test('is found by replaying its recorded key and body before the next spend: one order, its charge counted', async () => {
    let lose = true;
    // in front of the account API: the mock creates the order, its answers never arrive
    const service = await proxy((req, res) => {
      if (!lose || req.method !== 'POST' || req.url !== '/api/v1/orders') return;
      void fetch(`${mock.url}${req.url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': mock.apiKey, 'idempotency-key': String(req.headers['idempotency-key']) },
        body: req.body,
      })
        .then((r) => r.text())
        .finally(() => res.destroy());
      return true;
    });
    const logs: string[] = [];
    const session = new Session({
      baseUrl: service.url,
      apiKey: mock.apiKey,
      wallet: { tron: KEYS.tron },
      tronFullNode: mock.url,
      allowSpend: true,
      log: (l) => logs.push(l),
    });
    const c = await connect(mock, {}, accept, session);
    const before = await orderCount();
    const address = target();
    try {
      const first = errorOf(await call(c.client, 'ensure_resources', { address, energy: 65_000 }, 60_000));
      expect(first.code).toBe('CONNECTION_ERROR');
      expect(first.details).toMatchObject({ outcome: 'unknown' });
      expect(await orderCount()).toBe(before + 1);
      expect(session.guard.unknownOutcomes).toBe(1);
      const quoted = session.guard.reserved('TRX');
      expect(quoted).toBeGreaterThan(0n);

      lose = false;
      // the next spend looks it up first (the order may still be filling: then it stays held, and the one after finds it)
      const second = ok<{ cost_sun: number }>(await call(c.client, 'ensure_resources', { address: target(), energy: 65_000 }, 60_000));
      await pollUntil(
        async () => {
          await session.guard.reconcile();
          return session.guard.unknownOutcomes === 0 ? { done: true, value: undefined } : { done: false };
        },
        { timeoutMs: 5_000, intervalMs: 100 },
      );
      expect(session.guard.unknownOutcomes).toBe(0);
      expect(logs.filter((l) => l.includes('found ensure_resources'))).toHaveLength(1);
      // judged by the mock: one order for the first call (found, not bought again), one for the second
      expect(await orderCount()).toBe(before + 2);
      const [firstOrder] = (await api.orders.list({ limit: 5 })).orders.filter((o) => o.target_address === address);
      const full = await api.orders.get(firstOrder!.id);
      expect(full.status).toBe('FILLED');
      // the charges, not the quotes
      expect(session.guard.spent('TRX')).toBe(BigInt(full.total_cost_sun!) + BigInt(second.cost_sun));
      expect(session.guard.reserved('TRX')).toBe(0n);
    } finally {
      await c.close();
    }
  }, 120_000);
});

describe('concurrent spends against a cap below one rental', () => {
  test('six at once are all refused promptly, nothing stays reserved, memory stays flat over rounds', async () => {
    const logs: string[] = [];
    // 1 TRX (and 1 USDT) for the whole server: less than any 65000-energy rental
    const session = new Session({
      baseUrl: mock.url,
      apiKey: mock.apiKey,
      wallet: { tron: KEYS.tron },
      tronFullNode: mock.url,
      allowSpend: true,
      limits: { maxWithdrawal: '100', sessionLimit: '1' },
      log: (l) => logs.push(l),
    });
    const c = await connect(mock, {}, accept, session);
    const ordersBefore = await orderCount();
    const round = () =>
      Promise.all([
        ...[0, 1, 2].map(() => call(c.client, 'send_token', { token: 'USDT', to: fresh(), amount: '0.5' }, 20_000)),
        ...[0, 1, 2].map(() => call(c.client, 'ensure_resources', { address: target(), energy: 65_000 }, 20_000)),
      ]);
    // a real collection before each reading, so the figure is what stays alive, not garbage
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const heap = () => {
      gc();
      return process.memoryUsage().heapUsed;
    };
    try {
      const started = Date.now();
      const first = await round();
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(first.map((r) => errorOf(r).code)).toEqual(Array(6).fill('SESSION_LIMIT'));
      expect(session.guard.reserved('TRX')).toBe(0n);
      expect(session.guard.reserved('USDT')).toBe(0n);
      expect(session.guard.unknownOutcomes).toBe(0);

      // repeated rounds: the same refusals, no state left behind, no growth beyond noise
      for (let i = 0; i < 3; i++) await round();
      const base = heap();
      const rss = process.memoryUsage().rss;
      for (let i = 0; i < 15; i++) {
        const results = await round();
        expect(results.every((r) => r.isError && errorOf(r).code === 'SESSION_LIMIT')).toBe(true);
      }
      expect(session.guard.reserved('TRX') + session.guard.reserved('USDT')).toBe(0n);
      expect(session.guard.spent('TRX') + session.guard.spent('USDT')).toBe(0n);
      expect(session.guard.unknownOutcomes).toBe(0);
      if (process.env.REPLAYS_FIGURES)
        console.info(
          `heap +${((heap() - base) / 1048576).toFixed(1)} MiB, rss +${((process.memoryUsage().rss - rss) / 1048576).toFixed(1)} MiB over 15 rounds`,
        );
      expect(heap() - base).toBeLessThan(8 * 1024 * 1024);
      expect(process.memoryUsage().rss - rss).toBeLessThan(128 * 1024 * 1024);
      // nothing was ordered or sent, nothing was left "unknown"
      expect(await orderCount()).toBe(ordersBefore);
      expect(logs.some((l) => l.includes('outcome unknown'))).toBe(false);
    } finally {
      await c.close();
    }
  }, 120_000);
});
