/**
 * The token's own contract is never a transfer's recipient: the contract keeps what is sent to
 * it, so `transfers.estimate` and `transfers.send` refuse it (VALIDATION_ERROR naming `to`)
 * before anything is rented or signed. The mock's chain is the judge.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent, trxToSun } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 38, rateLimits: false, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
});
afterAll(async () => {
  await mock?.close();
});

describe('a transfer to the token contract', () => {
  it('is refused by estimate and send, naming to; nothing ordered, nothing sent', async () => {
    const privateKey = '3c'.repeat(32);
    const from = privateKeyToTronAddress(privateKey);
    const chain = mock.state.chain;
    chain.syntheticTransfer({ token: chain.token('USDT')!, to: from, amount: 50_000_000n, label: 'recipient test sender' });
    chain.fundTrx(from, 100_000_000n);
    const account = mock.state.createAccount({ trx_sun: trxToSun('1000') });
    const client = new TrxRent({ baseUrl: mock.url, apiKey: account.api_key, tronNode: mock.url, maxRetries: 0 });
    const refusals = await Promise.all([
      client.transfers.estimate({ from, to: USDT, token: 'USDT', amount: '1' }).catch((e: unknown) => e),
      client.transfers.estimate({ from, to: USDT, token: USDT, amount: '1' }).catch((e: unknown) => e),
      client.transfers.send({ to: USDT, token: 'USDT', amount: '1', signer: { privateKey } }).catch((e: unknown) => e),
    ]);
    for (const error of refusals) {
      expect(error).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'to' } });
      expect(String(error)).toMatch(/to: is the USDT contract itself: tokens sent to it are lost/);
    }
    expect(mock.state.orders.all(account.account_id)).toEqual([]);
    expect(chain.tokenBalance(from, USDT)).toBe(50_000_000n);
    // An ordinary recipient is estimated as before.
    await expect(client.transfers.estimate({ from, to: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', token: 'USDT', amount: '1' })).resolves.toMatchObject({
      to: 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8',
    });
  });
});
