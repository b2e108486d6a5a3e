/**
 * ensure_resources and send_token through the SDK's own MCP client, against the mock over real
 * HTTP: read-only unless --allow-spend, the same caps as the other spending tools, the user's
 * confirmation (declined: nothing ordered or sent), and a second ensure that buys (and asks)
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TrxRent } from '../../src/client.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { sunToTrx } from '../../src/utils/units.js';
import { KEYS, call, type connect, errorOf, ok, type Connected, accept, decline, session as sessionOn } from './helpers.js';

let mock: MockServer;
let api: TrxRent;
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const WALLET = privateKeyToTronAddress(KEYS.tron);
beforeAll(async () => {
  mock = await startMockServer({ rateLimits: false, seed: 31, timings: { selectMs: 20, fillMs: 40, verifyMs: 60 } });
  api = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey });
  const chain = mock.state.chain;
  chain.syntheticTransfer({ token: chain.token('USDT')!, to: WALLET, amount: 50_000_000n, label: 'mcp wallet' });
  chain.activate(WALLET); // an account on chain: java-tron refuses a sender that is none
});
afterAll(() => mock.close());

const orderCount = async () => (await api.orders.list({ limit: 1 })).total;
let n = 0;
/** A fresh, valid address with nothing on chain. */
const fresh = () => privateKeyToTronAddress((0x70 + ++n).toString(16).repeat(32));

const session = <T>(options: Parameters<typeof connect>[1], run: (c: Connected) => Promise<T>, elicit?: Parameters<typeof connect>[2]) =>
  sessionOn(mock, options, run, elicit);

describe('ensure_resources', () => {
  test('read-only without --allow-spend: nothing ordered', async () => {
    const before = await orderCount();
    await session({}, async ({ client }) => {
      expect(errorOf(await call(client, 'ensure_resources', { address: fresh(), energy: 65_000 })).code).toBe('READ_ONLY');
      expect(errorOf(await call(client, 'send_token', { token: 'USDT', to: fresh(), amount: '1' })).code).toBe('READ_ONLY');
    });
    expect(await orderCount()).toBe(before);
  });

  test('buys the deficit once, confirmed and logged; a second call buys nothing and asks nothing', async () => {
    const address = fresh();
    mock.state.chain.activate(address); // providers can delegate only to an account on chain
    await session(
      { allowSpend: true },
      async ({ client, asked, logs }) => {
        const first = ok<{ bought: { energy: number }; after: { energy: number }; cost_sun: number; order: { id: string } }>(
          await call(client, 'ensure_resources', { address, energy: 20_000 }, 30_000),
        );
        expect(first.bought.energy).toBe(65_000);
        expect(first.after.energy).toBe(65_000);
        expect(mock.state.chain.availableEnergy(address)).toBe(65_000);
        expect(asked).toHaveLength(1);
        expect(asked[0]).toMatch(new RegExp(`Rent 65000 ENERGY to ${address} .*at most [\\d.]+ TRX`));
        expect(logs.some((l) => l.includes('spent ensure_resources: bought 65000 energy'))).toBe(true);
        const again = ok<{ order: null; cost_sun: number }>(await call(client, 'ensure_resources', { address, energy: 20_000 }));
        expect(again).toMatchObject({ order: null, cost_sun: 0 });
        expect(asked).toHaveLength(1);
      },
      accept,
    );
  });

  test('over --max-order-trx or declined: refused, nothing ordered', async () => {
    const before = await orderCount();
    const target = () => {
      const address = fresh();
      mock.state.chain.activate(address);
      return address;
    };
    await session(
      { allowSpend: true, limits: { maxOrderTrx: '0.5' } },
      async ({ client }) => {
        expect(errorOf(await call(client, 'ensure_resources', { address: target(), energy: 65_000 })).code).toBe('SPEND_LIMIT');
      },
      accept,
    );
    await session(
      { allowSpend: true },
      async ({ client }) => {
        expect(errorOf(await call(client, 'ensure_resources', { address: target(), energy: 65_000 })).code).toBe('DECLINED');
      },
      decline,
    );
    expect(await orderCount()).toBe(before);
  });

  test('a target TRON cannot delegate to is refused before anything is ordered or asked: never activated, or a contract (ensure_resources and create_order)', async () => {
    const before = await orderCount();
    const ghost = fresh(); // nothing on chain
    await session(
      { allowSpend: true },
      async ({ client, asked }) => {
        const notActivated = errorOf(await call(client, 'ensure_resources', { address: ghost, energy: 65_000 }));
        expect(notActivated.code).toBe('TARGET_NOT_ACTIVATED');
        expect(notActivated.message).toMatch(/not activated on chain.*nothing was ordered.*Send it TRX first/);
        expect(errorOf(await call(client, 'ensure_resources', { address: USDT, energy: 65_000 })).code).toBe('TARGET_IS_CONTRACT');
        const body = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600 };
        expect(errorOf(await call(client, 'create_order', { ...body, target_address: ghost })).code).toBe('TARGET_NOT_ACTIVATED');
        expect(errorOf(await call(client, 'create_order', { ...body, target_address: USDT })).code).toBe('TARGET_IS_CONTRACT');
        expect(asked).toHaveLength(0);
      },
      accept,
    );
    expect(await orderCount()).toBe(before);
  });
});

