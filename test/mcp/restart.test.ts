/**
 * Issue 37, item 2: the MCP server's keyed spends and x402 payments outlive a SIGKILL. A built
 * `trx-rent mcp` process (stdio, the SDK's own client) spends on a mock running in this test
 * process; the answer is lost after the service acted (the mock's chaos `drop`, or a loopback
 * proxy for the paid API); the process is SIGKILLed and a new one is started on the same state
 * folder. The mock's order, withdrawal and payment logs are the judge: one each.
 *
 * - create_order and withdraw: the new process holds the spend at start-up, settles it by
 *   replaying its Idempotency-Key (its stderr says so), counts it against --session-limit (a
 *   different spend that fits the cap alone is refused), and a call again with the same
 *   arguments is answered with the first call's order or withdrawal, not a second one.
 * - an x402 call: the payment counts against the new process's --x402-budget (a call again is
 *   refused before anything is signed), once: a third process has the whole budget again.
 *
 * Needs the build (`npm run build`).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TrxRent } from '../../src/client.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { pollUntil } from '../../src/utils/clock.js';
import { addressMaker } from '../helpers/wallets.js';
import type { Hostile } from '../security/hostile.js';
import { KEYS, type Spawned, call, errorOf, forward, ok, proxy, spawnMcp } from './helpers.js';

let mock: MockServer;
let api: TrxRent;
const closing: Array<{ close(): Promise<unknown> }> = [];

beforeAll(async () => {
  mock = await startMockServer({ rateLimits: false, seed: 372, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
  api = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey });
});
afterAll(async () => {
  for (const c of closing) await c.close().catch(() => undefined);
  await mock?.close();
});
const { target } = addressMaker(() => mock, 'mcp-restart');

/** A spending server on `baseUrl` with its state in `configDir`. */
async function server(configDir: string, flags: string[], baseUrl = mock.url): Promise<Spawned> {
  const s = await spawnMcp(['mcp', '--allow-spend', '--spend-without-confirmation', ...flags], {
    configDir,
    env: { TRX_RENT_BASE_URL: baseUrl, TRX_RENT_API_KEY: mock.apiKey, TRX_RENT_X402_TRON_KEY: KEYS.tron },
  });
  closing.push(s);
  return s;
}

/** Until the server's stderr has a line matching `pattern` (bounded). */
async function logged(s: Spawned, pattern: RegExp): Promise<string> {
  return pollUntil<string>(
    async () => {
      const line = s
        .stderr()
        .split('\n')
        .find((l) => pattern.test(l));
      return line ? { done: true, value: line } : { done: false };
    },
    { timeoutMs: 20_000, intervalMs: 50, maxIntervalMs: 200, timeoutMessage: () => `no line matching ${pattern} in:\n${s.stderr()}` },
  );
}

const ordersTo = async (address: string) => (await api.orders.list({ limit: 100 })).orders.filter((o) => o.target_address === address);
const withdrawalsTo = (address: string) => [...mock.state.money.withdrawals.values()].filter((w) => w.address === address);

