/**
 * A transfer is sent once (SDK): the fault matrix. For each stage of `transfers.send` (order
 * request, delegation wait, broadcast request, receipt poll) and each fault a hostile proxy in
 * front of the mock can make (the answer lost after the effect, 5xx after the effect, a 429
 * storm, an answer that never comes), one send runs into the fault, then the natural retry
 * (the same idempotency key, the fault gone) runs. The mock's chain and order list judge: the
 * recipient is paid exactly once, one order is placed at most, and the error at the fault
 * (when the SDK could not ride it out) names the stage and the ids a caller needs.
 * The four faults of a stage run side by side (each its own account, wallets, store and proxy).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TrxRent, type TrxRentError, fileTransferStore, memoryTransferStore, trxToSun } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { type Fault, SEND_STAGES, hostileProxy } from '../helpers/hostile-proxy.js';
import { orderCount, walletMaker } from '../helpers/wallets.js';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 291, rateLimits: false, timings: { selectMs: 20, fillMs: 40, verifyMs: 60 } });
});
afterAll(async () => {
  await mock?.close();
});

const wallet = walletMaker(() => mock, 0x10);

const orders = (apiKey: string) => orderCount(mock, apiKey);

/** Transfers from `sender` the chain executed (each a signed transaction that landed). */
function landed(sender: string): number {
  return [...mock.state.chain.transactions.values()].filter((t) => t.owner === sender && t.contractType === 'TriggerSmartContract').length;
}

const STAGES = Object.keys(SEND_STAGES) as Array<keyof typeof SEND_STAGES>;
const FAULTS: Fault[] = ['lost', '5xx', '429', 'timeout'];

interface Outcome {
  stage: string;
  fault: Fault;
  first: 'sent' | TrxRentError;
  hits: number;
  paid: bigint;
  orders: number;
  landed: number;
  resumed: boolean;
}

async function runCase(stage: keyof typeof SEND_STAGES, fault: Fault): Promise<Outcome> {
  const account = mock.state.createAccount({ trx_sun: trxToSun('1000') });
  const sender = wallet(50n);
  const recipient = wallet(1n);
  const proxy = await hostileProxy(mock.url, { rules: [{ match: SEND_STAGES[stage], fault }] });
  const store = memoryTransferStore();
  // Short per-request timeouts and few retries, so each fault ends the first call within its deadline.
  const client = new TrxRent({
    baseUrl: proxy.url,
    tronNode: proxy.url,
    apiKey: account.api_key,
    transferStore: store,
    timeoutMs: 1_500,
    maxRetries: 1,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  });
  const params = { token: 'USDT', to: recipient.address, amount: '2', signer: { privateKey: sender.privateKey }, idempotencyKey: `pay-${stage}-${fault}` };
  let first: Outcome['first'];
  try {
    await client.transfers.send({ ...params, timeoutMs: 5_000 });
    first = 'sent';
  } catch (error) {
    first = error as TrxRentError;
  }
  const hits = proxy.log.filter((l) => l.fault).length;
  proxy.setRules([]);
  // The natural retry: the same call, the same key.
  const again = await client.transfers.send({ ...params, timeoutMs: 20_000 });
  await proxy.close();
  return {
    stage,
    fault,
    first,
    hits,
    paid: mock.state.chain.tokenBalance(recipient.address, USDT) - 1_000_000n,
    orders: await orders(account.api_key),
    landed: landed(sender.address),
    resumed: again.resumed,
  };
}