describe('send_token', () => {
  test('off unless --max-withdrawal; declined sends nothing', async () => {
    const to = fresh();
    const before = await orderCount();
    await session(
      { allowSpend: true },
      async ({ client }) => {
        const off = errorOf(await call(client, 'send_token', { token: 'USDT', to, amount: '1' }));
        expect(off.code).toBe('SPEND_LIMIT');
        expect(off.message).toMatch(/--max-withdrawal/);
      },
      accept,
    );
    await session(
      { allowSpend: true, limits: { maxWithdrawal: '100' } },
      async ({ client }) => {
        expect(errorOf(await call(client, 'send_token', { token: 'USDT', to, amount: '1' })).code).toBe('DECLINED');
      },
      decline,
    );
    await session(
      { allowSpend: true, limits: { maxWithdrawal: '0.5' } },
      async ({ client }) => {
        expect(errorOf(await call(client, 'send_token', { token: 'USDT', to, amount: '1' })).code).toBe('SPEND_LIMIT');
      },
      accept,
    );
    expect(await orderCount()).toBe(before);
    expect(mock.state.chain.tokenBalance(to, USDT)).toBe(0n);
  });

  test('sends from the wallet with the energy rented: one confirmation naming the rental and the burn it avoids', async () => {
    const to = fresh();
    await session(
      { allowSpend: true, limits: { maxWithdrawal: '100' } },
      async ({ client, asked, logs }) => {
        const sent = ok<{
          tx_id: string;
          from: string;
          saving_sun: number;
          burn_cost_sun: number;
          total_cost_sun: number;
          receipt: { energy_burned_sun: number };
        }>(await call(client, 'send_token', { token: 'USDT', to, amount: '2.5' }, 30_000));
        expect(sent.from).toBe(WALLET);
        expect(sent.receipt.energy_burned_sun).toBe(0);
        expect(sent.saving_sun).toBe(sent.burn_cost_sun - sent.total_cost_sun);
        expect(sent.saving_sun).toBeGreaterThan(0);
        expect(mock.state.chain.tokenBalance(to, USDT)).toBe(2_500_000n);
        expect(asked).toHaveLength(1);
        expect(asked[0]).toMatch(/Send 2\.5 USDT from T\w+ to T\w+, renting 130000 energy for at most [\d.]+ TRX instead of burning 13 TRX/);
        // one spend, both currencies; the TRX counted is the charge (rental + receipt fee), not the quote
        const spent = logs.filter((l) => l.includes('spent send_token'));
        expect(spent).toHaveLength(1);
        expect(spent[0]).toMatch(/server total 2\.5 USDT of 100 USDT; server total ([\d.]+) TRX of 100 TRX/);
        expect(spent[0]).toContain(`server total ${sunToTrx(sent.total_cost_sun)} TRX`);
      },
      accept,
    );
  });
});
