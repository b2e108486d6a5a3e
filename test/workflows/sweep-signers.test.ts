/**
 * `client.transfers.sweep` with each kind of signer as a source's: a raw key, a local `Signer`
 * (`fromPrivateKey`), a function signer (`fromSignFunction`), an AWS KMS key (`fromAwsKms` through
 * the real `@aws-sdk/client-kms` client against the loopback KMS stand-in, test/helpers/kms-server.ts)
 * and a TronWeb instance; two of them never activated (activated first, then signed by their own
 * signer). A `Signer` is checked against its account's permission before anything is rented: one
 * naming a permission the account does not have fails with PERMISSION_DENIED and gets no order.
 * The judge is the mock's chain and order log.
 */
import { KMSClient } from '@aws-sdk/client-kms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { fromAwsKms, fromPrivateKey, fromSignFunction } from '../../src/protocol/signers/index.js';
import { privateKeyToTronAddress, publicKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import type { SweepSource } from '../../src/workflows/sweep/index.js';
import { type KmsStandIn, startKmsStandIn } from '../helpers/kms-server.js';
import { account, ordersOf } from './payouts-helpers.js';
import { activationsOf, funding, keyOf, receivedBy, treasury } from './sweep-helpers.js';

let mock: MockServer;
let kms: KmsStandIn;
let kmsClient: KMSClient;
beforeAll(async () => {
  mock = await startMockServer({ seed: 4142, rateLimits: false, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
  kms = await startKmsStandIn();
  kmsClient = new KMSClient({
    region: 'us-east-1',
    endpoint: kms.url,
    credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' },
    maxAttempts: 1,
  });
});
afterAll(async () => {
  kmsClient?.destroy();
  await kms?.close();
  await mock?.close();
});

/** `atomic` USDT deposited to `address`; activated (with a little TRX) or not. */
function deposit(address: string, atomic: bigint, activated: boolean): void {
  const chain = mock.state.chain;
  chain.syntheticTransfer({ token: chain.token('USDT')!, to: address, amount: atomic, label: `deposit ${address}` });
  if (activated) chain.fundTrx(address, 2_000_000n);
}

describe('sweep sources signed by any Signer', { timeout: 90_000 }, () => {
  it('a key, a local Signer, a function signer, a KMS key and a TronWeb instance each sign their own sweep; a Signer the account refuses gets no order', async () => {
    const key = (tag: string) => keyOf(`signers ${tag}`);
    const local = fromPrivateKey(key('local'));
    const fnKey = fromPrivateKey(key('function'));
    let functionCalls = 0;
    const fn = fromSignFunction({
      address: fnKey.address,
      sign: (digest) => {
        functionCalls++;
        return fnKey.signDigest(digest);
      },
    });
    const keyId = kms.createKey();
    const kmsSigner = await fromAwsKms({ keyId, client: kmsClient });
    expect(kmsSigner.address).toBe(publicKeyToTronAddress(kms.publicKey(keyId)));
    const { TronWeb } = await import('tronweb');
    const tronWeb = new TronWeb({ fullHost: mock.url, privateKey: key('tronweb') });
    const refused = fromPrivateKey(key('refused'), { permissionId: 3 });

    const raw = key('raw');
    const sources: Array<SweepSource & { amount: bigint; activated: boolean; name: string }> = [
      { name: 'key', privateKey: raw, amount: 11_000_001n, activated: true },
      { name: 'local Signer', signer: local, amount: 12_000_002n, activated: true },
      { name: 'function signer', signer: fn, amount: 13_000_003n, activated: false },
      { name: 'KMS', signer: kmsSigner, amount: 14_000_004n, activated: false },
      { name: 'TronWeb', signer: tronWeb, address: privateKeyToTronAddress(key('tronweb')), amount: 15_000_005n, activated: true },
      { name: 'refused', signer: refused, amount: 16_000_006n, activated: true },
    ];
    const addressOf = (s: (typeof sources)[number]) =>
      'privateKey' in s ? privateKeyToTronAddress(s.privateKey) : (s.address ?? (s.signer as { address: string }).address);
    for (const s of sources) deposit(addressOf(s), s.amount, s.activated);
    const fund = funding(mock, 'signers');
    const to = treasury(mock, 'signers');
    const acct = account(mock, '100000');
    const client = new TrxRent({ baseUrl: mock.url, apiKey: acct.apiKey, tronNode: mock.url, maxRetries: 2 });

    const report = await client.transfers.sweep(sources, { to, min: '10', funding: { privateKey: fund.privateKey } });

    const got = receivedBy(mock, to);
    const signed = sources.filter((s) => s.name !== 'refused');
    for (const s of signed) expect(got.get(addressOf(s)), s.name).toEqual({ count: 1, atomic: s.amount });
    expect(got.size).toBe(signed.length);
    const acts = activationsOf(mock, fund.address);
    for (const s of signed.filter((x) => !x.activated)) expect(acts.get(addressOf(s)), s.name).toBe(1);
    // The function and the KMS signed (the chain checked their signatures: the sweeps landed).
    expect(functionCalls).toBeGreaterThanOrEqual(1);
    expect(kms.calls).toContain('TrentService.Sign');

    const denied = report.rows.find((r) => r.address === refused.address)!;
    expect(denied).toMatchObject({ status: 'failed', order_cost_sun: 0 });
    expect(denied.reason).toMatch(/no permission 3/);
    expect(ordersOf(mock, acct.accountId).filter((o) => o.target_address === refused.address)).toEqual([]);
    expect(report).toMatchObject({ complete: true, swept: signed.length, failed: 1 });
  });
});
