import { TronWeb, Trx } from 'tronweb';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { tronAddressToEvmHex } from '../../src/utils/address.js';
import {
  X402Client,
  gasFreeTypedData,
  normaliseNetwork,
  paymentPermitTypedData,
  tronChainId,
  tronPayer,
  type GasFreeMessageJson,
  type PaymentPermitJson,
  type TronWebLike,
} from '../../src/x402/index.js';
import { BASE_URL, KEYS, preparePayment, startMock } from './helpers.js';

/**
 * TIP-712 made by the SDK (viem over normalised addresses, no tronweb) verifies with tronweb's
 * own `Trx.verifyTypedData`, byte-for-byte the signature tronweb makes; and a TronWeb instance
 * works as the signer instead of a raw key.
 */

let mock: ReturnType<typeof startMock>;
beforeAll(() => {
  mock = startMock();
});
afterAll(() => mock.close());

const BUYER = privateKeyToTronAddress(KEYS.tron);
const OTHER = privateKeyToTronAddress(KEYS.tron2);
const PRICES = `${BASE_URL}/x402/tron/prices`;

describe('signatures from the SDK verify with tronweb', () => {
  test('exact_permit: PaymentPermitDetails (domain without version)', async () => {
    const prepared = await preparePayment(PRICES, {}, tronPayer({ privateKey: KEYS.tron, schemes: ['exact_permit'] }), {
      scheme: 'exact_permit',
      network: 'tron:mainnet',
    });
    const { signature, paymentPermit } = prepared.payload.payload as { signature: string; paymentPermit: PaymentPermitJson };
    const typed = paymentPermitTypedData(paymentPermit, 728126428, 'TT8rEWbCoNX7vpEUauxb7rWJsTgs8vDLAn');
    expect('version' in typed.domain).toBe(false);
    expect(Trx.verifyTypedData(typed.domain, typed.types, typed.message, signature, BUYER)).toBe(true);
    expect(Trx.verifyTypedData(typed.domain, typed.types, typed.message, signature, OTHER)).toBe(false);
    // a different amount is a different message
    const changed = paymentPermitTypedData(
      { ...paymentPermit, payment: { ...paymentPermit.payment, payAmount: '1' } },
      728126428,
      'TT8rEWbCoNX7vpEUauxb7rWJsTgs8vDLAn',
    );
    expect(Trx.verifyTypedData(changed.domain, changed.types, changed.message, signature, BUYER)).toBe(false);
  });

  test('exact_gasfree: PermitTransfer (GasFreeController, V1.0.0)', async () => {
    const prepared = await preparePayment(PRICES, {}, tronPayer({ privateKey: KEYS.tron, schemes: ['exact_gasfree'], gasfreeRelayer: mock.relayer }), {
      scheme: 'exact_gasfree',
      network: 'tron:mainnet',
    });
    const { signature, gasfree } = prepared.payload.payload as { signature: string; gasfree: GasFreeMessageJson };
    const typed = gasFreeTypedData(gasfree, 728126428, 'TFFAMQLZybALaLb4uxHA9RBE7pxhUAjF3U');
    expect(typed.domain).toMatchObject({ name: 'GasFreeController', version: 'V1.0.0', chainId: 728126428 });
    expect(Trx.verifyTypedData(typed.domain, typed.types, typed.message, signature, BUYER)).toBe(true);
    expect(Trx.verifyTypedData(typed.domain, typed.types, typed.message, signature, OTHER)).toBe(false);
  });

  test('viem and tronweb make byte-identical TIP-712 signatures; tronweb takes base58 or hex addresses', async () => {
    const permit: PaymentPermitJson = {
      meta: { kind: 'PAYMENT_ONLY', paymentId: `0x${'0f'.repeat(16)}`, nonce: '123456789', validAfter: 1_700_000_000, validBefore: 1_700_003_600 },
      buyer: BUYER,
      caller: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb',
      payment: { payToken: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', payAmount: '10000', payTo: OTHER },
      fee: { feeTo: 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb', feeAmount: '0' },
    };
    const typed = paymentPermitTypedData(permit, 728126428, 'TT8rEWbCoNX7vpEUauxb7rWJsTgs8vDLAn');
    const viemSig = await privateKeyToAccount(`0x${KEYS.tron}`).signTypedData(typed as never);
    const tronSig = Trx.signTypedData(typed.domain, typed.types, typed.message, KEYS.tron);
    expect(tronSig.replace(/^0x/, '')).toBe(viemSig.replace(/^0x/, ''));
    const base58Domain = { ...typed.domain, verifyingContract: 'TT8rEWbCoNX7vpEUauxb7rWJsTgs8vDLAn' };
    const base58Message = { ...typed.message, buyer: BUYER };
    expect(Trx.verifyTypedData(base58Domain, typed.types, base58Message, viemSig, BUYER)).toBe(true);
    expect(tronAddressToEvmHex('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe('0xa614f803b6fd780986a42c78ec9c7f77e6ded13c');
  });

  test('every TRON network alias gives the same chain id', () => {
    for (const alias of ['tron:mainnet', 'tron:0x2b6653dc', 'tron:728126428', 'tron:27Lqcw', 'tron']) expect(tronChainId(alias)).toBe(728126428);
    for (const alias of ['tron:nile', 'tron:0xcd8690dc', 'tron:3448148188', 'tron:6FhfKq']) expect(normaliseNetwork(alias)).toBe('tron:3448148188');
    for (const alias of ['tron:shasta', 'tron:0x94a9059e', 'tron:2494104990', 'tron:4oPwXB']) expect(tronChainId(alias)).toBe(2494104990);
    expect(tronChainId('tron:27lqcw')).toBeUndefined(); // genesis-hash refs are case-sensitive base58
    expect(normaliseNetwork('base')).toBe('eip155:8453');
  });
});

describe('a TronWeb instance as the signer', () => {
  for (const scheme of ['exact_permit', 'exact_gasfree', 'exact'] as const) {
    test(`${scheme}: paid through the mock with tronweb signing`, async () => {
      const tronWeb = new TronWeb({ fullHost: BASE_URL, privateKey: KEYS.tron });
      const payer = tronPayer({ tronWeb: tronWeb as unknown as TronWebLike, schemes: [scheme], gasfreeRelayer: mock.relayer });
      expect(payer.address).toBe(BUYER);
      const client = new X402Client({ baseUrl: BASE_URL, payers: [payer] });
      const { payment } = await client.prices();
      expect(payment).toMatchObject({ scheme, payer: BUYER, network_id: 'tron:728126428' });
    });
  }
});
