/**
 * Renting exactly what a transfer needs, end to end against the mock over real HTTP: the
 * account API and the mock's simulated TRON node (`/wallet/*` at the same origin). Every figure
 * checked here is read back independently, from the node's own answers (getchainparameters,
 * getaccountresource, gettransactioninfobyid) or the chain the node serves, not from the SDK.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent, trxToSun } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';

let mock: MockServer;
beforeAll(async () => {
  // A real clock with short steps: orders fill on their own while the SDK waits.
  mock = await startMockServer({ seed: 25, rateLimits: false, timings: { selectMs: 20, fillMs: 40, verifyMs: 100 } });
});
afterEach(() => {
  for (const p of mock.state.market.snapshot().providers) mock.state.setProviderOverride(p.def.id, null);
});
afterAll(async () => {
  await mock.close();
});

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
let keyByte = 0x20;

/** A fresh wallet (key, address) holding `usdt` USDT and `trx` TRX on the simulated chain, no energy. */
function wallet(usdt = 0n, trx = 0n) {
  const privateKey = (++keyByte).toString(16).padStart(2, '0').repeat(32);
  const address = privateKeyToTronAddress(privateKey);
  const chain = mock.state.chain;
  if (usdt > 0n) chain.syntheticTransfer({ token: chain.token('USDT')!, to: address, amount: usdt * 1_000_000n, label: `fund ${address}` });
  if (trx > 0n) chain.fundTrx(address, trx * 1_000_000n);
  chain.activate(address); // an account on chain (AccountCreate): java-tron refuses a sender, or a delegation to a target, that is none
  return { privateKey, address };
}

interface Logged {
  method: string;
  path: string;
  headers: Headers;
  body: unknown;
  answer: unknown;
}

