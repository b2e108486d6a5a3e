import { TronWeb } from 'tronweb';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildTrc20Transfer, buildTrxTransfer, privateKeyToTronAddress, signTransaction } from '../../src/protocol/tron-transaction.js';
import { verifyWebhookSignature } from '../../src/webhooks/index.js';
import { CHAIN_TOKENS, labelAddress } from '../../src/mock/x402/index.js';
import { X402Client, tronPayer } from '../../src/x402/index.js';
import { BASE_URL, HOOK_URL, KEYS, startMock } from './helpers.js';

/**
 * The simulated TRON node and the chain behind it: tronweb builds, signs and broadcasts against
 * it; the network's checks (signature, TAPOS, expiry, duplicates, balance) apply; watches,
 * receives and invoices see transfers land and deliver webhooks within 3 seconds; watches end
 * after 24 h of mock time.
 */

let mock: ReturnType<typeof startMock>;
beforeAll(() => {
  mock = startMock();
});
afterAll(() => mock.close());

const USDT = CHAIN_TOKENS[0]!;
const ALICE_KEY = KEYS.tron2.replace(/^0x/, '');
const ALICE = privateKeyToTronAddress(ALICE_KEY);
const BOB = labelAddress('bob');

async function node(method: string, body: unknown = {}) {
  const res = await fetch(`${BASE_URL}/wallet/${method}`, { method: 'POST', body: JSON.stringify(body) });
  return (await res.json()) as Record<string, any>;
}

