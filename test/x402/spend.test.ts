import { inspect } from 'node:util';
import { TronWeb } from 'tronweb';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { InvalidAddressError, ValidationError } from '../../src/errors/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { decodeBase64Json, encodeBase64Json } from '../../src/protocol/codec.js';
import {
  PaymentRefusedError,
  X402Client,
  evmAddressOfKey,
  evmPayer,
  signTrc20Transfer,
  tronPayer,
  type EvmAccountLike,
  type TronWebLike,
} from '../../src/x402/index.js';
import { BASE_URL, KEYS, startMock } from './helpers.js';

/**
 * Spend safety: maxPayment per call, a total budget (also under concurrency), allow-lists,
 * unknown assets, the caller's preference, the cheapest offer, a declined quote, a GasFree fee
 * that pushes the cost over the limit — all refused before anything is signed (spied signers
 * are never called). Plus local validation and key hygiene.
 */

let mock: ReturnType<typeof startMock>;
beforeAll(() => {
  mock = startMock();
});
afterAll(() => mock.close());

function spyEvm() {
  const real = privateKeyToAccount(KEYS.evm);
  const signTypedData = vi.fn((args: Parameters<EvmAccountLike['signTypedData']>[0]) => real.signTypedData(args as never));
  const account: EvmAccountLike = { address: real.address, signTypedData };
  return { account, signTypedData };
}

function spyTronWeb() {
  const tronWeb = new TronWeb({ fullHost: BASE_URL, privateKey: KEYS.tron });
  const signTypedData = vi.spyOn(tronWeb.trx, 'signTypedData');
  const sign = vi.spyOn(tronWeb.trx, 'sign');
  return { tronWeb: tronWeb as unknown as TronWebLike, signTypedData, sign };
}

/** A fake paid endpoint serving `accepts`; records what was paid. */
function fakeServer(accepts: Array<Record<string, unknown>>, extensions?: Record<string, unknown>) {
  const paid: Array<Record<string, unknown>> = [];
  let requests = 0;
  const fetchImpl: typeof fetch = async (input, init) => {
    requests++;
    const request = new Request(input, init);
    const header = request.headers.get('PAYMENT-SIGNATURE');
    if (!header) {
      const challenge = { x402Version: 2, error: 'Payment required', resource: { url: request.url }, accepts, ...(extensions ? { extensions } : {}) };
      return new Response(JSON.stringify(challenge), {
        status: 402,
        headers: { 'PAYMENT-REQUIRED': encodeBase64Json(challenge), 'content-type': 'application/json' },
      });
    }
    const payload = decodeBase64Json(header) as { accepted: Record<string, unknown> };
    paid.push(payload.accepted);
    const settlement = { success: true, transaction: 'ab'.repeat(32), network: payload.accepted.network, payer: 'x' };
    return new Response(JSON.stringify({ data: [] }), {
      status: 200,
      headers: { 'PAYMENT-RESPONSE': encodeBase64Json(settlement), 'content-type': 'application/json' },
    });
  };
  return { fetch: fetchImpl, paid, requests: () => requests };
}

const BASE_USDC = {
  scheme: 'exact',
  network: 'eip155:8453',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  payTo: '0x1111111111111111111111111111111111111111',
  maxTimeoutSeconds: 300,
  extra: { name: 'USD Coin', version: '2' },
};
const TRON_USDT = {
  scheme: 'exact_permit',
  network: 'tron:728126428',
  asset: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
  payTo: 'TPhxajexTm7MY1tzxoEUKakB8tVFvEps69',
  maxTimeoutSeconds: 300,
  extra: {},
};
const TRON_USDD = { ...TRON_USDT, asset: 'TPYmHEhy5n8TCEfYGqW2rPxsghSfzghPDn' };
const PERMIT_CONTEXT = {
  paymentPermitContext: { meta: { kind: 'PAYMENT_ONLY', paymentId: `0x${'12'.repeat(16)}`, nonce: '7', validAfter: 0, validBefore: 4_000_000_000 } },
};

