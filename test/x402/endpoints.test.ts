import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { atomicToDecimal } from '../../src/utils/units.js';
import { CHAIN_TOKENS, labelAddress } from '../../src/mock/x402/index.js';
import {
  BatchSendResult,
  Estimate,
  Invoice,
  NetworkInfo,
  Receive,
  SendResult,
  SwapExecution,
  SwapQuote,
  Watch,
  X402Account,
  X402PriceList,
  X402Client,
  evmAddressOfKey,
  evmPayer,
  signTrc20Transfer,
  tronPayer,
  type Payer,
  type PaymentReceipt,
} from '../../src/x402/index.js';
import { BASE_URL, HOOK_URL, KEYS, startMock } from './helpers.js';

/**
 * Each of the twelve endpoints, paid through the mock with an EVM payer (USDC on Base) and with
 * a TRON payer in each scheme (exact_permit, exact_gasfree, exact). Every result is parsed by the
 * SDK's schema, checked against the simulated chain/market, and its payment against the mock's
 * settlement log.
 */

let mock: ReturnType<typeof startMock>;
beforeAll(() => {
  mock = startMock();
});
afterAll(() => mock.close());

const USDT = CHAIN_TOKENS[0]!;
const SENDER_KEY = KEYS.tron2;
const SENDER = privateKeyToTronAddress(SENDER_KEY);
const HOLDER = labelAddress('test holder'); // holds USDT, so a transfer to it needs 65 000 energy
const EMPTY = labelAddress('test empty');

function payers(): Array<{ name: string; payer: () => Payer; scheme: string; network: string; address: string }> {
  return [
    { name: 'EVM (Base USDC)', payer: () => evmPayer({ privateKey: KEYS.evm }), scheme: 'exact', network: 'eip155:8453', address: evmAddressOfKey(KEYS.evm) },
    ...(['exact_permit', 'exact_gasfree', 'exact'] as const).map((scheme) => ({
      name: `TRON ${scheme}`,
      payer: () => tronPayer({ privateKey: KEYS.tron, schemes: [scheme], gasfreeRelayer: mock.relayer, fullNode: BASE_URL }),
      scheme,
      network: 'tron:728126428',
      address: privateKeyToTronAddress(KEYS.tron),
    })),
  ];
}

function expectPaid(payment: PaymentReceipt | null, p: ReturnType<typeof payers>[number], usd = '0.01') {
  expect(payment).not.toBeNull();
  expect(payment!.scheme).toBe(p.scheme);
  expect(payment!.network_id).toBe(p.network);
  expect(payment!.payer).toBe(p.address);
  expect(payment!.amount_usd).toBe(usd);
  expect(payment!.transaction).toMatch(/^(0x)?[0-9a-f]{64}$/);
  const settled = mock.paid.paywall.payments.at(-1)!;
  expect(settled.transaction).toBe(payment!.transaction);
  expect(settled.payer).toBe(p.address);
  expect(settled.scheme).toBe(p.scheme);
}

async function signedUsdt(to: string, amount: string) {
  return signTrc20Transfer({ privateKey: SENDER_KEY, to, amount, fullNode: BASE_URL });
}