async function transfer(to: string, amount: string, token = 'USDT') {
  const res = await fetch(`${BASE_URL}/__mock/chain/transfer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ to, amount, token }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { txid: string; block_number: number };
}

async function waitFor<T>(check: () => T | undefined, ms = 3000): Promise<{ value: T; elapsed: number }> {
  const start = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined) return { value, elapsed: Date.now() - start };
    if (Date.now() - start > ms) throw new Error(`not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const client = () => new X402Client({ baseUrl: BASE_URL, payers: [tronPayer({ privateKey: KEYS.tron, schemes: ['exact_permit'] })] });

describe('simulated node', () => {
  test('tronweb builds, signs and broadcasts a TRX transfer against it', async () => {
    mock.paid.chain.fundTrx(ALICE, 50_000_000n);
    const tronWeb = new TronWeb({ fullHost: BASE_URL, privateKey: ALICE_KEY });
    const unsigned = await tronWeb.transactionBuilder.sendTrx(BOB, 1_250_000, ALICE);
    const signed = await tronWeb.trx.sign(unsigned);
    const result = (await tronWeb.trx.sendRawTransaction(signed)) as { result?: boolean; txid?: string };
    expect(result.result).toBe(true);
    expect(mock.paid.chain.trxBalance(BOB)).toBe(1_250_000n);
    const found = await node('gettransactionbyid', { value: signed.txID });
    expect(found.txID).toBe(signed.txID);
    expect(found.ret[0].contractRet).toBe('SUCCESS');
    const account = await node('getaccount', { address: BOB, visible: true });
    expect(account).toMatchObject({ address: BOB, balance: 1_250_000 });
    // the same transaction again is a duplicate
    const again = (await tronWeb.trx.sendRawTransaction(signed)) as { result?: boolean; code?: string };
    expect(again.result).not.toBe(true);
    expect(again.code).toBe('DUP_TRANSACTION_ERROR');
  });

  test('the network checks: unknown reference block, expiry, signature, balance', async () => {
    const height = mock.paid.chain.height();
    const good = { number: height, hash: mock.paid.chain.blockId(height) };
    const wrongRef = signTransaction(
      buildTrxTransfer({ from: ALICE, to: BOB, amountSun: 1, refBlock: { number: height, hash: 'ff'.repeat(32) }, now: mock.state.now() }),
      ALICE_KEY,
    );
    expect((await node('broadcasttransaction', wrongRef)).code).toBe('TAPOS_ERROR');
    const expired = signTransaction(buildTrxTransfer({ from: ALICE, to: BOB, amountSun: 1, refBlock: good, now: mock.state.now() - 120_000 }), ALICE_KEY);
    expect((await node('broadcasttransaction', expired)).code).toBe('TRANSACTION_EXPIRATION_ERROR');
    const forged = { ...signTransaction(buildTrxTransfer({ from: BOB, to: ALICE, amountSun: 1, refBlock: good, now: mock.state.now() }), ALICE_KEY) };
    expect((await node('broadcasttransaction', forged)).code).toBe('SIGERROR');
    const tooMuch = signTransaction(buildTrxTransfer({ from: ALICE, to: BOB, amountSun: 10n ** 15n, refBlock: good, now: mock.state.now() }), ALICE_KEY);
    expect((await node('broadcasttransaction', tooMuch)).code).toBe('CONTRACT_VALIDATE_ERROR');
  });

  test('TRC-20 transfers execute with energy; balanceOf answers through triggerconstantcontract', async () => {
    await transfer(ALICE, '20');
    const height = mock.paid.chain.height();
    const tx = signTransaction(
      buildTrc20Transfer({
        from: ALICE,
        contract: USDT.address,
        to: BOB,
        amount: 2_500_000n,
        refBlock: { number: height, hash: mock.paid.chain.blockId(height) },
        now: mock.state.now(),
      }),
      ALICE_KEY,
    );
    expect((await node('broadcasttransaction', tx)).result).toBe(true);
    const info = await node('gettransactioninfobyid', { value: tx.txID });
    expect(info.receipt).toMatchObject({ result: 'SUCCESS', energy_usage_total: 130_000 });
    expect(info.log[0].topics[0]).toBe('ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef');
    const balance = await node('triggerconstantcontract', {
      owner_address: ALICE,
      contract_address: USDT.address,
      function_selector: 'balanceOf(address)',
      parameter: `${'0'.repeat(24)}${(await import('../../src/utils/address.js')).tronAddressToEvmHex(BOB).slice(2)}`,
      visible: true,
    });
    expect(BigInt(`0x${balance.constant_result[0]}`)).toBe(2_500_000n);
    const params = await node('getchainparameters');
    expect(params.chainParameter.find((p: { key: string }) => p.key === 'getEnergyFee').value).toBe(100);
  });

  test('blocks advance with the mock clock (3 s each)', async () => {
    const before = (await node('getnowblock')).block_header.raw_data.number;
    await mock.state.advance(9_000);
    const after = await node('getnowblock');
    expect(after.block_header.raw_data.number).toBe(before + 3);
    expect((await node('getblockbynum', { num: before })).blockID).toBe(mock.paid.chain.blockId(before));
  });
});

describe('watch, receive, invoice', () => {
  test('watch: a matching USDT transfer delivers a signed webhook within 3 seconds; others do not', async () => {
    const address = labelAddress('watched');
    const { data } = await client().watch({ address, webhook_url: HOOK_URL, event_types: ['usdt_incoming'], min_amount: '1' });
    expect(Object.keys(data).sort()).toEqual(['expires_at', 'status', 'watch_id']); // the spec's watch result, nothing more
    // How deliveries are signed is the mock's (the spec shows no webhook signing): a control route tells.
    const view = (await (await fetch(`${BASE_URL}/__mock/x402/watches/${data.watch_id}`)).json()) as { webhook_secret: string };
    const secret = view.webhook_secret;
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    mock.hooks.length = 0;
    await transfer(address, '0.5'); // below min_amount
    await transfer(address, '5', 'USDC'); // not USDT
    const landed = await transfer(address, '2.5');
    const { value: hook } = await waitFor(() => mock.hooks[0]);
    expect(await verifyWebhookSignature(hook.body, hook.headers.get('x-service-signature'), secret)).toBe(true);
    const event = JSON.parse(hook.body);
    expect(event).toMatchObject({ event: 'usdt_incoming', data: { watch_id: data.watch_id, txid: landed.txid, amount: '2.5', to: address } });
    await new Promise((r) => setTimeout(r, 50));
    expect(mock.hooks).toHaveLength(1);
  });

  test('receive: fires once for a payment within tolerance', async () => {
    const { data } = await client().receive({ expected_amount: '10', tolerance_pct: 1, webhook_url: HOOK_URL });
    mock.hooks.length = 0;
    await transfer(data.watch_address, '9.8'); // outside 1 %
    await transfer(data.watch_address, '9.95');
    await transfer(data.watch_address, '10'); // one-time: no second webhook
    const { value: hook } = await waitFor(() => mock.hooks[0]);
    expect(JSON.parse(hook.body)).toMatchObject({ event: 'payment.received', data: { payment_id: data.payment_id, amount: '9.95' } });
    await new Promise((r) => setTimeout(r, 50));
    expect(mock.hooks).toHaveLength(1);
    const view = await (await fetch(`${BASE_URL}/__mock/x402/receives/${data.payment_id}`)).json();
    expect(view.status).toBe('received');
  });

  test('invoice: payments to its address are detected until it is paid', async () => {
    const { data } = await client().invoice({ amount_usdt: '5', expires_in_seconds: 600 });
    await transfer(data.pay_to_address, '2');
    let view = await (await fetch(data.payment_url)).json();
    expect(view).toMatchObject({ status: 'pending', paid_total: '2' });
    await transfer(data.pay_to_address, '3');
    view = await (await fetch(data.payment_url)).json();
    expect(view.status).toBe('paid');
    expect(view.payments).toHaveLength(2);
  });

  test('invoice: expires by the mock clock', async () => {
    const { data } = await client().invoice({ amount_usdt: '5', expires_in_seconds: 60 });
    await mock.state.advance(61_000);
    await transfer(data.pay_to_address, '5');
    const view = await (await fetch(data.payment_url)).json();
    expect(view).toMatchObject({ status: 'expired', paid_total: '0' });
  });
});

// Last in the file: it moves the mock clock a day ahead of this process's clock. The mock then
// issues permit windows that open tomorrow, which the client refuses to sign (they cannot be
// shortened to its maxValiditySeconds from now), so no paid call may follow it.
describe('watch expiry', () => {
  test('watch: after 24 hours of mock time it expires and stays silent', async () => {
    const address = labelAddress('watched briefly');
    const { data } = await client().watch({ address, webhook_url: HOOK_URL });
    await mock.state.advance(24 * 3600 * 1000);
    mock.hooks.length = 0;
    await transfer(address, '1');
    await new Promise((r) => setTimeout(r, 100));
    expect(mock.hooks).toHaveLength(0);
    const view = await (await fetch(`${BASE_URL}/__mock/x402/watches/${data.watch_id}`)).json();
    expect(view.status).toBe('expired');
  });

  test('a permit window that opens beyond maxValiditySeconds is refused before signing', async () => {
    await expect(client().network({ format: 'summary' })).rejects.toMatchObject({
      code: 'PAYMENT_REFUSED',
      offers: [expect.objectContaining({ reason: 'validity_too_long' })],
    });
  });
});

describe('the paid rpc proxy', () => {
  test('a method outside the whitelist is refused by the mock too (free 400)', async () => {
    const res = await fetch(`${BASE_URL}/x402/tron/rpc/wallet/broadcasttransaction`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe('VALIDATION_ERROR');
  });

  test('send: a transfer that does not match to/amount is a free 400, before any 402', async () => {
    const height = mock.paid.chain.height();
    const tx = signTransaction(
      buildTrc20Transfer({
        from: ALICE,
        contract: USDT.address,
        to: BOB,
        amount: 1_000_000n,
        refBlock: { number: height, hash: mock.paid.chain.blockId(height) },
        now: mock.state.now(),
      }),
      ALICE_KEY,
    );
    const res = await fetch(`${BASE_URL}/x402/tron/send`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: BOB, amount_usdt: '2', signed_tx: JSON.stringify(tx) }),
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.details.reason).toBe('amount_mismatch');
  });
});
