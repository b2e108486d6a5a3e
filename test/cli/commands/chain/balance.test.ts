/**
 * `trx-rent chain balance ADDRESS [--token usdt]` (like `cast balance`), in-process against the
 * mock, whose node it finds from the base URL: TRX and the token read from the node, exact, the
 * same as the mock's chain holds; an address that holds only tokens is said not activated.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../../../src/mock/index.js';
import { privateKeyToTronAddress } from '../../../../src/protocol/tron-transaction.js';
import { errorLine, json, runCliInProcess } from '../../run.js';

let mock: MockServer;
let env: Record<string, string>;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 29, rateLimits: false });
  env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
});
afterAll(async () => {
  await mock?.close();
});

const fresh = (tag: string) => privateKeyToTronAddress(createHash('sha256').update(`chain balance ${tag}`).digest('hex'));

describe('trx-rent chain balance', () => {
  it('TRX, and with --token usdt the token, exact, as the chain holds them (--json and for people)', async () => {
    const address = fresh('funded');
    const chain = mock.state.chain;
    chain.fundTrx(address, 12_345_678n);
    chain.syntheticTransfer({ token: chain.token('USDT')!, to: address, amount: 9_000_000_000_000_001n, label: 'balance test' });
    const trx = await runCliInProcess(['chain', 'balance', address, '--json'], { env });
    expect(trx.code, trx.stderr).toBe(0);
    expect(json(trx)).toEqual({ address, activated: true, trx_sun: 12_345_678, trx: '12.345678', token: null });
    const both = await runCliInProcess(['chain', 'balance', address, '--token', 'usdt', '--json'], { env });
    expect(both.code, both.stderr).toBe(0);
    // Exact past 2^53: the atomic balance is a string.
    expect(json(both).token).toEqual({
      address: chain.token('USDT')!.address,
      symbol: 'USDT',
      decimals: 6,
      balance_atomic: '9000000000000001',
      balance: '9000000000.000001',
    });
    const human = await runCliInProcess(['chain', 'balance', address, '--token', 'USDT', '--no-json'], { env });
    expect(human.stdout).toBe('12.345678 TRX\n9000000000.000001 USDT\n');
  });

  it('tokens alone make no account: said so; an unknown address is 0 TRX, not activated', async () => {
    const address = fresh('tokens only');
    mock.state.chain.syntheticTransfer({ token: mock.state.chain.token('USDT')!, to: address, amount: 5_000_000n, label: 'tokens only' });
    const r = await runCliInProcess(['chain', 'balance', address, '--token', 'usdt', '--no-json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^0 TRX\n5 USDT\n.*is not activated on chain/);
    expect(json(await runCliInProcess(['chain', 'balance', fresh('nothing'), '--json'], { env }))).toMatchObject({ activated: false, trx_sun: 0 });
  });

  it('reads the node alone: no base URL or API key needed, --tron-node is enough', async () => {
    const r = await runCliInProcess(['chain', 'balance', fresh('funded'), '--tron-node', mock.url, '--json'], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ activated: true, trx_sun: 12_345_678 });
  });

  it('a bad address or token is a usage error, and nothing is read', async () => {
    const bad = await runCliInProcess(['chain', 'balance', 'TNotAnAddress', '--json'], { env });
    expect(bad.code).toBe(2);
    const token = await runCliInProcess(['chain', 'balance', fresh('x'), '--token', 'DOGE', '--json'], { env });
    expect(token.code).toBe(2);
    expect(errorLine(token).message).toMatch(/unknown token "DOGE"/);
  });
});
