/**
 * `trx-rent mock accounts`: the sandbox's funded test accounts (like anvil's), against a mock the
 * settings point at: keys derived from the mock's seed (the same for the same seed, other for
 * another), each key's address the one listed, each an account on the mock's chain holding
 * 10,000 TRX and 10,000 USDT from genesis, and a transaction signed with a listed key lands.
 * The output says the keys are sandbox keys.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../../src/mock/index.js';
import { buildTrxTransfer, privateKeyToTronAddress, signTransaction } from '../../../src/protocol/tron-transaction.js';
import { errorLine, json, runCliInProcess } from '../run.js';

let mock: MockServer;
let other: MockServer;
beforeAll(async () => {
  [mock, other] = await Promise.all([startMockServer({ port: 0, seed: 11, rateLimits: false }), startMockServer({ port: 0, seed: 12, rateLimits: false })]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), other?.close()]);
});

const accounts = async (m: MockServer, extra: string[] = []) => {
  const r = await runCliInProcess(['mock', 'accounts', '--json', ...extra], { env: { TRX_RENT_BASE_URL: m.url } });
  expect(r.code, r.stderr).toBe(0);
  return json<{
    mock: string;
    seed: number;
    note: string;
    accounts: Array<{ index: number; address: string; private_key: string; activated: boolean; trx: string; usdt: string }>;
  }>(r);
};

describe('trx-rent mock accounts', () => {
  it("ten accounts from the mock's seed: each key's address, activated, 10,000 TRX and 10,000 USDT on its node", async () => {
    const out = await accounts(mock);
    expect(out).toMatchObject({ mock: mock.url, seed: 11 });
    expect(out.note).toMatch(/Sandbox keys: derived from the mock's seed.*never send real funds/);
    expect(out.accounts).toHaveLength(10);
    expect(new Set(out.accounts.map((a) => a.address)).size).toBe(10);
    for (const [i, a] of out.accounts.entries()) {
      expect(a.index).toBe(i);
      expect(a.private_key).toMatch(/^[0-9a-f]{64}$/);
      expect(privateKeyToTronAddress(a.private_key)).toBe(a.address);
      expect(a).toMatchObject({ activated: true, trx: '10000', usdt: '10000' });
      expect(mock.state.chain.trxBalance(a.address)).toBe(10_000_000_000n);
    }
    // Deterministic from the seed alone: the same seed gives the same accounts; another seed others.
    expect((await accounts(mock)).accounts).toEqual(out.accounts);
    const others = await accounts(other);
    expect(others.seed).toBe(12);
    expect(others.accounts.map((a) => a.address).filter((a) => out.accounts.some((b) => b.address === a))).toEqual([]);
  });

  it('a listed key signs a transfer the mock accepts; human output lists addresses, then keys, then the warning', async () => {
    const [first, second] = (await accounts(mock)).accounts;
    const head = mock.state.chain.height();
    const tx = signTransaction(
      buildTrxTransfer({
        from: first!.address,
        to: second!.address,
        amountSun: 1_000_000n,
        refBlock: { number: head, hash: mock.state.chain.blockId(head) },
        now: mock.state.now(),
      }),
      first!.private_key,
    );
    const sent = (await (await fetch(`${mock.url}/wallet/broadcasttransaction`, { method: 'POST', body: JSON.stringify(tx) })).json()) as { result?: boolean };
    expect(sent.result).toBe(true);
    expect(mock.state.chain.trxBalance(second!.address)).toBe(10_001_000_000n);
    const human = await runCliInProcess(['mock', 'accounts', '--count', '2', '--no-json'], { env: { TRX_RENT_BASE_URL: mock.url } });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(
      new RegExp(
        `^Available accounts on the mock at ${mock.url.replace(/[/.]/g, '\\$&')} \\(seed 11\\)\\n\\(0\\) ${first!.address} \\([\\d.]+ TRX, 10000 USDT\\)\\n\\(1\\) ${second!.address} \\(10001 TRX, 10000 USDT\\)\\n\\nPrivate keys\\n\\(0\\) ${first!.private_key}\\n\\(1\\) ${second!.private_key}\\n\\nSandbox keys: `,
      ),
    );
  });

  it('a base URL that is no mock: NOT_A_MOCK (or its error), no keys printed', async () => {
    const r = await runCliInProcess(['mock', 'accounts', '--json'], { env: { TRX_RENT_BASE_URL: 'http://127.0.0.1:9' } });
    expect(r.code).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(errorLine(r).code).toMatch(/CONNECTION_ERROR|NOT_A_MOCK/);
  });
});
