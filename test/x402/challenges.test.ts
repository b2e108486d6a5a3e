import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { privateKeyToAccount } from 'viem/accounts';
import { wrapFetchWithPayment as wrapV2, x402Client, decodePaymentResponseHeader } from '@x402/fetch';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { PaymentRequiredV1, PaymentRequiredV2, PaymentRequirementsV1, PaymentRequirementsV2 } from '../../src/schemas/x402.js';
import { decodeBase64Json } from '../../src/protocol/codec.js';
import { MOCK_PAY_TO } from '../../src/mock/x402/index.js';
import { X402Client, PaymentRefusedError, evmPayer, tronPayer, evmAddressOfKey } from '../../src/x402/index.js';
import { BASE_URL, KEYS, startMock } from './helpers.js';
import { INSTALL_TIMEOUT_MS, toolImport } from '../../scripts/lib/tools.mjs';

/** The v1 client's two functions this file uses (x402-fetch@1.2.0, installed on demand from scripts/tools/x402-v1). */
type X402FetchV1 = {
  wrapFetchWithPayment: (f: typeof fetch, signer: never) => typeof fetch;
  decodeXPaymentResponse: (header: string) => Record<string, unknown>;
};

/**
 * Both wire versions: the mock's v2 challenge (PAYMENT-REQUIRED header and the same JSON as the
 * body) and its v1 challenge (body only, Base USDC only, every field x402@1 requires), paid by
 * our client, by the deprecated x402-fetch@1.2.0 (v1) and by @x402/fetch (v2).
 */

let mock: ReturnType<typeof startMock>;
let v1: X402FetchV1;
beforeAll(async () => {
  mock = startMock();
  v1 = await toolImport<X402FetchV1>('x402-v1', 'x402-fetch');
}, INSTALL_TIMEOUT_MS + 10_000);
afterAll(() => mock.close());

const PRICES = `${BASE_URL}/x402/tron/prices`;

describe('v2 challenge', () => {
  test('PAYMENT-REQUIRED header and body carry the same challenge: Base USDC and TRON USDT/USDC/USDD in three schemes', async () => {
    const res = await fetch(PRICES);
    expect(res.status).toBe(402);
    const fromHeader = decodeBase64Json(res.headers.get('PAYMENT-REQUIRED')!) as Record<string, unknown>;
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.accepts).toEqual(fromHeader.accepts);
    const challenge = PaymentRequiredV2.parse(fromHeader);
    expect(challenge.resource?.url).toBe(PRICES);
    const accepts = challenge.accepts.map((a) => PaymentRequirementsV2.parse(a));
    const kinds = accepts.map((a) => `${a.scheme} ${a.network} ${a.asset} ${a.amount}`).sort();
    expect(kinds).toEqual(
      [
        'exact eip155:8453 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 10000',
        ...['exact', 'exact_gasfree', 'exact_permit'].flatMap((s) => [
          `${s} tron:0x2b6653dc TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t 10000`,
          `${s} tron:0x2b6653dc TEkxiTehnzSmSe2XqrBj4w32RUN966rdz8 10000`,
          `${s} tron:0x2b6653dc TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn 10000000000000000`,
        ]),
      ].sort(),
    );
    expect(accepts.find((a) => a.network === 'eip155:8453')?.extra).toEqual({ name: 'USD Coin', version: '2' });
    expect(accepts.every((a) => a.payTo === (a.network.startsWith('tron') ? MOCK_PAY_TO.tron : MOCK_PAY_TO.evm))).toBe(true);
    const meta = (challenge.extensions!.paymentPermitContext as { meta: Record<string, unknown> }).meta;
    expect(meta.kind).toBe('PAYMENT_ONLY');
    expect(meta.paymentId).toMatch(/^0x[0-9a-f]{32}$/);
    expect(Number(meta.validBefore) - Number(meta.validAfter)).toBeGreaterThan(3000);
  });

  test('our client pays it and decodes PAYMENT-RESPONSE', async () => {
    const client = new X402Client({ baseUrl: BASE_URL, payers: [evmPayer({ privateKey: KEYS.evm })] });
    const { payment, response } = await client.prices();
    expect(payment).toMatchObject({ x402Version: 2, network: 'eip155:8453', symbol: 'USDC', amount: '10000', payer: evmAddressOfKey(KEYS.evm) });
    expect(decodeBase64Json(response.headers.get('PAYMENT-RESPONSE')!)).toMatchObject({ success: true, transaction: payment!.transaction });
  });

  test('@x402/fetch (v2, the maintained client) pays the mock’s v2 challenge', async () => {
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: privateKeyToAccount(KEYS.evm) });
    const pay = wrapV2(fetch, client);
    const res = await pay(`${BASE_URL}/x402/tron/network?format=summary`);
    expect(res.status).toBe(200);
    const settlement = decodePaymentResponseHeader(res.headers.get('PAYMENT-RESPONSE')!);
    expect(settlement).toMatchObject({ success: true, network: 'eip155:8453', payer: privateKeyToAccount(KEYS.evm).address });
    const { data } = (await res.json()) as { data: { block_height: number } };
    expect(data.block_height).toBe(mock.paid.chain.height());
  });

  test('TRON network aliases all normalise: the mock can spell mainnet five ways', async () => {
    for (const spelling of ['tron:mainnet', 'tron:728126428', 'tron:27Lqcw', 'tron:0x2B6653DC', 'tron:0x2b6653dc']) {
      mock.paid.paywall.configure({ tronNetwork: spelling });
      const client = new X402Client({ baseUrl: BASE_URL, payers: [tronPayer({ privateKey: KEYS.tron, schemes: ['exact_permit'] })] });
      const { payment } = await client.network({ format: 'summary' });
      expect(payment).toMatchObject({ network: spelling, network_id: 'tron:728126428', scheme: 'exact_permit' });
    }
    mock.paid.paywall.configure({ tronNetwork: 'tron:0x2b6653dc' });
  });
});

