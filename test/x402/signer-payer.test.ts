/**
 * `tronPayer({ signer })`: a TRON payer over any Signer (trx-rent/signers). Here a signing
 * function that answers as an HSM or a KMS may (64 bytes r ‖ s, s in the upper half, no v) pays
 * in each TRON scheme through the mock: TIP-712 permits and GasFree messages are hashed and the
 * digest signed, the `exact` scheme's transfer is signed by txID; the mock's paywall verifies
 * every signature and settles, from the signer's address.
 */
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { hexToBytes } from '@noble/hashes/utils.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fromSignFunction } from '../../src/protocol/signers/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { X402Client, tronPayer } from '../../src/x402/index.js';
import { BASE_URL, KEYS, startMock } from './helpers.js';

let mock: ReturnType<typeof startMock>;
beforeAll(() => {
  mock = startMock();
});
afterAll(() => mock.close());

const ADDRESS = privateKeyToTronAddress(KEYS.tron);
const N = secp256k1.Point.Fn.ORDER;

/** Signs like a KMS that returns the high-s form and no recovery id; counts the digests it saw. */
function highSigner() {
  const seen: Uint8Array[] = [];
  const signer = fromSignFunction({
    address: ADDRESS,
    sign(digest) {
      seen.push(digest);
      const sig = secp256k1.Signature.fromBytes(secp256k1.sign(digest, hexToBytes(KEYS.tron), { prehash: false }), 'compact');
      return `${sig.r.toString(16).padStart(64, '0')}${(N - sig.s).toString(16).padStart(64, '0')}`;
    },
  });
  return { signer, seen };
}

describe('tronPayer({ signer }) pays in every TRON scheme', () => {
  for (const scheme of ['exact_permit', 'exact_gasfree', 'exact'] as const) {
    test(`${scheme}: signed through signDigest, verified and settled by the mock`, async () => {
      const { signer, seen } = highSigner();
      const payer = tronPayer({ signer, schemes: [scheme], gasfreeRelayer: mock.relayer, fullNode: BASE_URL });
      expect(payer.address).toBe(ADDRESS);
      const client = new X402Client({ baseUrl: BASE_URL, payers: [payer] });
      const { payment } = await client.prices({ resource: 'ENERGY' });
      expect(payment?.scheme).toBe(scheme);
      expect(payment?.payer).toBe(ADDRESS);
      expect(seen.length).toBe(1);
      const settled = mock.paid.paywall.payments.at(-1)!;
      expect(settled.transaction).toBe(payment!.transaction);
      expect(settled.payer).toBe(ADDRESS);
    });
  }

  test('a bad signer is a VALIDATION_ERROR naming signer', () => {
    expect(() => tronPayer({ signer: { address: 'x', signDigest: async () => new Uint8Array() } as never })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', details: { field: 'signer' } }),
    );
  });
});
