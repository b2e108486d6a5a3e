/**
 * Distrust what can lie (issue 29, item 4), each through a hostile proxy in front of the mock
 * and judged by the mock's chain and order list: a broadcast answer naming another tx id, a
 * receipt for another id, node fee and energy figures out of bounds, fee_limit against the
 * chain's getMaxFeeLimit and the stated ceiling, `timeoutMs` as a total deadline, the cap always
 * sent as max_price_sun (even at a quoted price of 0), a fill charged above the cap, and one
 * process serialising ensure per address and send per sender.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent, type TrxRentError, memoryTransferStore, trxToSun } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { decodeRawDataHex } from '../../src/protocol/tron-transaction.js';
import { type HostileProxy, type Rule, hostileProxy } from '../helpers/hostile-proxy.js';
import { walletMaker } from '../helpers/wallets.js';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 294, rateLimits: false, timings: { selectMs: 20, fillMs: 40, verifyMs: 60 } });
});
afterAll(async () => {
  await mock?.close();
});

const wallet = walletMaker(() => mock, 0x90);

const proxies: HostileProxy[] = [];
afterAll(async () => {
  for (const p of proxies) await p.close();
});

/** A client on a fresh account behind a proxy with `rule`. */
async function setup(rule?: Rule, options: { timeoutMs?: number; maxRetries?: number } = {}) {
  const account = mock.state.createAccount({ trx_sun: trxToSun('1000') });
  const proxy = await hostileProxy(mock.url, { rules: rule ? [rule] : [] });
  proxies.push(proxy);
  const client = new TrxRent({
    baseUrl: proxy.url,
    tronNode: proxy.url,
    apiKey: account.api_key,
    transferStore: memoryTransferStore(),
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ...options,
  });
  const sender = wallet(20n);
  const recipient = wallet(1n);
  const orders = async () =>
    ((await (await fetch(`${mock.url}/api/v1/orders`, { headers: { 'x-api-key': account.api_key } })).json()) as { total: number }).total;
  const paid = () => mock.state.chain.tokenBalance(recipient.address, USDT) - 1_000_000n;
  const landed = () => [...mock.state.chain.transactions.values()].filter((t) => t.owner === sender.address && t.contractType === 'TriggerSmartContract');
  const send = (extra: Record<string, unknown> = {}) =>
    client.transfers.send({ token: 'USDT', to: recipient.address, amount: '1', signer: { privateKey: sender.privateKey }, ...extra });
  return { client, proxy, sender, recipient, orders, paid, landed, send };
}

const fail = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('resolved'),
    (e: unknown) => e as TrxRentError,
  );

describe('a lying broadcast answer or receipt', () => {
  it('a broadcast answered with another tx id is an error naming both, outcome unknown, not success', async () => {
    const other = 'ee'.repeat(32);
    const s = await setup({
      match: /^POST \/api\/v1\/broadcast$/,
      fault: 'rewrite',
      rewrite: (b) => ('data' in b ? { data: { ...b.data, tx_id: other } } : { ...b, tx_id: other }),
    });
    const e = await fail(s.send({ timeoutMs: 10_000 }));
    expect(e.code).toBe('INVALID_RESPONSE');
    const signed = s.landed()[0]!.txid;
    expect(e.message).toContain(signed);
    expect(e.message).toContain(other);
    expect(e.details).toMatchObject({ stage: 'broadcast', transfer_sent: 'unknown', tx_id: signed, answered_tx_id: other });
  });

  it('a receipt for another transaction id is refused (NODE_ERROR), never reported as this transfer', async () => {
    const other = 'dd'.repeat(32);
    const s = await setup({ match: /^POST \/wallet\/gettransactioninfobyid$/, fault: 'rewrite', rewrite: (b) => (b.id ? { ...b, id: other } : b) });
    const e = await fail(s.send({ timeoutMs: 10_000 }));
    expect(e.code).toBe('NODE_ERROR');
    expect(e.message).toContain(other);
    expect(e.details).toMatchObject({ reason: 'RECEIPT_MISMATCH', stage: 'receipt', transfer_sent: 'unknown', answered_tx_id: other });
  });
});

