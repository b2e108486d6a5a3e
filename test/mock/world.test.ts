/**
 * One simulated world: every fill, deposit and withdrawal is a transaction the mock's TRON node
 * knows; delegated energy and bandwidth show on the target's getaccountresource until the rental
 * ends; balances on the node and in the account API agree. Read through the node routes, as
 * TronWeb or any TRON client would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/index.js';
import { TARGET, manualServer, raw } from './helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await manualServer();
});
afterAll(async () => {
  await mock.close();
});

const node = async (method: string, body: Record<string, unknown>) =>
  (await raw(mock.url, 'POST', `/wallet/${method}`, { body: { ...body, visible: true } })).json;

describe('one simulated world', () => {
  it('a filled order is a delegation the node knows; the energy shows on the target until the rental ends', async () => {
    const before = (await node('getaccountresource', { address: TARGET })).EnergyLimit ?? 0;
    const created = await raw(mock.url, 'POST', '/api/v1/orders', {
      key: mock.apiKey,
      body: { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET },
    });
    expect(created.status).toBe(201);
    await mock.state.advance(1_000);
    const order = (await raw(mock.url, 'GET', `/api/v1/orders/${created.json.id}`, { key: mock.apiKey })).json;
    expect(order.status).toBe('FILLED');
    const fill = order.fills[0];
    // production notes: fills carry delegation_tx, orders expires_at (here: when the rental ends)
    expect(fill.delegation_tx).toBe(fill.tx_id);
    expect(Date.parse(order.expires_at) - Date.parse(order.filled_at)).toBe(3600 * 1000);

    const tx = await node('gettransactionbyid', { value: fill.tx_id });
    expect(tx.txID).toBe(fill.tx_id);
    expect(tx.raw_data.contract[0].type).toBe('DelegateResourceContract');
    expect(tx.raw_data.contract[0].parameter.value.resource).toBe('ENERGY');
    const info = await node('gettransactioninfobyid', { value: fill.tx_id });
    expect(info.id).toBe(fill.tx_id);

    expect((await node('getaccountresource', { address: TARGET })).EnergyLimit).toBe(before + 65_000);
    await mock.state.advance(3600 * 1000);
    expect((await node('getaccountresource', { address: TARGET })).EnergyLimit ?? 0).toBe(before);
  });

  it('bandwidth rentals show as NetLimit', async () => {
    const target = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
    mock.state.chain.fundTrx(target, 1_000_000n); // an account on chain: delegating to a never-activated address is refused
    const created = await raw(mock.url, 'POST', '/api/v1/orders', {
      key: mock.apiKey,
      body: { resource_type: 'BANDWIDTH', amount: 5_000, duration_sec: 3600, target_address: target },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    await mock.state.advance(1_000);
    expect((await node('getaccountresource', { address: target })).NetLimit).toBe(5_000);
  });

  it('a completed withdrawal is a transfer the node knows, and the address holds the TRX on the chain', async () => {
    const address = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    const chainBefore = (await node('getaccount', { address })).balance ?? 0;
    const w = await raw(mock.url, 'POST', '/api/v1/withdraw', { key: mock.apiKey, body: { address, amount: 70_000_000, currency: 'TRX' } });
    expect(w.status, JSON.stringify(w.json)).toBe(200);
    await mock.state.advance(mock.state.timings.withdrawalMs);
    const record = mock.state.money.withdrawals.get(w.json.id ?? w.json.withdrawal_id)!;
    expect(record.status).toBe('COMPLETED');
    const tx = await node('gettransactionbyid', { value: record.tx_id });
    expect(tx.raw_data.contract[0].type).toBe('TransferContract');
    expect(tx.raw_data.contract[0].parameter.value.amount).toBe(70_000_000);
    expect((await node('getaccount', { address })).balance).toBe(chainBefore + 70_000_000);
  });

  it('a deposit simulated by memo is a TRX transfer to the platform address carrying the memo', async () => {
    const platformBefore = (await node('getaccount', { address: mock.state.platformAddress })).balance ?? 0;
    const d = await raw(mock.url, 'POST', '/__mock/deposits', { body: { memo: mock.memo, amount_sun: 3_000_000 } });
    expect(d.status).toBe(200);
    const tx = await node('gettransactionbyid', { value: d.json.tx_id });
    expect(tx.raw_data.contract[0].type).toBe('TransferContract');
    expect(Buffer.from(tx.raw_data.data, 'hex').toString()).toBe(mock.memo);
    expect((await node('getaccount', { address: mock.state.platformAddress })).balance).toBe(platformBefore + 3_000_000);
  });
});
