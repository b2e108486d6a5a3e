/**
 * The AWS KMS signer (`fromAwsKms`) through the real `@aws-sdk/client-kms` client against a
 * loopback KMS (test/helpers/kms-server.ts: KMS's JSON API over real secp256k1 keys from
 * node:crypto, DER signatures with high and low s as node produces them). Every signature is
 * verified by two implementations that are not the adapter's: @noble/curves (verify with low-s
 * required, and recover) and tronweb's `ecRecover` (ethers), over many random keys and digests;
 * the high-s answers are counted and must occur. Then a KMS-signed transfer lands on the mock's
 * chain, and the refusals: a key of another spec, a KMS answering with another key.
 */
import { KMSClient } from '@aws-sdk/client-kms';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { utils as tronwebUtils } from 'tronweb';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignatureMismatchError, fromAwsKms, signTransactionWith } from '../../src/protocol/signers/index.js';
import { buildTrxTransfer, publicKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { tronAddressToHex } from '../../src/utils/address.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { type KmsStandIn, startKmsStandIn } from '../helpers/kms-server.js';

const HALF_N = secp256k1.Point.Fn.ORDER >> 1n;
let kms: KmsStandIn;
let client: KMSClient;
let mock: MockServer;

beforeAll(async () => {
  kms = await startKmsStandIn();
  client = new KMSClient({ region: 'us-east-1', endpoint: kms.url, credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test-secret' }, maxAttempts: 1 });
  mock = await startMockServer({ seed: 40, rateLimits: false });
});
afterAll(async () => {
  client.destroy();
  await kms.close();
  await mock.close();
});

/** Whether a DER signature the stand-in returned had a high s (counted with noble, not the adapter's decoder). */
const highS = (der: Buffer) => secp256k1.Signature.fromBytes(der, 'der').s > HALF_N;

describe('fromAwsKms against a loopback KMS', () => {
  it('signs random digests with random keys; noble and tronweb both verify every signature, high-s answers included', async () => {
    const KEYS = 12;
    const DIGESTS = 8;
    let checked = 0;
    let highFromNodeSign = 0;
    let highFromRawDigest = 0;
    for (let k = 0; k < KEYS; k++) {
      const keyId = kms.createKey();
      const signer = await fromAwsKms({ keyId, client });
      const publicKey = kms.publicKey(keyId);
      expect(signer.address).toBe(publicKeyToTronAddress(publicKey));
      for (let i = 0; i < DIGESTS; i++) {
        // Half the digests are sha256 of a preimage (node's crypto.sign makes the DER), half raw random digests.
        const viaPreimage = i % 2 === 0;
        const digest = viaPreimage ? kms.registerPreimage(randomBytes(40)) : Uint8Array.from(randomBytes(32));
        const before = kms.signatures.length;
        const signature = await signer.signDigest(digest);
        const der = kms.signatures[before]!;
        if (highS(der)) {
          if (viaPreimage) highFromNodeSign++;
          else highFromRawDigest++;
        }
        expect(signature.length).toBe(65);
        const compact = signature.subarray(0, 64);
        // noble: valid over the digest as given (no re-hash), low s required, recovers to the KMS key.
        expect(secp256k1.verify(compact, digest, publicKey, { prehash: false, lowS: true })).toBe(true);
        const recovered = secp256k1.Signature.fromBytes(compact, 'compact')
          .addRecoveryBit(signature[64]! - 27)
          .recoverPublicKey(digest);
        expect(recovered.toHex(false)).toBe(bytesToHex(publicKey));
        // tronweb's own recovery (ethers' recoverAddress) gives the signer's TRON address.
        expect(tronwebUtils.crypto.ecRecover(bytesToHex(digest), bytesToHex(signature)).toLowerCase()).toBe(tronAddressToHex(signer.address));
        checked++;
      }
    }
    expect(checked).toBe(KEYS * DIGESTS);
    // node returns high and low s at random: both ways of signing produced some, and each was made low.
    expect(highFromNodeSign).toBeGreaterThan(0);
    expect(highFromRawDigest).toBeGreaterThan(0);
    expect(kms.calls.filter((c) => c === 'TrentService.Sign').length).toBeGreaterThanOrEqual(KEYS * DIGESTS);
  }, 180_000);

  it('a KMS-signed TRX transfer lands on the simulated chain', async () => {
    const keyId = kms.createKey();
    const signer = await fromAwsKms({ keyId, client });
    const chain = mock.state.chain;
    chain.fundTrx(signer.address, 5_000_000n);
    const to = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
    const head = chain.height();
    const unsigned = buildTrxTransfer({
      from: signer.address,
      to,
      amountSun: 1_234_567n,
      refBlock: { number: head, hash: chain.blockId(head) },
      now: chain.now(),
    });
    const signed = await signTransactionWith(signer, unsigned);
    expect(signed.txID).toBe(unsigned.txID);
    const answer = (await (await fetch(`${mock.url}/wallet/broadcasttransaction`, { method: 'POST', body: JSON.stringify(signed) })).json()) as {
      result?: boolean;
    };
    expect(answer).toEqual({ result: true, txid: unsigned.txID });
    expect(chain.transactions.get(unsigned.txID)?.trxTransfer?.amountSun).toBe(1_234_567n);
  });

  it('refuses a key that is not ECC_SECG_P256K1, and a KMS that answers with another key', async () => {
    const rsa = kms.createKey('RSA_2048');
    await expect(fromAwsKms({ keyId: rsa, client })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('ECC_SECG_P256K1') });
    const mine = kms.createKey();
    const other = kms.createKey();
    const signer = await fromAwsKms({ keyId: mine, client });
    kms.swapSigningKey(mine, other);
    await expect(signer.signDigest(Uint8Array.from(randomBytes(32)))).rejects.toBeInstanceOf(SignatureMismatchError);
    await expect(fromAwsKms({ keyId: 'no-such-key', client })).rejects.toThrow(/does not exist/);
  });

  it('makes its own client from clientConfig, and never shows a credential in its JSON', async () => {
    const keyId = kms.createKey();
    const signer = await fromAwsKms({
      keyId,
      clientConfig: { region: 'eu-west-1', endpoint: kms.url, credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'very-secret' } },
      permissionId: 2,
    });
    expect(signer.permissionId).toBe(2);
    expect(JSON.stringify(signer)).toBe(JSON.stringify({ signer: 'awsKms', address: signer.address, permissionId: 2 }));
    const digest = Uint8Array.from(randomBytes(32));
    const signature = await signer.signDigest(digest);
    expect(tronwebUtils.crypto.ecRecover(bytesToHex(digest), bytesToHex(signature)).toLowerCase()).toBe(tronAddressToHex(signer.address));
  });
});