describe('maxPayment', () => {
  test('an offer above maxPayment is refused before signing: no signer called, no second request', async () => {
    const evm = spyEvm();
    const tron = spyTronWeb();
    let requests = 0;
    const counting: typeof fetch = (input, init) => {
      requests++;
      return fetch(input, init);
    };
    const client = new X402Client({
      baseUrl: BASE_URL,
      payers: [evmPayer({ account: evm.account }), tronPayer({ tronWeb: tron.tronWeb })],
      maxPayment: '0.005',
      fetch: counting,
    });
    const error = await client.prices().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRefusedError);
    const refused = error as PaymentRefusedError;
    expect(refused.code).toBe('PAYMENT_REFUSED');
    expect(new Set(refused.offers.map((o) => o.reason))).toEqual(new Set(['above_max_payment']));
    expect(refused.offers).toHaveLength(10);
    expect(refused.offers[0]!.amount_usd).toBe('0.01');
    expect(evm.signTypedData).not.toHaveBeenCalled();
    expect(tron.signTypedData).not.toHaveBeenCalled();
    expect(tron.sign).not.toHaveBeenCalled();
    expect(requests).toBe(1);
    expect(mock.paid.paywall.payments).toHaveLength(0);
  });

  test('the default maxPayment is the documented 0.01 USD; a per-call override applies to that call', async () => {
    const evm = spyEvm();
    const client = new X402Client({ baseUrl: BASE_URL, payers: [evmPayer({ account: evm.account })] });
    await expect(client.prices()).resolves.toMatchObject({ payment: { amount_usd: '0.01' } });
    await expect(client.prices({}, { maxPayment: '0.009' })).rejects.toBeInstanceOf(PaymentRefusedError);
    expect(evm.signTypedData).toHaveBeenCalledTimes(1);
  });

  test('a GasFree fee counts: amount + maxFee above maxPayment is refused before signing', async () => {
    mock.paid.paywall.configure({ gasfreeTransferFee: '5000' }); // 0.005 USDT per transfer
    try {
      const tron = spyTronWeb();
      const payer = tronPayer({ tronWeb: tron.tronWeb, schemes: ['exact_gasfree'], gasfreeRelayer: mock.relayer });
      const strict = new X402Client({ baseUrl: BASE_URL, payers: [payer] });
      const error = await strict.prices().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentRefusedError);
      expect((error as PaymentRefusedError).offers[0]).toMatchObject({ reason: 'above_max_payment', amount: '15000', amount_usd: '0.015' });
      expect(tron.signTypedData).not.toHaveBeenCalled();
      expect(strict.spent).toBe('0');

      const roomy = new X402Client({ baseUrl: BASE_URL, payers: [payer], maxPayment: '0.02', budget: '1' });
      const { payment } = await roomy.prices();
      expect(payment).toMatchObject({ scheme: 'exact_gasfree', amount: '10000', fee: '5000', amount_usd: '0.015' });
      expect(roomy.spent).toBe('0.015');
      expect(tron.signTypedData).toHaveBeenCalledTimes(1);
    } finally {
      mock.paid.paywall.configure({ gasfreeTransferFee: '0' });
    }
  });
});

describe('budget', () => {
  test('calls stop when the budget is spent', async () => {
    const evm = spyEvm();
    const client = new X402Client({ baseUrl: BASE_URL, payers: [evmPayer({ account: evm.account })], budget: '0.025' });
    await client.prices();
    await client.network();
    expect(client.spent).toBe('0.02');
    expect(client.remainingBudget).toBe('0.005');
    const error = await client.prices().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentRefusedError);
    const offers = (error as PaymentRefusedError).offers;
    expect(offers.filter((o) => o.network === 'eip155:8453').map((o) => o.reason)).toEqual(['over_budget']);
    expect(offers.filter((o) => o.network !== 'eip155:8453').every((o) => o.reason === 'no_payer')).toBe(true);
    expect(evm.signTypedData).toHaveBeenCalledTimes(2);
  });

  test('concurrent calls cannot overspend: the budget is reserved when an offer is chosen', async () => {
    const evm = spyEvm();
    const client = new X402Client({ baseUrl: BASE_URL, payers: [evmPayer({ account: evm.account })], budget: '0.015' });
    const results = await Promise.allSettled([client.prices(), client.prices(), client.prices()]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof PaymentRefusedError)).toHaveLength(2);
    expect(client.spent).toBe('0.01');
    expect(evm.signTypedData).toHaveBeenCalledTimes(1);
  });
});

describe('what counts as spent', () => {
  test('an error answer after paying, without a settlement, still counts: the payment was sent', async () => {
    const sender = privateKeyToTronAddress(KEYS.tron2);
    mock.paid.chain.syntheticTransfer({ token: mock.paid.chain.token('USDT')!, to: sender, amount: 5_000_000n });
    mock.paid.chain.fundTrx(sender, 2_000_000n); // an account on chain: java-tron refuses a sender that is none
    const to = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';
    const signed = await signTrc20Transfer({ privateKey: KEYS.tron2, to, amount: '1', fullNode: BASE_URL });
    const a = new X402Client({ baseUrl: BASE_URL, payers: [evmPayer({ privateKey: KEYS.evm })], budget: '1' });
    const b = new X402Client({ baseUrl: BASE_URL, payers: [evmPayer({ privateKey: KEYS.evm })], budget: '1' });
    const body = { to, amount_usdt: '1', signed_tx: signed.signed_tx };
    const [ra, rb] = await Promise.allSettled([a.send(body), b.send(body)]);
    const outcomes = [ra, rb];
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const failed = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(['BROADCAST_FAILED', 'VALIDATION_ERROR']).toContain((failed.reason as { code: string }).code);
    // Both calls sent a signed payment; the client cannot tell which the server settled.
    expect(Number(a.spent)).toBeGreaterThan(0);
    expect(Number(b.spent)).toBeGreaterThan(0);
  });
});