/** A client on a fresh account; every request and answer is logged in order. */
function account(trx = '1000') {
  const created = mock.state.createAccount({ trx_sun: trxToSun(trx) });
  const log: Logged[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    const response = await fetch(request.url, init);
    const text = await response.clone().text();
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      answer = text;
    }
    log.push({ method: request.method, path: new URL(request.url).pathname, headers: request.headers, body, answer });
    return response;
  };
  const client = new TrxRent({ baseUrl: mock.url, apiKey: created.api_key, tronNode: mock.url, fetch: recording, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
  return { ...created, client, log };
}

const node = async (method: string, body: Record<string, unknown>): Promise<any> => {
  const r = await fetch(`${mock.url}/wallet/${method}`, { method: 'POST', body: JSON.stringify({ ...body, visible: true }) });
  return r.json();
};

async function feeParameters() {
  const { chainParameter } = await node('getchainparameters', {});
  const get = (key: string) => Number(chainParameter.find((p: { key: string }) => p.key === key).value);
  return { energy: get('getEnergyFee'), bandwidth: get('getTransactionFee') };
}

describe('transfers.send', () => {
  it('an address with no energy sends USDT: the delegation shows on the node before the broadcast, no TRX burns for energy, the saving follows the node fees', async () => {
    const { client, log } = account();
    const sender = wallet(100n, 5n);
    const recipient = wallet(1n); // holds USDT: the cheaper transfer
    const chain = mock.state.chain;
    expect(chain.availableEnergy(sender.address)).toBe(0);
    const trxBefore = chain.trxBalance(sender.address);
    const steps: string[] = [];

    const sent = await client.transfers.send({
      token: 'USDT',
      to: recipient.address,
      amount: '12.5',
      signer: { privateKey: sender.privateKey },
      onProgress: (e) => steps.push(e.step),
    });
    expect(steps).toEqual(['estimated', 'ordered', 'filled', 'delegated', 'signed', 'broadcasting', 'broadcast', 'confirmed']);

    // The tokens moved on the chain.
    expect(chain.tokenBalance(recipient.address, USDT)).toBe(13_500_000n);
    expect(chain.tokenBalance(sender.address, USDT)).toBe(87_500_000n);

    // Order of events on the wire: the last getaccountresource before POST /api/v1/broadcast
    // (answered by the node) already shows the rented energy.
    const broadcastAt = log.findIndex((l) => l.path === '/api/v1/broadcast');
    expect(broadcastAt).toBeGreaterThan(0);
    const lastRead = log
      .slice(0, broadcastAt)
      .filter((l) => l.path === '/wallet/getaccountresource')
      .pop();
    const shown = lastRead!.answer as { EnergyLimit?: number; EnergyUsed?: number };
    expect((shown.EnergyLimit ?? 0) - (shown.EnergyUsed ?? 0)).toBeGreaterThanOrEqual(65_000);
    const orderAt = log.findIndex((l) => l.method === 'POST' && l.path === '/api/v1/orders');
    expect(orderAt).toBeGreaterThan(0);
    expect(orderAt).toBeLessThan(broadcastAt);
    // Nothing secret went to the node.
    for (const l of log.filter((x) => x.path.startsWith('/wallet/'))) {
      expect(l.headers.get('x-api-key')).toBeNull();
      expect(l.headers.get('authorization')).toBeNull();
    }

    // The node's receipt: all 65,000 energy came from the delegation, nothing burnt for it.
    const info = await node('gettransactioninfobyid', { value: sent.tx_id });
    expect(info.receipt.result).toBe('SUCCESS');
    expect(info.receipt.energy_usage_total).toBe(65_000);
    expect(info.receipt.energy_fee ?? 0).toBe(0);
    expect(info.fee ?? 0).toBe(0);
    expect(sent.receipt.energy_burned_sun).toBe(0);
    expect(chain.trxBalance(sender.address)).toBe(trxBefore);

    // The saving, from the node's own fee parameters and the order's own cost.
    const fee = await feeParameters();
    const order = await client.orders.get(sent.ensure!.order!.id);
    expect(order.status).toBe('FILLED');
    expect(order.target_address).toBe(sender.address);
    expect(Number(order.amount)).toBe(65_000);
    const burnWouldCost = info.receipt.energy_usage_total * fee.energy + (info.receipt.net_fee ?? 0);
    expect(sent.burn_cost_sun).toBe(burnWouldCost);
    expect(sent.burn_cost_sun).toBe(65_000 * 100);
    expect(sent.rent_cost_sun).toBe(Number(order.total_cost_sun));
    expect(sent.total_cost_sun).toBe(Number(order.total_cost_sun) + (info.fee ?? 0));
    expect(sent.saving_sun).toBe(burnWouldCost - Number(order.total_cost_sun) - (info.fee ?? 0));
    expect(sent.saving_sun).toBeGreaterThan(0);
    expect(sent.estimate!.burn.energy_sun).toBe(sent.estimate!.energy.needed * fee.energy);
    expect(sent.estimate!.fees).toEqual({ energy_sun: fee.energy, bandwidth_sun: fee.bandwidth });
    // The bandwidth estimate is what the node charged.
    expect(sent.estimate!.bandwidth.needed).toBe(info.receipt.net_usage);
  });

  it('a failed order leaves the transfer unsent and the error says why', async () => {
    const { client, log } = account();
    const sender = wallet(10n, 1n);
    const recipient = wallet(1n);
    for (const p of mock.state.market.snapshot().providers) mock.state.setProviderOverride(p.def.id, { fail_delegations: true });
    const error = await client.transfers
      .send({ token: 'USDT', to: recipient.address, amount: '1', signer: { privateKey: sender.privateKey } })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ORDER_FAILED', details: { transfer_sent: false } });
    expect(String((error as Error).message)).toMatch(/The transfer was not sent: renting energy failed \(order \S+ ended FAILED/);
    expect(log.some((l) => l.path === '/api/v1/broadcast')).toBe(false);
    expect(mock.state.chain.tokenBalance(recipient.address, USDT)).toBe(1_000_000n);
    expect(mock.state.chain.tokenBalance(sender.address, USDT)).toBe(10_000_000n);
  });

  it('refuses before ordering: a cap below the rental, a token balance below the amount, a declined confirmation', async () => {
    const { client, log } = account();
    const sender = wallet(5n, 1n);
    const recipient = wallet(1n);
    const send = (extra: object) =>
      client.transfers
        .send({ token: 'USDT', to: recipient.address, amount: '1', signer: { privateKey: sender.privateKey }, ...extra })
        .catch((e: unknown) => e);
    expect(await send({ maxCostSun: 1_000 })).toMatchObject({ code: 'SPENDING_CAP_EXCEEDED', details: { max_cost_sun: 1_000 } });
    expect(await send({ amount: '5.000001' })).toMatchObject({ code: 'INSUFFICIENT_TOKEN_BALANCE', details: { field: 'amount', balance: '5' } });
    let seen: unknown;
    expect(await send({ confirm: (e: unknown) => ((seen = e), false) })).toMatchObject({ code: 'CANCELLED' });
    expect(seen).toMatchObject({ energy: { needed: 65_000, deficit: 65_000 }, rent: { amount: 65_000 } });
    expect(await send({ to: 'T123' })).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'to' } });
    expect(await send({ amount: '1.0000001' })).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'amount' } });
    expect(await send({ signer: { privateKey: 'nope' } })).toMatchObject({ code: 'VALIDATION_ERROR', details: { field: 'signer.privateKey' } });
    expect(log.filter((l) => l.method === 'POST' && l.path.startsWith('/api/')).map((l) => l.path)).toEqual([]);
  });

  it('burn: true rents nothing; the network burns at the node fee and the report shows no saving', async () => {
    const { client, log } = account();
    const sender = wallet(3n, 10n);
    const recipient = wallet(1n);
    const sent = await client.transfers.send({ token: 'USDT', to: recipient.address, amount: '1', signer: { privateKey: sender.privateKey }, burn: true });
    expect(log.some((l) => l.method === 'POST' && l.path === '/api/v1/orders')).toBe(false);
    expect(sent.ensure).toBeNull();
    const fee = await feeParameters();
    expect(sent.receipt.energy_burned_sun).toBe(65_000 * fee.energy);
    expect(mock.state.chain.trxBalance(sender.address)).toBe(10_000_000n - BigInt(65_000 * fee.energy));
    expect(sent).toMatchObject({ rent_cost_sun: 0, burned_sun: 65_000 * fee.energy, burn_cost_sun: 65_000 * fee.energy, saving_sun: 0 });
  });

  it('signs with a TronWeb instance when one is given', async () => {
    const { TronWeb } = await import('tronweb');
    const { client } = account();
    const sender = wallet(3n, 1n);
    const recipient = wallet(1n);
    const tronWeb = new TronWeb({ fullHost: mock.url, privateKey: sender.privateKey });
    const sent = await client.transfers.send({ token: 'USDT', to: recipient.address, amount: '2', signer: tronWeb as never });
    expect(sent.from).toBe(sender.address);
    expect(mock.state.chain.tokenBalance(recipient.address, USDT)).toBe(3_000_000n);
    expect(sent.receipt.energy_burned_sun).toBe(0);
  });
});