for (const p of payers()) {
  describe(`paid with ${p.name}`, () => {
    const client = () => new X402Client({ baseUrl: BASE_URL, payers: [p.payer()] });

    test('prices: the market’s providers at the 1-hour tier', async () => {
      const { data, payment } = await client().prices({ resource: 'ENERGY' });
      expect(X402PriceList.parse(data)).toEqual(data);
      const selection = mock.state.market.select({ resource: 'ENERGY', duration_sec: 3600 });
      const expected = [selection.best!, ...selection.fallbacks].map((c) => ({ provider: c.provider, price_sun: c.price_sun, available: c.available }));
      expect(data.map((d) => ({ provider: d.provider, price_sun: d.price_sun, available: d.available }))).toEqual(expected);
      expectPaid(payment, p);
    });

    test('account: balances and resources from the simulated chain', async () => {
      mock.paid.chain.syntheticTransfer({ token: USDT, to: HOLDER, amount: 5_000_000n });
      mock.paid.chain.fundTrx(HOLDER, 7_000_000n);
      const { data, payment } = await client().account(HOLDER);
      X402Account.parse(data);
      expect(data.address).toBe(HOLDER);
      expect(data.balance).toBe(Number(mock.paid.chain.trxBalance(HOLDER)));
      expect(data.trc20_balances?.find((b) => b.symbol === 'USDT')?.balance).toBe(atomicToDecimal(mock.paid.chain.tokenBalance(HOLDER, USDT.address), 6));
      expectPaid(payment, p);
    });

    test('estimate: 65 000 energy to a holder, 130 000 to an empty address', async () => {
      mock.paid.chain.syntheticTransfer({ token: USDT, to: HOLDER, amount: 1n });
      const holder = await client().estimate({ operation: 'trc20_transfer', to: HOLDER, amount: '1' });
      const empty = await client().estimate({ operation: 'trc20_transfer', to: EMPTY, amount: '1' });
      Estimate.parse(holder.data);
      expect(holder.data.energy_needed).toBe(65_000);
      expect(empty.data.energy_needed).toBe(130_000);
      const best = mock.state.market.select({ resource: 'ENERGY', duration_sec: 3600 }).best!;
      expect(holder.data.cost_trx).toBe(atomicToDecimal(BigInt(65_000 * best.price_sun + 345 * 1000), 6));
      expectPaid(empty.payment, p);
    });

    test('swapQuote: the DEX pool’s constant-product quote', async () => {
      const expected = mock.paid.dex.quote('TRX', 'USDT', '1000');
      const { data, payment } = await client().swapQuote({ from: 'TRX', to: 'USDT', amount: '1000' });
      SwapQuote.parse(data);
      expect(data.amount_out).toBe(expected.amount_out);
      expect(data.rate).toBe(expected.rate);
      expect(Number(data.price_impact)).toBeGreaterThan(0);
      expectPaid(payment, p);
    });

    test('network: chain parameters at the current block', async () => {
      const { data, payment } = await client().network({ format: 'full' });
      NetworkInfo.parse(data);
      expect(data.block_height).toBe(mock.paid.chain.height());
      expect(data.energy_fee_sun).toBe(100);
      expectPaid(payment, p);
    });

    test('invoice: created and watching its address', async () => {
      const { data, payment } = await client().invoice({ amount_usdt: '12.5', description: 'order 7' });
      Invoice.parse(data);
      const stored = mock.paid.watchers.invoices.get(data.invoice_id)!;
      expect(stored.pay_to_address).toBe(data.pay_to_address);
      expect(stored.amount_usdt).toBe('12.5');
      expect(data.qr_data).toContain(data.pay_to_address);
      expectPaid(payment, p);
    });

    test('watch: 24 hours of mock time', async () => {
      const { data, payment } = await client().watch({ address: HOLDER, webhook_url: HOOK_URL, event_types: ['usdt_incoming'] });
      Watch.parse(data);
      expect(data.status).toBe('active');
      expect(Date.parse(String(data.expires_at)) - mock.state.now()).toBe(24 * 3600 * 1000);
      expectPaid(payment, p);
    });

    test('receive: a one-time watch address', async () => {
      const { data, payment } = await client().receive({ expected_amount: '3', timeout_seconds: 120 });
      Receive.parse(data);
      expect(mock.paid.watchers.receives.get(data.payment_id)?.watch_address).toBe(data.watch_address);
      expect(Date.parse(String(data.expires_at)) - mock.state.now()).toBe(120_000);
      expectPaid(payment, p);
    });

    test('send: broadcasts the caller’s signed transfer, energy bought from the market', async () => {
      mock.paid.chain.syntheticTransfer({ token: USDT, to: SENDER, amount: 10_000_000n });
      mock.paid.chain.fundTrx(SENDER, 2_000_000n); // an account on chain with TRX for bandwidth: java-tron refuses a sender that is none
      const to = labelAddress(`send ${p.name}`);
      const signed = await signedUsdt(to, '1.5');
      const { data, payment } = await client().send({ to, amount_usdt: '1.5', signed_tx: signed.signed_tx, memo: 'invoice 42' });
      SendResult.parse(data);
      expect(data.txid).toBe(signed.txID);
      expect(data.status).toBe('confirmed');
      expect(mock.paid.chain.tokenBalance(to, USDT.address)).toBe(1_500_000n);
      expect(mock.paid.chain.transactions.get(signed.txID)?.result).toBe('SUCCESS');
      expect(data.resources.energy_used).toBe(130_000);
      // a dynamic price between 0.001 and 0.01 USD
      expect(Number(payment!.amount_usd)).toBeGreaterThanOrEqual(0.001);
      expect(Number(payment!.amount_usd)).toBeLessThanOrEqual(0.01);
      expectPaid(payment, p, payment!.amount_usd);
    });

    test('sendBatch: several signed transfers in one call', async () => {
      mock.paid.chain.syntheticTransfer({ token: USDT, to: SENDER, amount: 10_000_000n });
      mock.paid.chain.fundTrx(SENDER, 2_000_000n); // an account on chain with TRX for bandwidth: java-tron refuses a sender that is none
      const a = labelAddress(`batch a ${p.name}`);
      const b = labelAddress(`batch b ${p.name}`);
      const transfers = [
        { to: a, amount: '0.25', signed_tx: (await signedUsdt(a, '0.25')).signed_tx },
        { to: b, amount: '0.75', signed_tx: (await signedUsdt(b, '0.75')).signed_tx },
      ];
      const { data, payment } = await client().sendBatch({ transfers });
      BatchSendResult.parse(data);
      expect(data).toMatchObject({ total: 2, succeeded: 2, failed: 0 });
      expect(mock.paid.chain.tokenBalance(b, USDT.address)).toBe(750_000n);
      expectPaid(payment, p, payment!.amount_usd);
    });

    test('swapExecute: moves the pool by the quoted amount', async () => {
      const expected = mock.paid.dex.quote('USDT', 'TRX', '50');
      const before = mock.paid.dex.pools.get('USDT')!.reserve;
      const { data, payment } = await client().swapExecute({ from_token: 'USDT', to_token: 'TRX', amount: '50' });
      SwapExecution.parse(data);
      expect(data.amount_out).toBe(expected.amount_out);
      expect(mock.paid.dex.pools.get('USDT')!.reserve - before).toBe(50_000_000n);
      expect(mock.paid.chain.transactions.has(data.txid)).toBe(true);
      // 50 USD of value: 0.001 + 0.009 × 50 / 10 000 = 0.001045 USD
      expectPaid(payment, p, '0.001045');
    });

    test('rpc: a whitelisted node call', async () => {
      const { data, payment } = await client().rpc('wallet/getnowblock', {});
      expect((data as { blockID: string }).blockID).toBe(mock.paid.chain.blockId(mock.paid.chain.height()));
      expectPaid(payment, p);
      const info = await client().rpc('getaccount', { address: HOLDER, visible: true });
      expect((info.data as { address: string }).address).toBe(HOLDER);
    });
  });
}

