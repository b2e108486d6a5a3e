/**
 * The node client's options: TronGrid's `TRON-PRO-API-KEY` (`tronNodeApiKey`, `tronNodeHeaders`)
 * reaches the node's origin and nothing else (not the account API, not a redirect's target, not
 * plain http beyond loopback); retries go through the SDK's one loop with Retry-After honoured on
 * the client's clock; and `send` waits for the solidified block when asked, saying so.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { BLOCK_INTERVAL_MS, SOLIDIFIED_LAG_BLOCKS } from '../../src/mock/chain/blocks.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { TronNode } from '../../src/tron/node.js';
import type { Clock } from '../../src/utils/clock.js';
import { type Reply, scriptedServer } from '../helpers/scripted-server.js';

const ADDRESS = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const RESOURCE = { freeNetLimit: 600, EnergyLimit: 10 };

let script: Reply[] = [];
let node: Awaited<ReturnType<typeof scriptedServer>>;
let elsewhere: Awaited<ReturnType<typeof scriptedServer>>;
let account: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  node = await scriptedServer(() => script.shift() ?? { status: 200, body: RESOURCE });
  elsewhere = await scriptedServer(() => ({ status: 200, body: RESOURCE }));
  account = await scriptedServer(() => ({ status: 200, body: [] }));
});
afterAll(async () => {
  await Promise.all([node.close(), elsewhere.close(), account.close()]);
});

/** A clock that records each wait and returns at once. */
function recordingClock(): Clock & { waits: number[] } {
  const waits: number[] = [];
  return { waits, now: () => Date.now(), sleep: async (ms) => void waits.push(ms) };
}

describe('the node API key', () => {
  it('goes to the node as TRON-PRO-API-KEY, never to the account API', async () => {
    const client = new TrxRent({
      baseUrl: account.url,
      apiKey: 'sk_test_account',
      tronNode: node.url,
      tronNodeApiKey: 'tg-key-1',
      tronNodeHeaders: { 'X-Trace': 't1' },
    });
    await client.resources.read(ADDRESS);
    await client.prices.list();
    const toNode = node.requests.at(-1)!;
    expect(toNode.headers['tron-pro-api-key']).toBe('tg-key-1');
    expect(toNode.headers['x-trace']).toBe('t1');
    expect(toNode.headers['x-api-key']).toBeUndefined();
    const toAccount = account.requests.at(-1)!;
    expect(toAccount.headers['x-api-key']).toBe('sk_test_account');
    expect(toAccount.headers['tron-pro-api-key']).toBeUndefined();
    expect(toAccount.headers['x-trace']).toBeUndefined();
  });

  it('does not follow a redirect to another origin, and is refused over plain http beyond loopback', async () => {
    script = [{ status: 307, headers: { location: `${elsewhere.url}/wallet/getaccountresource` } }];
    const before = elsewhere.requests.length;
    await expect(new TronNode({ baseUrl: node.url, apiKey: 'tg-key-2' }).getAccountResource(ADDRESS)).rejects.toMatchObject({ code: 'REDIRECT_REFUSED' });
    expect(elsewhere.requests.length).toBe(before);
    expect(() => new TronNode({ baseUrl: 'http://node.example.com', apiKey: 'tg-key-3' })).toThrow(expect.objectContaining({ code: 'INSECURE_TRANSPORT' }));
    expect(() => new TronNode({ baseUrl: node.url, headers: { 'bad header': 'x' } })).toThrow(expect.objectContaining({ code: 'CONFIGURATION_ERROR' }));
  });
});

describe('retries through the one loop', () => {
  it("honours a node's Retry-After on the client's clock; a read is retried, a broadcast never", async () => {
    const clock = recordingClock();
    script = [{ status: 503, headers: { 'retry-after': '3' } }, { status: 429 }, { status: 200, body: RESOURCE }];
    const tron = new TronNode({ baseUrl: node.url, clock, maxRetries: 2, retry: { baseDelayMs: 10, maxDelayMs: 10 } });
    expect((await tron.getAccountResource(ADDRESS)).EnergyLimit).toBe(10);
    expect(clock.waits[0]).toBe(3000);
    expect(clock.waits[1]).toBeLessThanOrEqual(20);
    expect(clock.waits).toHaveLength(2);
    script = [{ status: 503, headers: { 'retry-after': '1' } }];
    const before = node.requests.length;
    await expect(tron.broadcastTransaction({ txID: 'ab' })).rejects.toMatchObject({ code: 'NODE_ERROR', details: { status: 503 } });
    expect(node.requests.length - before).toBe(1);
    script = [];
  });
});

describe("send: confirm 'solidified'", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ seed: 32, rateLimits: false, timings: { selectMs: 20, fillMs: 40, verifyMs: 100 } });
  });
  afterAll(() => mock.close());

  it('reads the receipt from /walletsolidity and says it waited for the solidified block', async () => {
    const privateKey = '6b'.repeat(32);
    const from = privateKeyToTronAddress(privateKey);
    const chain = mock.state.chain;
    chain.syntheticTransfer({ token: chain.token('USDT')!, to: from, amount: 5_000_000n, label: 'fund' });
    chain.fundTrx(from, 50_000_000n);
    const paths: string[] = [];
    const solidAnswers: unknown[] = [];
    // The mock's solidified view trails its head by SOLIDIFIED_LAG_BLOCKS blocks (about a minute
    // on its real clock): once the solidity node has said "not yet", move the mock past that lag.
    const recording: typeof fetch = async (input, init) => {
      const path = new URL(input instanceof Request ? input.url : String(input)).pathname;
      paths.push(path);
      const response = await fetch(input, init);
      if (path === '/walletsolidity/gettransactioninfobyid') {
        solidAnswers.push(await response.clone().json());
        if (solidAnswers.length === 1) await mock.state.advance((SOLIDIFIED_LAG_BLOCKS + 1) * BLOCK_INTERVAL_MS);
      }
      return response;
    };
    const client = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, tronNode: mock.url, fetch: recording });
    const sent = await client.transfers.send({ token: 'USDT', to: ADDRESS, amount: '1', signer: { privateKey }, confirm: 'solidified', burn: true });
    expect(sent.confirmed).toBe('solidified');
    expect(paths).toContain('/walletsolidity/gettransactioninfobyid');
    // The head's receipt lands it (exactly-once, src/tron/identity.ts); the solidity node is asked
    // only after that, and its receipt is the one reported.
    expect(paths.lastIndexOf('/wallet/gettransactioninfobyid')).toBeLessThan(paths.indexOf('/walletsolidity/gettransactioninfobyid'));
    // It waited: the first answer (the block not yet solidified) was empty, a later one the receipt.
    expect(solidAnswers[0]).toEqual({});
    const solid = solidAnswers.at(-1) as { id: string; blockNumber: number; fee?: number };
    expect(solid.id).toBe(sent.tx_id);
    expect(sent.receipt).toMatchObject({ block: solid.blockNumber, fee_sun: solid.fee ?? 0 });
    const plain = await client.transfers.send({ token: 'USDT', to: ADDRESS, amount: '1', signer: { privateKey }, burn: true });
    expect(plain.confirmed).toBe('included');
    await expect(
      client.transfers.send({ token: 'USDT', to: ADDRESS, amount: '1', signer: { privateKey }, confirmation: 'final' as never }),
    ).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'confirmation' },
    });
  });
});