describe('transfers.estimate', () => {
  it('an empty recipient costs more energy; burn and rental at the node fees and the best price now', async () => {
    const { client } = account();
    const sender = wallet(10n);
    const holder = wallet(1n);
    const empty = wallet();
    const fee = await feeParameters();
    const toHolder = await client.transfers.estimate({ from: sender.address, to: holder.address, token: 'USDT', amount: 1 });
    const toEmpty = await client.transfers.estimate({ from: sender.address, to: empty.address, token: USDT, amount: '1' });
    expect(toHolder.recipient_holds_token).toBe(true);
    expect(toEmpty.recipient_holds_token).toBe(false);
    expect(toHolder.energy).toEqual({ needed: 65_000, available: 0, deficit: 65_000 });
    expect(toEmpty.energy).toEqual({ needed: 130_000, available: 0, deficit: 130_000 });
    expect(toEmpty.burn.energy_sun).toBe(130_000 * fee.energy);
    expect(toEmpty.amount_atomic).toBe('1000000');
    const preview = await client.orders.preview({ resource: 'ENERGY', amount: 130_000, duration: 3600 });
    expect(toEmpty.rent).toMatchObject({ amount: 130_000, provider: preview.best!.provider, price_sun: Number(preview.best!.price_sun) });
    expect(toEmpty.saving_sun).toBe(toEmpty.burn.total_sun - toEmpty.rent!.cost_sun - toEmpty.burn.bandwidth_sun);
    // Bandwidth: the free daily allowance covers one transfer.
    expect(toHolder.bandwidth.deficit).toBe(0);
    expect(toHolder.bandwidth.available).toBe(600);
  });
});