describe('allow-lists, unknown assets, choice', () => {
  const tronKey = () => tronPayer({ privateKey: KEYS.tron, schemes: ['exact_permit'] });

  test('a payTo not on the allow-list is refused', async () => {
    const tron = spyTronWeb();
    const client = new X402Client({
      baseUrl: BASE_URL,
      payers: [tronPayer({ tronWeb: tron.tronWeb })],
      allow: { payTo: ['TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'] },
    });
    const error = (await client.prices().catch((e: unknown) => e)) as PaymentRefusedError;
    expect(error).toBeInstanceOf(PaymentRefusedError);
    expect(new Set(error.offers.map((o) => o.reason))).toEqual(new Set(['pay_to_not_allowed', 'no_payer']));
    expect(tron.signTypedData).not.toHaveBeenCalled();
  });

  test('an asset allow-list narrows the choice (USDD only)', async () => {
    const client = new X402Client({ baseUrl: BASE_URL, payers: [tronKey()], allow: { assets: ['tron/USDD'] } });
    const { payment } = await client.prices();
    expect(payment).toMatchObject({ symbol: 'USDD', decimals: 18, amount: '10000000000000000', amount_usd: '0.01' });
  });

  test('an unknown asset is refused, even when cheap', async () => {
    const fake = fakeServer([{ ...TRON_USDT, asset: 'TNUC9Qb1rRpS5CbWLmNMxXBjyFoydXjWFR', amount: '1' }], PERMIT_CONTEXT);
    const tron = spyTronWeb();
    const client = new X402Client({ baseUrl: BASE_URL, payers: [tronPayer({ tronWeb: tron.tronWeb })], fetch: fake.fetch });
    const error = (await client.prices().catch((e: unknown) => e)) as PaymentRefusedError;
    expect(error.offers.map((o) => o.reason)).toEqual(['unknown_asset']);
    expect(tron.signTypedData).not.toHaveBeenCalled();
    expect(fake.requests()).toBe(1);
  });

  test('without a preference the cheapest offer wins (in USD, across decimals)', async () => {
    const fake = fakeServer(
      [
        { ...BASE_USDC, amount: '9000' },
        { ...TRON_USDT, amount: '8000' },
        { ...TRON_USDD, amount: '7000000000000000' },
      ],
      PERMIT_CONTEXT,
    );
    const client = new X402Client({ baseUrl: BASE_URL, payers: [evmPayer({ privateKey: KEYS.evm }), tronKey()], fetch: fake.fetch });
    const { payment } = await client.prices();
    expect(fake.paid[0]).toMatchObject({ asset: TRON_USDD.asset });
    expect(payment).toMatchObject({ symbol: 'USDD', amount_usd: '0.007' });
  });

  test('prefer: the caller’s order of network/asset wins over price', async () => {
    const accepts = [
      { ...BASE_USDC, amount: '9000' },
      { ...TRON_USDT, amount: '8000' },
      { ...TRON_USDD, amount: '7000000000000000' },
    ];
    const f1 = fakeServer(accepts, PERMIT_CONTEXT);
    const c1 = new X402Client({ baseUrl: BASE_URL, payers: [evmPayer({ privateKey: KEYS.evm }), tronKey()], prefer: ['base'], fetch: f1.fetch });
    expect((await c1.prices()).payment).toMatchObject({ network_id: 'eip155:8453', symbol: 'USDC' });
    const f2 = fakeServer(accepts, PERMIT_CONTEXT);
    const c2 = new X402Client({ baseUrl: BASE_URL, payers: [evmPayer({ privateKey: KEYS.evm }), tronKey()], prefer: ['tron/USDT', 'base'], fetch: f2.fetch });
    expect((await c2.prices()).payment).toMatchObject({ symbol: 'USDT', network_id: 'tron:728126428' });
  });

  test('onPayment sees the price first; returning false declines without signing', async () => {
    const evm = spyEvm();
    const quotes: unknown[] = [];
    const client = new X402Client({
      baseUrl: BASE_URL,
      payers: [evmPayer({ account: evm.account })],
      budget: '1',
      onPayment: (quote) => {
        quotes.push(quote);
        return false;
      },
    });
    const error = (await client.prices().catch((e: unknown) => e)) as PaymentRefusedError;
    expect(error.offers.map((o) => o.reason)).toEqual(['declined']);
    expect(quotes[0]).toMatchObject({ amount_usd: '0.01', symbol: 'USDC', networkLabel: 'Base', path: '/x402/tron/prices' });
    expect(evm.signTypedData).not.toHaveBeenCalled();
    expect(client.remainingBudget).toBe('1');
  });

  test('an error thrown by onPayment comes back as is, and nothing is signed or spent', async () => {
    const evm = spyEvm();
    const mine = new Error('not today');
    const client = new X402Client({
      baseUrl: BASE_URL,
      payers: [evmPayer({ account: evm.account })],
      budget: '1',
      onPayment: () => {
        throw mine;
      },
    });
    await expect(client.prices()).rejects.toBe(mine);
    expect(evm.signTypedData).not.toHaveBeenCalled();
    expect(client.remainingBudget).toBe('1');
  });

  test('an EVM offer asking for Permit2 (which may need an approve) is not paid', async () => {
    const fake = fakeServer([{ ...BASE_USDC, amount: '9000', extra: { ...BASE_USDC.extra, assetTransferMethod: 'permit2' } }]);
    const evm = spyEvm();
    const client = new X402Client({ baseUrl: BASE_URL, payers: [evmPayer({ account: evm.account })], fetch: fake.fetch });
    const error = (await client.prices().catch((e: unknown) => e)) as PaymentRefusedError;
    expect(error.offers.map((o) => o.reason)).toEqual(['no_payer']);
    expect(evm.signTypedData).not.toHaveBeenCalled();
  });
});