describe("a node's figures are bounded", () => {
  const params = (edit: Record<string, number>) => (b: { chainParameter: Array<{ key: string; value?: number }> }) => ({
    chainParameter: [...b.chainParameter.filter((p) => !(p.key in edit)), ...Object.entries(edit).map(([key, value]) => ({ key, value }))],
  });
  const chainParams = (edit: Record<string, number>): Rule => ({ match: /^POST \/wallet\/getchainparameters$/, fault: 'rewrite', rewrite: params(edit) });

  it.each([
    ['a negative energy fee', { getEnergyFee: -420 }, 'getEnergyFee'],
    ['an absurd energy fee', { getEnergyFee: 1_000_000_000 }, 'getEnergyFee'],
    ['a zero bandwidth fee', { getTransactionFee: 0 }, 'getTransactionFee'],
    ['a negative max fee limit', { getMaxFeeLimit: -1 }, 'getMaxFeeLimit'],
  ])('%s is NODE_ERROR before anything is ordered or signed', async (_name, edit, field) => {
    const s = await setup(chainParams(edit));
    const e = await fail(s.send({ timeoutMs: 10_000 }));
    expect(e.code).toBe('NODE_ERROR');
    expect(e.details).toMatchObject({ field });
    expect(await s.orders()).toBe(0);
    expect(s.landed()).toEqual([]);
  });

  it('negative or absurd energy from the simulation is NODE_ERROR', async () => {
    for (const energy of [-65_000, 900_000_000]) {
      const s = await setup({
        match: /^POST \/wallet\/triggerconstantcontract$/,
        fault: 'rewrite',
        rewrite: (b) => (b.energy_used > 1_000 ? { ...b, energy_used: energy } : b),
      });
      const e = await fail(s.send({ timeoutMs: 10_000 }));
      expect(e.code).toBe('NODE_ERROR');
      expect(await s.orders()).toBe(0);
    }
  });

  it('a receipt with a negative or absurd fee or energy figure is NODE_ERROR naming the field and the tx id', async () => {
    for (const edit of [{ fee: -5 }, { receipt: { energy_usage_total: 900_000_000, result: 'SUCCESS' } }]) {
      const s = await setup({ match: /^POST \/wallet\/gettransactioninfobyid$/, fault: 'rewrite', rewrite: (b) => (b.id ? { ...b, ...edit } : b) });
      const e = await fail(s.send({ timeoutMs: 10_000 }));
      expect(e.code).toBe('NODE_ERROR');
      expect(e.details).toMatchObject({ field: expect.stringMatching(/fee|energy_usage_total/), tx_id: s.landed()[0]!.txid, stage: 'receipt' });
    }
  });

  it('burning under a fee_limit ceiling too low for the energy is refused before signing', async () => {
    const s = await setup();
    mock.state.chain.fundTrx(s.sender.address, 100_000_000n); // enough TRX to burn: only the ceiling refuses
    const e = await fail(s.send({ timeoutMs: 10_000, burn: true, maxFeeLimitSun: 1_000_000 }));
    expect(e.code).toBe('SPENDING_CAP_EXCEEDED');
    expect(e.details).toMatchObject({ field: 'maxFeeLimitSun' });
    expect(s.landed()).toEqual([]);
  });

  it("fee_limit never exceeds the chain's getMaxFeeLimit nor maxFeeLimitSun; a feeLimitSun above them is refused", async () => {
    // java-tron caps a call's energy, rented energy included, at fee_limit / getEnergyFee: a
    // ceiling between the energy's cost (65,000 x 100 SUN) and the default (that plus 10 %) caps it.
    const cap = 6_800_000;
    const capped = await setup(chainParams({ getMaxFeeLimit: cap }));
    await capped.send({ timeoutMs: 15_000, burn: false });
    const tx = capped.landed()[0]!;
    expect(decodeRawDataHex(String((tx.tx as { raw_data_hex: string }).raw_data_hex)).feeLimit).toBe(cap);
    const own = await setup();
    await own.send({ timeoutMs: 15_000, maxFeeLimitSun: cap - 100_000 });
    expect(decodeRawDataHex(String((own.landed()[0]!.tx as { raw_data_hex: string }).raw_data_hex)).feeLimit).toBe(cap - 100_000);
    // A ceiling below the energy's cost would run out of energy even with it rented: refused before anything is ordered.
    const low = await setup();
    const tooLow = await fail(low.send({ timeoutMs: 15_000, maxFeeLimitSun: 2_000_000 }));
    expect(tooLow.code).toBe('SPENDING_CAP_EXCEEDED');
    expect(tooLow.details).toMatchObject({ field: 'maxFeeLimitSun', ceiling_sun: 2_000_000 });
    expect(await low.orders()).toBe(0);
    expect(low.landed()).toEqual([]);
    const refused = await setup(chainParams({ getMaxFeeLimit: 3_000_000 }));
    const e = await fail(refused.send({ timeoutMs: 15_000, feeLimitSun: 3_000_001 }));
    expect(e.code).toBe('VALIDATION_ERROR');
    expect(e.details).toMatchObject({ field: 'feeLimitSun' });
    expect(refused.landed()).toEqual([]);
  });
});

