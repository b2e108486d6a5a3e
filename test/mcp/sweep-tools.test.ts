/**
 * sweep_plan and sweep through the SDK's own MCP client, against the mock over real HTTP: the
 * deposit addresses are the server's HD wallet (--sweep-mnemonic-file), the activations paid by
 * its TRON wallet. The plan spends nothing; the sweep is read-only without --allow-spend, refused
 * over the per-call cap, and with approval sweeps each balance once; the same call again sweeps
 * nothing more.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { deriveAddresses } from '../../src/protocol/hd-keys.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { receivedBy, treasury } from '../workflows/sweep-helpers.js';
import { KEYS, type Connected, accept, call, type connect, errorOf, ok, session as sessionOn } from './helpers.js';

const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
let mock: MockServer;
let to: string;
let addresses: string[];
beforeAll(async () => {
  mock = await startMockServer({ rateLimits: false, seed: 4141, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
  const chain = mock.state.chain;
  chain.fundTrx(privateKeyToTronAddress(KEYS.tron), 1_000_000_000n);
  addresses = (await deriveAddresses({ mnemonic: MNEMONIC, from: 100, count: 6 })).map((a) => a.address);
  // Four hold enough (two never activated), two hold too little.
  addresses.forEach((a, i) => {
    chain.syntheticTransfer({ token: chain.token('USDT')!, to: a, amount: i < 4 ? BigInt(20_000_000 + i) : 100_000n, label: `mcp deposit ${i}` });
    if (i % 2 === 1) chain.fundTrx(a, 1_000_000n);
  });
  to = treasury(mock, 'mcp');
});
afterAll(() => mock.close());

const session = <T>(options: Parameters<typeof connect>[1], run: (c: Connected) => Promise<T>, elicit?: Parameters<typeof connect>[2]) =>
  sessionOn(mock, { sweepMnemonic: MNEMONIC, ...options }, run, elicit);
const orders = () => mock.state.orders.all(mock.state.demo.account_id).length;
const args = () => ({ to, hd_from: 100, hd_count: 6, min: '10' });

describe('sweep_plan and sweep', { timeout: 60_000 }, () => {
  test('the plan: which addresses, which to activate, one order each; nothing spent', async () => {
    const before = orders();
    await session({}, async ({ client }) => {
      const plan = ok<{ to_sweep: number; below_min: number; to_activate: number; orders: number; total_cost_sun: number; burn_cost_sun: number }>(
        await call(client, 'sweep_plan', args(), 30_000),
      );
      expect(plan).toMatchObject({ to_sweep: 4, below_min: 2, to_activate: 2, orders: 4 });
      expect(plan.total_cost_sun).toBeLessThan(plan.burn_cost_sun);
    });
    expect(orders()).toBe(before);
  });

  test('read-only or over the cap: refused, nothing spent; approved: each balance swept once, and once only', async () => {
    const before = orders();
    await session({}, async ({ client }) => {
      expect(errorOf(await call(client, 'sweep', args())).code).toBe('READ_ONLY');
    });
    await session(
      { allowSpend: true, limits: { maxOrderTrx: '1' } },
      async ({ client }) => {
        expect(errorOf(await call(client, 'sweep', args(), 30_000)).code).toBe('SPEND_LIMIT');
      },
      accept,
    );
    expect(orders()).toBe(before);
    expect(receivedBy(mock, to).size).toBe(0);
    for (let i = 0; i < 2; i++) {
      await session(
        { allowSpend: true, limits: { maxOrderTrx: '100', sessionLimit: '500' } },
        async ({ client }) => {
          const report = ok<{ swept: number; complete: boolean }>(await call(client, 'sweep', args(), 60_000));
          expect(report).toMatchObject({ swept: 4, complete: true });
        },
        accept,
      );
    }
    const got = receivedBy(mock, to);
    expect(got.size).toBe(4);
    for (const [i, a] of addresses.slice(0, 4).entries()) expect(got.get(a)).toEqual({ count: 1, atomic: BigInt(20_000_000 + i) });
    expect(orders() - before).toBe(4);
  });
});