describe('an MCP server SIGKILLed after a lost answer, restarted on the same state folder', () => {
  test('create_order: held and settled by its key at start-up, counted against the cap; the same call again gets the one order', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'trx-rent-mcp-restart-'));
    const address = target();
    const price = Number((await api.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 })).best!.price_sun);
    const order = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: address, max_price_sun: price };
    const most = Math.ceil(65_000 * price);
    // One order fits the server's cap, two do not.
    const flags = ['--max-order-trx', '50', '--session-limit', String((most * 1.5) / 1e6)];

    const first = await server(configDir, flags);
    // The mock places the order, then every answer to it (the SDK's retries with the same key included) is lost.
    mock.chaos.setRules([{ route: 'POST /api/v1/orders', kind: 'drop', times: 10 }]);
    const lost = errorOf(await call(first.client, 'create_order', order, 30_000));
    mock.chaos.setRules([]);
    expect(lost.code).toBe('CONNECTION_ERROR');
    expect(lost.details).toMatchObject({ outcome: 'unknown', idempotency_key: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(lost.message).toMatch(/Calling create_order again with the same arguments/);
    expect(await ordersTo(address)).toHaveLength(1);
    await first.kill();

    const second = await server(configDir, flags);
    // At start-up, before any call: held again, then found by replaying its key and body.
    expect(await logged(second, /outcome unknown create_order \(left by an earlier run of the server\)/)).toContain(lost.details!.idempotency_key as string);
    expect(await logged(second, /found create_order/)).toContain(lost.details!.idempotency_key as string);
    const [placed] = await ordersTo(address);
    // It counts against the cap: another order that fits the cap alone is refused.
    const other = errorOf(await call(second.client, 'create_order', { ...order, target_address: target() }));
    expect(other.code).toBe('SESSION_LIMIT');
    // The same call again is the lost call's retry: answered with its order, nothing placed.
    const again = ok<{ order: { id: string }; max_price_sun: number }>(await call(second.client, 'create_order', order));
    expect(again.order.id).toBe(placed!.id);
    expect(again.max_price_sun).toBe(price);
    expect(second.stderr()).toMatch(/answered create_order again/);
    expect(await ordersTo(address)).toHaveLength(1);
    // Answered once: a third call with the same arguments is a new order (the cap refuses it here).
    expect(errorOf(await call(second.client, 'create_order', order)).code).toBe('SESSION_LIMIT');
    expect(await ordersTo(address)).toHaveLength(1);
    await second.close();
  }, 90_000);

  test('withdraw: held and settled by its key at start-up, counted against the cap; the same call again gets the one withdrawal', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'trx-rent-mcp-restart-'));
    const address = target();
    const withdrawal = { address, amount: 50_000_000, currency: 'TRX' };
    // One 50 TRX withdrawal fits the server's cap, two do not.
    const flags = ['--max-withdrawal', '60', '--session-limit', '75'];

    const first = await server(configDir, flags);
    mock.chaos.setRules([{ route: 'POST /api/v1/withdraw', kind: 'drop', times: 10 }]);
    const lost = errorOf(await call(first.client, 'withdraw', withdrawal, 30_000));
    mock.chaos.setRules([]);
    expect(lost.details).toMatchObject({ outcome: 'unknown' });
    expect(withdrawalsTo(address)).toHaveLength(1);
    await first.kill();

    const second = await server(configDir, flags);
    expect(await logged(second, /found withdraw \(idempotency key/)).toContain(lost.details!.idempotency_key as string);
    expect(errorOf(await call(second.client, 'withdraw', { ...withdrawal, address: target() })).code).toBe('SESSION_LIMIT');
    const again = ok<{ id: string }>(await call(second.client, 'withdraw', withdrawal));
    expect(again.id).toBe(withdrawalsTo(address)[0]!.id);
    expect(withdrawalsTo(address)).toHaveLength(1);
    await second.close();
  }, 90_000);

  test('x402: the payment whose answer was lost counts against the restarted server’s budget, once', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'trx-rent-mcp-restart-'));
    let lose = true;
    // In front of the mock: a paid request is served and settled, its answer never arrives.
    const paywall: Hostile = await proxy(mock, (req, res) => {
      if (!lose || !req.headers['payment-signature']) return;
      void forward(mock, req).finally(() => res.destroy());
      return true;
    });
    closing.push(paywall);
    const payments = () => mock.state.paid.paywall.payments.length;
    const before = payments();
    // The budget is one call.
    const flags = ['--max-payment', '0.01', '--x402-budget', '0.01'];

    const first = await server(configDir, flags, paywall.url);
    const lost = errorOf(await call(first.client, 'x402_network', {}, 30_000));
    expect(lost.code).toBe('CONNECTION_ERROR');
    expect(payments()).toBe(before + 1);
    expect(first.stderr()).toMatch(/outcome unknown x402_network: the payment may have been settled/);
    await first.kill();
    lose = false;

    const second = await server(configDir, flags, paywall.url);
    expect(await logged(second, /counted x402_network \(left by an earlier run of the server\)/)).toMatch(/x402 budget/);
    // The budget holds the lost payment: a call again is refused before anything is signed.
    const again = errorOf(await call(second.client, 'x402_network'));
    expect(again.code).toBe('PAYMENT_REFUSED');
    expect(JSON.stringify(again.details)).toMatch(/over_budget/);
    expect(payments()).toBe(before + 1);
    await second.close();

    // Counted once: a third process has its whole budget.
    const third = await server(configDir, flags, paywall.url);
    expect(ok<{ payment: { amount_usd: string } }>(await call(third.client, 'x402_network')).payment.amount_usd).toBe('0.01');
    expect(payments()).toBe(before + 2);
    await third.close();
  }, 90_000);
});
