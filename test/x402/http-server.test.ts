import { TronWeb } from 'tronweb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { startMockServer, type MockServer } from '../../src/mock/index.js';
import { getSimulatedChain } from '../../src/mock/x402/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { X402Client, evmPayer, signTrc20Transfer, tronPayer } from '../../src/x402/index.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { fromSignFunction } from '../../src/protocol/signers/index.js';
import { KEYS } from './helpers.js';

/**
 * Over real HTTP (the mock's node:http server on 127.0.0.1): `deposits.create` prepares, builds
 * with tronweb against the simulated node, signs locally, submits; the mock's submit accepts it
 * and credits the account. And paid calls work over the wire the same as in-process.
 */

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ clock: 'manual', rateLimits: false, seed: 5 });
});
afterAll(() => server.close());

describe('deposits.create', () => {
  test('a deposit signed by deposits.create is accepted by the mock’s submit and credited', async () => {
    const client = new TrxRent({ baseUrl: server.url, apiKey: server.apiKey });
    const before = (await client.balance.get()).trx;
    const deposit = await client.deposits.create({ amount_sun: 3_000_000, signer: { privateKey: KEYS.tron, fullHost: server.url } });
    expect(deposit).toMatchObject({ status: 'pending', amount_sun: 3_000_000, memo: server.memo, from_address: privateKeyToTronAddress(KEYS.tron) });
    expect(deposit.tx_id).toMatch(/^[0-9a-f]{64}$/);
    await server.state.advance(server.state.timings.depositCreditMs);
    expect((await client.balance.get()).trx).toBe(before + 3_000_000);
    expect(server.state.money.deposits.get(deposit.tx_id)?.status).toBe('credited');
    // the simulated network knows the transaction (shared with the simulated chain's duplicate check)
    expect(server.state.money.broadcasted.has(deposit.tx_id)).toBe(true);
  });

  test('a TronWeb instance can sign instead of a raw key', async () => {
    const client = new TrxRent({ baseUrl: server.url, apiKey: server.apiKey });
    const tronWeb = new TronWeb({ fullHost: server.url, privateKey: KEYS.tron2.replace(/^0x/, '') });
    const deposit = await client.deposits.create({ amount_sun: 1_000_000, signer: tronWeb as never });
    expect(deposit.from_address).toBe(privateKeyToTronAddress(KEYS.tron2));
    expect(deposit.status).toBe('pending');
  });

  test('any Signer can sign (here a signing function, as an HSM answers: r ‖ s, no v); tronweb builds against fullHost', async () => {
    const client = new TrxRent({ baseUrl: server.url, apiKey: server.apiKey });
    const digests: Uint8Array[] = [];
    const signer = fromSignFunction({
      address: privateKeyToTronAddress(KEYS.tron),
      sign: (digest) => {
        digests.push(digest);
        return secp256k1.sign(digest, hexToBytes(KEYS.tron), { prehash: false });
      },
    });
    const deposit = await client.deposits.create({ amount_sun: 2_000_000, signer, fullHost: server.url });
    expect(deposit).toMatchObject({ status: 'pending', from_address: signer.address, amount_sun: 2_000_000 });
    expect(digests.map((d) => Buffer.from(d).toString('hex'))).toEqual([deposit.tx_id]);
    await server.state.advance(server.state.timings.depositCreditMs);
    expect(server.state.money.deposits.get(deposit.tx_id)?.status).toBe('credited');
  });

  test('a bad amount or key fails locally, before anything is sent', async () => {
    const client = new TrxRent({ baseUrl: server.url, apiKey: server.apiKey });
    await expect(client.deposits.create({ amount_sun: 10, signer: { privateKey: KEYS.tron } })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'amount_sun',
    });
    await expect(client.deposits.create({ amount_sun: 2_000_000, signer: { privateKey: 'xyz' } })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      field: 'signer.privateKey',
    });
  });
});

describe('paid calls over HTTP', () => {
  test('URLs the mock hands out (resource, invoice payment_url) use the server’s real origin', async () => {
    const challenge = await fetch(`${server.url}/x402/tron/prices`);
    const { resource } = (await challenge.json()) as { resource: { url: string } };
    expect(resource.url).toBe(`${server.url}/x402/tron/prices`);
    const client = new X402Client({ baseUrl: server.url, payers: [evmPayer({ privateKey: KEYS.evm })] });
    const { data } = await client.invoice({ amount_usdt: '3' });
    expect(data.payment_url.startsWith(server.url)).toBe(true);
    const view = await (await fetch(data.payment_url)).json();
    expect(view).toMatchObject({ invoice_id: data.invoice_id, status: 'pending' });
  });

  test('EVM and TRON payments, and a send whose transfer lands on the simulated chain', async () => {
    const evm = new X402Client({ baseUrl: server.url, payers: [evmPayer({ privateKey: KEYS.evm })] });
    expect((await evm.prices()).payment?.network_id).toBe('eip155:8453');

    const chain = getSimulatedChain(server.state);
    const sender = privateKeyToTronAddress(KEYS.tron2);
    chain.syntheticTransfer({ token: chain.token('USDT')!, to: sender, amount: 5_000_000n });
    chain.fundTrx(sender, 2_000_000n); // an account on chain: java-tron refuses a sender that is none
    const tron = new X402Client({ baseUrl: server.url, payers: [tronPayer({ privateKey: KEYS.tron, fullNode: server.url, schemes: ['exact'] })] });
    const to = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
    const signed = await signTrc20Transfer({ privateKey: KEYS.tron2, to, amount: '2', fullNode: server.url });
    const { data, payment } = await tron.send({ to, amount_usdt: '2', signed_tx: signed.signed_tx });
    expect(payment).toMatchObject({ scheme: 'exact', network_id: 'tron:728126428' });
    expect(data.txid).toBe(signed.txID);
    expect(chain.tokenBalance(to, chain.token('USDT')!.address)).toBe(2_000_000n);
  });
});