describe('resources.ensure', () => {
  it('buys the deficit, and a second call that finds enough buys nothing', async () => {
    const { client, log } = account();
    const target = wallet();
    const first = await client.resources.ensure({ address: target.address, energy: 100_000, idempotencyKey: 'ensure-1' });
    expect(first.bought).toEqual({ energy: 100_000, bandwidth: 0 });
    expect(first.before.energy).toBe(0);
    expect(first.after.energy).toBe(100_000);
    expect(first.order).toMatchObject({ status: 'FILLED', target_address: target.address });
    expect(first.cost_sun).toBe(Number(first.order!.total_cost_sun));
    const posted = log.filter((l) => l.method === 'POST' && l.path === '/api/v1/orders');
    expect(posted.map((l) => l.headers.get('idempotency-key'))).toEqual(['ensure-1']);

    const again = await client.resources.ensure({ address: target.address, energy: 100_000, idempotencyKey: 'ensure-2' });
    expect(again).toMatchObject({ order: null, bought: { energy: 0, bandwidth: 0 }, cost_sun: 0 });
    expect(again.before.energy).toBe(100_000);
    expect(log.filter((l) => l.method === 'POST' && l.path === '/api/v1/orders')).toHaveLength(1);
    expect((await client.orders.list()).total).toBe(1);
  });

  it('below the provider minimum buys the minimum; only the deficit is counted', async () => {
    const { client } = account();
    const target = wallet();
    const small = await client.resources.ensure({ address: target.address, energy: 10_000 });
    expect(small.bought.energy).toBe(65_000);
    expect(Number(small.order!.amount)).toBe(65_000);
    expect(small.after.energy).toBe(65_000);
    // 65,000 there, 100,000 wanted: the 35,000 deficit rounds up to the minimum again.
    const more = await client.resources.ensure({ address: target.address, energy: 100_000 });
    expect(more.before.energy).toBe(65_000);
    expect(more.bought.energy).toBe(65_000);
    expect(more.after.energy).toBe(130_000);
  });

  it('refuses above the cap before ordering, and rejects bad input naming the field', async () => {
    const { client, log } = account();
    const target = wallet();
    expect(await client.resources.ensure({ address: target.address, energy: 65_000, maxCostSun: 10 }).catch((e: unknown) => e)).toMatchObject({
      code: 'SPENDING_CAP_EXCEEDED',
    });
    expect(await client.resources.ensure({ address: 'nope', energy: 65_000 }).catch((e: unknown) => e)).toMatchObject({ details: { field: 'address' } });
    expect(await client.resources.ensure({ address: target.address, energy: -1 }).catch((e: unknown) => e)).toMatchObject({ details: { field: 'energy' } });
    expect(log.filter((l) => l.method === 'POST' && l.path.startsWith('/api/'))).toEqual([]);
  });
});

describe('transactions.broadcast', () => {
  it('answers { tx_id, status }; the same transaction again answers the same tx_id and moves nothing twice', async () => {
    const { buildTrc20Transfer, signTransaction } = await import('../../src/protocol/tron-transaction.js');
    const { client } = account();
    const sender = wallet(2n);
    const recipient = wallet();
    const head = mock.state.chain.height();
    const tx = signTransaction(
      buildTrc20Transfer({
        from: sender.address,
        contract: USDT,
        to: recipient.address,
        amount: 1_000_000n,
        refBlock: { number: head, hash: mock.state.chain.blockId(head) },
        now: mock.state.now(),
      }),
      sender.privateKey,
    );
    const result = await client.transactions.broadcast({ signed_tx: tx });
    expect(result).toMatchObject({ tx_id: tx.txID, status: expect.any(String) });
    expect(mock.state.chain.tokenBalance(recipient.address, USDT)).toBe(1_000_000n);
    expect(await client.transactions.broadcast({ signed_tx: tx })).toMatchObject({ tx_id: result.tx_id });
    expect(mock.state.chain.tokenBalance(recipient.address, USDT)).toBe(1_000_000n);
  });
});