describe('transfers.send under faults, then the same call again', () => {
  it('every stage x every fault: the recipient is paid exactly once, at most one order, the error names the stage and ids', { timeout: 60_000 }, async () => {
    // One stage at a time, its four faults side by side (two cores are shared: keep the load modest).
    const outcomes: Outcome[] = [];
    for (const stage of STAGES) outcomes.push(...(await Promise.all(FAULTS.map((fault) => runCase(stage, fault)))));
    const failures: string[] = [];
    for (const o of outcomes) {
      const name = `${o.stage} x ${o.fault}`;
      if (o.hits === 0) failures.push(`${name}: the fault was never met`);
      if (o.paid !== 2_000_000n) failures.push(`${name}: recipient got ${o.paid} atomic units, not exactly 2000000`);
      if (o.landed !== 1) failures.push(`${name}: ${o.landed} transfers landed`);
      if (o.orders !== 1) failures.push(`${name}: ${o.orders} orders`);
      if (o.first === 'sent') continue;
      const d = (o.first.details ?? {}) as Record<string, unknown>;
      if (d.idempotency_key !== `pay-${o.stage}-${o.fault}`) failures.push(`${name}: no idempotency_key in ${JSON.stringify(d)}`);
      if (!['order', 'delegation', 'sign', 'broadcast', 'receipt'].includes(String(d.stage))) failures.push(`${name}: no stage in ${JSON.stringify(d)}`);
      if (d.stage === 'broadcast' || d.stage === 'receipt') {
        if (d.transfer_sent !== 'unknown') failures.push(`${name}: transfer_sent ${String(d.transfer_sent)} after the broadcast left`);
        if (!/^[0-9a-f]{64}$/.test(String(d.tx_id)) || typeof d.expiration !== 'number') failures.push(`${name}: no tx_id/expiration in ${JSON.stringify(d)}`);
        if (!o.first.message.includes(String(d.tx_id))) failures.push(`${name}: the message does not name ${String(d.tx_id)}: ${o.first.message}`);
        if (!o.resumed) failures.push(`${name}: the retry signed anew instead of landing ${String(d.tx_id)}`);
      } else {
        if (d.transfer_sent !== false) failures.push(`${name}: transfer_sent ${String(d.transfer_sent)} before the broadcast`);
        if (o.stage === 'delegation' && typeof d.order_id !== 'string') failures.push(`${name}: no order_id in ${JSON.stringify(d)}`);
      }
      // The stage named is where it stopped: never before the request that met the fault.
      if (
        STAGES.indexOf(o.stage as (typeof STAGES)[number]) > ['order', 'delegation', 'sign', 'broadcast', 'receipt'].indexOf(String(d.stage)) &&
        d.stage !== 'sign'
      ) {
        failures.push(`${name}: stopped at ${String(d.stage)}, before the faulty ${o.stage} request`);
      }
    }
    if (process.env.SEND_ONCE_REPORT)
      console.log(
        outcomes
          .map((o) => `${o.stage} x ${o.fault}: ${o.first === 'sent' ? 'sent' : `${o.first.code} ${JSON.stringify(o.first.details)}`} resumed=${o.resumed}`)
          .join('\n'),
      );
    expect(failures).toEqual([]);
    // Some faults must have ended the first call, at every stage (else the matrix tests nothing).
    for (const stage of STAGES) expect(outcomes.filter((o) => o.stage === stage && o.first !== 'sent').length, stage).toBeGreaterThan(0);
  });

  it('a new process on the same file store lands the transfer the first one signed, never a second one', { timeout: 30_000 }, async () => {
    const account = mock.state.createAccount({ trx_sun: trxToSun('1000') });
    const sender = wallet(10n);
    const recipient = wallet(1n);
    const dir = mkdtempSync(join(tmpdir(), 'trx-rent-send-once-'));
    const proxy = await hostileProxy(mock.url, { rules: [{ match: SEND_STAGES.receipt, fault: '5xx' }] });
    const clientOf = () =>
      new TrxRent({
        baseUrl: proxy.url,
        tronNode: proxy.url,
        apiKey: account.api_key,
        transferStore: fileTransferStore(dir),
        timeoutMs: 1_500,
        maxRetries: 1,
        retry: { baseDelayMs: 5, maxDelayMs: 20 },
      });
    const params = { token: 'USDT', to: recipient.address, amount: '3', signer: { privateKey: sender.privateKey }, idempotencyKey: 'restart-1' };
    const error = (await clientOf()
      .transfers.send({ ...params, timeoutMs: 3_000 })
      .catch((e: unknown) => e)) as TrxRentError;
    expect(error.details).toMatchObject({ stage: 'receipt', transfer_sent: 'unknown', idempotency_key: 'restart-1' });
    proxy.setRules([]);
    const again = await clientOf().transfers.send({ ...params, timeoutMs: 20_000 });
    const status = await clientOf().transfers.status(String(error.details!.tx_id));
    await proxy.close();
    expect(again).toMatchObject({ resumed: true, tx_id: error.details!.tx_id, estimate: null });
    expect(mock.state.chain.tokenBalance(recipient.address, USDT)).toBe(4_000_000n);
    expect(landed(sender.address)).toBe(1);
    expect(await orders(account.api_key)).toBe(1);
    // What the new process learns about it, read only.
    expect(status).toMatchObject({ state: 'confirmed' });
  });
});