describe('v1 challenge (asked for with an option)', () => {
  test('a v1-only body: x402Version 1, Base USDC only, absolute resource, mimeType, no outputSchema: null', async () => {
    const res = await fetch(PRICES, { headers: { 'x-mock-x402-version': '1' } });
    expect(res.status).toBe(402);
    expect(res.headers.get('PAYMENT-REQUIRED')).toBeNull();
    const body = PaymentRequiredV1.parse(await res.json());
    expect(body.error).toBeTruthy();
    expect(body.accepts).toHaveLength(1);
    const offer = PaymentRequirementsV1.parse(body.accepts[0]);
    expect(offer).toMatchObject({ scheme: 'exact', network: 'base', maxAmountRequired: '10000', resource: PRICES, mimeType: 'application/json' });
    expect('outputSchema' in (body.accepts[0] as object)).toBe(false);
  });

  test('our client pays v1 with X-PAYMENT and decodes X-PAYMENT-RESPONSE', async () => {
    const client = new X402Client({ baseUrl: BASE_URL, payers: [evmPayer({ privateKey: KEYS.evm })], headers: { 'x-mock-x402-version': '1' } });
    const { payment, response } = await client.prices();
    expect(payment).toMatchObject({ x402Version: 1, network: 'base', network_id: 'eip155:8453', symbol: 'USDC' });
    expect(response.headers.get('X-PAYMENT-RESPONSE')).toBeTruthy();
    expect(mock.paid.paywall.payments.at(-1)).toMatchObject({ x402Version: 1, transaction: payment!.transaction });
  });

  test('a TRON-only client refuses a v1 challenge (no TRON network exists in v1) before signing', async () => {
    const client = new X402Client({ baseUrl: BASE_URL, payers: [tronPayer({ privateKey: KEYS.tron })], headers: { 'x-mock-x402-version': '1' } });
    const error = await client.prices().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRefusedError);
    expect((error as PaymentRefusedError).offers.map((o) => o.reason)).toEqual(['no_payer']);
  });

  test('the deprecated x402-fetch@1.2.0 (a real v1 client) pays the mock’s v1 challenge', async () => {
    mock.paid.paywall.configure({ version: 1 });
    try {
      const account = privateKeyToAccount(KEYS.evm);
      const pay = v1.wrapFetchWithPayment(fetch, account as never);
      const res = await pay(`${BASE_URL}/x402/tron/estimate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ operation: 'trx_transfer' }),
      });
      expect(res.status).toBe(200);
      const settlement = v1.decodeXPaymentResponse(res.headers.get('X-PAYMENT-RESPONSE')!);
      expect(settlement).toMatchObject({ success: true, network: 'base', payer: account.address });
      const { data } = (await res.json()) as { data: { energy_needed: number } };
      expect(data.energy_needed).toBe(0);
      expect(mock.paid.paywall.payments.at(-1)).toMatchObject({ x402Version: 1, payer: account.address });
    } finally {
      mock.paid.paywall.configure({ version: 2 });
    }
  });
});
