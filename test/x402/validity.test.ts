import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { decodeBase64Json, encodeBase64Json } from '../../src/protocol/codec.js';
import { type Payer, X402Client, evmPayer, tronPayer } from '../../src/x402/index.js';
import { validUntil, validityFor, withinValidity } from '../../src/x402/validity.js';
import { BASE_URL, KEYS, startMock } from './helpers.js';

/**
 * maxValiditySeconds: whatever the offer's maxTimeoutSeconds, every scheme signs a payment that
 * ends within the cap (EIP-3009 validBefore, PaymentPermit window, GasFree deadline, TRON
 * transaction expiration), and a payment that still ends later is refused before it is sent.
 */

let mock: ReturnType<typeof startMock>;
beforeAll(() => {
  mock = startMock();
  // The server allows an hour; the clients below sign for a minute.
  mock.paid.paywall.configure({ maxTimeoutSeconds: 3600 });
});
afterAll(() => mock.close());

/** A fetch that remembers the payload of the paid retry. */
function recording() {
  const sent: Array<Record<string, any>> = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const header = request.headers.get('PAYMENT-SIGNATURE') ?? request.headers.get('X-PAYMENT');
    if (header) sent.push(decodeBase64Json(header) as Record<string, any>);
    return fetch(request);
  };
  return { sent, fetchImpl };
}

const cases: Array<[string, () => Payer]> = [
  ['EVM exact (EIP-3009 validBefore)', () => evmPayer({ privateKey: KEYS.evm })],
  ...(['exact_permit', 'exact_gasfree', 'exact'] as const).map((scheme): [string, () => Payer] => [
    `TRON ${scheme}`,
    () => tronPayer({ privateKey: KEYS.tron, schemes: [scheme], gasfreeRelayer: mock.relayer, fullNode: BASE_URL }),
  ]),
];

describe('the signed validity is capped by maxValiditySeconds', () => {
  for (const [name, payer] of cases) {
    test(`${name}: valid for at most 60 s though the offer allows 3600`, async () => {
      const { sent, fetchImpl } = recording();
      const client = new X402Client({ baseUrl: BASE_URL, payers: [payer()], fetch: fetchImpl, maxValiditySeconds: 60 });
      const { payment } = await client.network({ format: 'summary' });
      expect(payment).not.toBeNull();
      expect(sent).toHaveLength(1);
      const end = validUntil(sent[0]!.payload);
      expect(end, 'the payload names its validity').toBeDefined();
      const left = end! - Date.now() / 1000;
      expect(left).toBeLessThanOrEqual(60 + 5);
      expect(left).toBeGreaterThan(0);
    });
  }

  test('the default cap is 300 s', async () => {
    const { sent, fetchImpl } = recording();
    const client = new X402Client({ baseUrl: BASE_URL, payers: [evmPayer({ privateKey: KEYS.evm })], fetch: fetchImpl });
    await client.network({ format: 'summary' });
    const left = Number(sent[0]!.payload.authorization.validBefore) - Date.now() / 1000;
    expect(left).toBeGreaterThan(300 - 5);
    expect(left).toBeLessThanOrEqual(300 + 5);
  });

  test('a scheme client that ignores the cap is caught: refused before the payment is sent', async () => {
    let requests = 0;
    const accepts = [
      {
        scheme: 'exact',
        network: 'eip155:8453',
        amount: '10000',
        asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        payTo: '0x000000000000000000000000000000000000dEaD',
        maxTimeoutSeconds: 3600,
        extra: { name: 'USD Coin', version: '2' },
      },
    ];
    const fetchImpl: typeof fetch = async (input) => {
      requests++;
      const challenge = { x402Version: 2, error: 'Payment required', resource: { url: String(input) }, accepts };
      return new Response('{}', { status: 402, headers: { 'PAYMENT-REQUIRED': encodeBase64Json(challenge) } });
    };
    const careless: Payer = {
      kind: 'evm',
      address: '0x000000000000000000000000000000000000bEEF',
      schemes: ['exact'],
      supports: (offer) => offer.scheme === 'exact',
      async register(core) {
        core.register('eip155:*', {
          scheme: 'exact',
          // Signs for a day whatever it is told.
          createPaymentPayload: async (x402Version) => ({
            x402Version,
            payload: { authorization: { validBefore: String(Math.floor(Date.now() / 1000) + 86_400) }, signature: '0x00' },
          }),
        });
      },
    };
    const client = new X402Client({ baseUrl: 'http://127.0.0.1:9', payers: [careless], fetch: fetchImpl, budget: '1' });
    await expect(client.prices()).rejects.toMatchObject({ code: 'PAYMENT_REFUSED', offers: [expect.objectContaining({ reason: 'validity_too_long' })] });
    expect(requests).toBe(1);
    expect(client.spent).toBe('0');
    expect(client.remainingBudget).toBe('1');
  });
});

describe('validity helpers', () => {
  test('validityFor: min(offer, cap); the cap when the offer says 0', () => {
    expect(validityFor(3600, 300)).toBe(300);
    expect(validityFor(60, 300)).toBe(60);
    expect(validityFor(0, 300)).toBe(300);
  });

  test('validUntil reads every scheme’s field; withinValidity allows a little skew only', () => {
    const now = 1_800_000_000;
    expect(validUntil({ authorization: { validBefore: String(now + 10) } })).toBe(now + 10);
    expect(validUntil({ paymentPermit: { meta: { validBefore: now + 20 } } })).toBe(now + 20);
    expect(validUntil({ gasfree: { deadline: String(now + 30) } })).toBe(now + 30);
    expect(validUntil({ signedTransaction: { raw_data: { expiration: (now + 40) * 1000 } } })).toBe(now + 40);
    expect(validUntil({ something: 'else' })).toBeUndefined();
    expect(withinValidity({ authorization: { validBefore: String(now + 300) } }, 300, now)).toBe(true);
    expect(withinValidity({ authorization: { validBefore: String(now + 400) } }, 300, now)).toBe(false);
  });

  test('maxValiditySeconds must be 1..3600 whole seconds', () => {
    const make = (maxValiditySeconds: number) => () => new X402Client({ baseUrl: BASE_URL, payers: [evmPayer({ privateKey: KEYS.evm })], maxValiditySeconds });
    expect(make(3600)).not.toThrow();
    for (const bad of [0, -1, 3601, 1.5, Number.POSITIVE_INFINITY, Number.NaN]) expect(make(bad)).toThrow(/maxValiditySeconds/);
  });
});

describe('network tables', () => {
  test('match own properties only: constructor, __proto__ and toString are no network', async () => {
    const { tronNetworkName, evmChainId, normaliseNetwork } = await import('../../src/protocol/networks.js');
    for (const id of ['constructor', '__proto__', 'toString', 'tron:constructor', 'tron:__proto__', 'tron:hasOwnProperty', 'valueOf']) {
      expect(tronNetworkName(id), id).toBeUndefined();
      expect(evmChainId(id), id).toBeUndefined();
      expect(() => normaliseNetwork(id)).not.toThrow();
    }
    expect(tronNetworkName('tron:0x2b6653dc')).toBe('mainnet');
    expect(evmChainId('base')).toBe(8453);
  });
});