describe('dynamic prices (how the mock prices send, send/batch, swap/execute)', () => {
  const client = () => new X402Client({ baseUrl: BASE_URL, payers: [tronPayer({ privateKey: KEYS.tron, schemes: ['exact_permit'] })] });

  test('send costs 0.01 USD when all 130 000 energy must be bought, 0.001 USD when the sender already has it', async () => {
    const sender = privateKeyToTronAddress(KEYS.tron);
    mock.paid.chain.syntheticTransfer({ token: USDT, to: sender, amount: 10_000_000n });
    mock.paid.chain.fundTrx(sender, 2_000_000n); // an account with TRX for bandwidth (its free 600 bytes go on the payments)
    const to1 = labelAddress('dyn 1');
    const first = await signTrc20Transfer({ privateKey: KEYS.tron, to: to1, amount: '1', fullNode: BASE_URL });
    const a = await client().send({ to: to1, amount_usdt: '1', signed_tx: first.signed_tx });
    expect(a.payment!.amount_usd).toBe('0.01');
    mock.paid.chain.delegateEnergy(sender, 200_000);
    const to2 = labelAddress('dyn 2');
    const second = await signTrc20Transfer({ privateKey: KEYS.tron, to: to2, amount: '1', fullNode: BASE_URL });
    const b = await client().send({ to: to2, amount_usdt: '1', signed_tx: second.signed_tx });
    expect(b.payment!.amount_usd).toBe('0.001');
    expect(b.data.resources.energy_purchased).toBe(0);
  });

  test('swap/execute scales with the swap value and caps at 0.01 USD', async () => {
    // 100 USD: 0.001 + 0.009 × 100 / 10 000 = 0.00109 USD (prices resolve to 1 micro-USD)
    const small = await client().swapExecute({ from_token: 'USDC', to_token: 'TRX', amount: '100' });
    expect(small.payment!.amount_usd).toBe('0.00109');
    const tiny = await client().swapExecute({ from_token: 'USDC', to_token: 'TRX', amount: '0.5' });
    expect(tiny.payment!.amount_usd).toBe('0.001');
    const big = await client().swapExecute({ from_token: 'USDT', to_token: 'TRX', amount: '20000' });
    expect(big.payment!.amount_usd).toBe('0.01');
  });
});