describe('timeoutMs is a total deadline', () => {
  it('send with a node that never answers ends at timeoutMs, not per call x retries', async () => {
    // Per request 10 s and 2 retries: about 30 s per stuck call without a total deadline.
    const s = await setup({ match: /^POST \/wallet\/triggerconstantcontract$/, fault: 'timeout' }, { timeoutMs: 10_000, maxRetries: 2 });
    const e = await fail(s.send({ timeoutMs: 1_500 }));
    // The call's own deadline ended it (not a request's 10 s, which would say so): no wall-time assertion.
    expect(e.code).toBe('TIMEOUT');
    expect(e.message).toMatch(/did not finish within 1500 ms/);
  });

  it('ensure with a stuck delegation read ends at timeoutMs', async () => {
    const s = await setup({ match: /^POST \/wallet\/getaccountresource$/, fault: 'timeout' }, { timeoutMs: 10_000, maxRetries: 2 });
    const e = await fail(s.client.resources.ensure({ address: s.sender.address, energy: 65_000, timeoutMs: 1_500 }));
    expect(e.code).toBe('TIMEOUT');
    expect(e.message).toMatch(/did not finish within 1500 ms/);
  });
});

describe('the cap', () => {
  const free = (b: any) => {
    const zero = (o: any) => o && { ...o, price_sun: 0, cost_trx: 0 };
    const edit = (p: any) => ({ ...p, best: zero(p.best), fallbacks: (p.fallbacks ?? []).map(zero) });
    return 'data' in b ? { data: edit(b.data) } : edit(b);
  };

  it('is always sent as max_price_sun, even when the preview prices it at 0; a cap of 0 orders nothing', async () => {
    const s = await setup({ match: /^GET \/api\/v1\/orders\/preview$/, fault: 'rewrite', rewrite: free });
    const zero = await fail(s.send({ timeoutMs: 10_000, maxCostSun: 0 }));
    expect(zero.code).toBe('SPENDING_CAP_EXCEEDED');
    expect(await s.orders()).toBe(0);
    // A cap of 1 SUN with a quote of 0: the order carries a price ceiling, and the market (priced above it) does not fill.
    const one = await fail(s.send({ timeoutMs: 5_000, maxCostSun: 1 }));
    const posted = s.proxy.log.filter((r) => r.method === 'POST' && r.path === '/api/v1/orders').map((r) => JSON.parse(r.body));
    expect(posted.length).toBeGreaterThan(0);
    for (const body of posted) {
      expect(body.max_price_sun).toBeGreaterThan(0);
      expect(body.max_price_sun * body.amount).toBeLessThanOrEqual(1);
    }
    expect(one.details).toMatchObject({ transfer_sent: false });
    expect(s.paid()).toBe(0n);
  });

  it('a fill charged above the cap is reported (SPENDING_CAP_EXCEEDED naming the order), and nothing is sent', async () => {
    const charge = (b: any) => {
      const edit = (o: any) => (o.status === 'FILLED' ? { ...o, total_cost_sun: 999_000_000 } : o);
      return 'data' in b ? { data: edit(b.data) } : edit(b);
    };
    const s = await setup({ match: /^GET \/api\/v1\/orders\/(?!preview$)[^/]+$/, fault: 'rewrite', rewrite: charge });
    const e = await fail(s.send({ timeoutMs: 10_000, maxCostSun: 50_000_000 }));
    expect(e.code).toBe('SPENDING_CAP_EXCEEDED');
    expect(e.details).toMatchObject({ charged_sun: 999_000_000, max_cost_sun: 50_000_000, transfer_sent: false, order_id: expect.any(String) });
    expect(e.message).toContain(String(e.details!.order_id));
    expect(s.paid()).toBe(0n);
    expect(s.landed()).toEqual([]);
  });
});

describe('one process, one address at a time', () => {
  it('concurrent ensure calls for one address buy once', async () => {
    const s = await setup();
    const results = await Promise.all([1, 2, 3].map(() => s.client.resources.ensure({ address: s.sender.address, energy: 65_000, timeoutMs: 15_000 })));
    expect(results.filter((r) => r.order !== null)).toHaveLength(1);
    expect(await s.orders()).toBe(1);
  });

  it('concurrent sends from one sender each send once: two transfers, in turn, each paid once', async () => {
    const s = await setup();
    mock.state.chain.fundTrx(s.sender.address, 10_000_000n); // the second transfer burns for its bandwidth
    const [a, b] = await Promise.all([s.send({ timeoutMs: 20_000, idempotencyKey: 'c-1' }), s.send({ timeoutMs: 20_000, idempotencyKey: 'c-2' })]);
    expect(a.tx_id).not.toBe(b.tx_id);
    expect(s.paid()).toBe(2_000_000n);
    expect(s.landed()).toHaveLength(2);
    // The second found the first one's energy or rented its own; never more orders than transfers.
    expect(await s.orders()).toBeLessThanOrEqual(2);
  });
});