describe('local validation (nothing is sent)', () => {
  function never(): typeof fetch {
    return vi.fn(async () => {
      throw new Error('must not be called');
    }) as unknown as typeof fetch;
  }

  test('sendBatch allows at most 50 transfers', async () => {
    const f = never();
    const client = new X402Client({ baseUrl: BASE_URL, payers: [tronPayer({ privateKey: KEYS.tron })], fetch: f });
    const transfer = { to: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', amount: '1', signed_tx: '{}' };
    const error = await client.sendBatch(Array.from({ length: 51 }, () => transfer)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).field).toBe('transfers');
    expect(f).not.toHaveBeenCalled();
  });

  test('rpc takes only the nine whitelisted methods; bad addresses and unknown fields are refused', async () => {
    const f = never();
    const client = new X402Client({ baseUrl: BASE_URL, payers: [tronPayer({ privateKey: KEYS.tron })], fetch: f });
    await expect(client.rpc('wallet/broadcasttransaction', {})).rejects.toBeInstanceOf(ValidationError);
    await expect(client.account('T-not-an-address')).rejects.toBeInstanceOf(InvalidAddressError);
    await expect(client.estimate({ operation: 'trc20_transfer', fee_limit: 1 } as never)).rejects.toThrow(/Unknown field/);
    await expect(client.invoice({ amount_usdt: '1e3' })).rejects.toBeInstanceOf(ValidationError);
    expect(f).not.toHaveBeenCalled();
  });

  test('a key never shows: not in JSON, not in inspect, not in debug logs', async () => {
    const tron = tronPayer({ privateKey: KEYS.tron });
    const evm = evmPayer({ privateKey: KEYS.evm });
    const raw = [KEYS.tron.replace(/^0x/, ''), KEYS.evm.replace(/^0x/, '')];
    const lines: string[] = [];
    const client = new X402Client({ baseUrl: BASE_URL, payers: [evm, tron], logLevel: 'debug', logger: { debug: (m) => lines.push(m) } });
    const { payment } = await client.prices();
    const dump = [JSON.stringify(tron), JSON.stringify(evm), inspect(tron, { depth: 5, showHidden: true }), inspect(client, { depth: 5 }), ...lines].join('\n');
    for (const key of raw) expect(dump).not.toContain(key);
    expect(lines.join('\n')).not.toMatch(/signature|PAYMENT-SIGNATURE:/i);
    expect(payment!.payer).toBe(payment!.network_id.startsWith('tron') ? privateKeyToTronAddress(KEYS.tron) : evmAddressOfKey(KEYS.evm));
    expect(() => tronPayer({ privateKey: 'nope' })).toThrow(ValidationError);
    expect(() => tronPayer({ privateKey: 'nope' })).not.toThrow(/nope/);
  });
});
