/**
 * What a TRC-20 transfer costs on the simulated chain, read through the node routes as any TRON
 * client would: energy from what is delegated first and TRX burnt only for the rest, bandwidth
 * from delegated bandwidth or the free allowance else burnt, fee_limit (OUT_OF_ENERGY), a
 * receipt split as java-tron's, and delegated energy gone when the rental ends (with what was
 * used of it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/index.js';
import { buildTrc20Transfer, signTransaction } from '../../src/protocol/tron-transaction.js';
import { tronAddressToHex } from '../../src/utils/address.js';
import { manualServer, raw } from './helpers.js';
import { fundedWalletMaker } from '../helpers/wallets.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await manualServer();
});
afterAll(async () => {
  await mock.close();
});

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const node = async (method: string, body: Record<string, unknown>) =>
  (await raw(mock.url, 'POST', `/wallet/${method}`, { body: { ...body, visible: true } })).json;
/** A fresh key and address holding `usdt` (atomic) and `trxSun` (an account on chain when given TRX). */
const wallet = fundedWalletMaker(() => mock, 0x90);

/** Sign and broadcast a USDT transfer through the node; returns its receipt. */
async function transfer(from: { privateKey: string; address: string }, to: string, amount: bigint, feeLimitSun?: number) {
  const head = mock.state.chain.height();
  const tx = signTransaction(
    buildTrc20Transfer({
      from: from.address,
      contract: USDT,
      to,
      amount,
      refBlock: { number: head, hash: mock.state.chain.blockId(head) },
      now: mock.state.now(),
      ...(feeLimitSun ? { feeLimitSun } : {}),
    }),
    from.privateKey,
  );
  const sent = await node('broadcasttransaction', tx);
  expect(sent.result, JSON.stringify(sent)).toBe(true);
  // java-tron's bandwidth: the serialized Transaction (tag, varint length, raw_data; tag, length, a
  // 65-byte signature) plus 64 bytes for the result.
  const raw = tx.raw_data_hex.length / 2;
  const size = 1 + (raw < 128 ? 1 : 2) + raw + (1 + 1 + 65) + 64;
  return { info: await node('gettransactioninfobyid', { value: tx.txID }), size };
}

async function rent(target: string, resource: 'ENERGY' | 'BANDWIDTH', amount: number, duration = 3600) {
  const r = await raw(mock.url, 'POST', '/api/v1/orders', {
    key: mock.apiKey,
    body: { resource_type: resource, amount, duration_sec: duration, target_address: target },
  });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  await mock.state.advance(1_000);
}

describe('a TRC-20 transfer on the simulated chain', () => {
  it('simulates 65,000 energy to a holder and 130,000 to an empty address', async () => {
    const from = wallet(5_000_000n);
    const call = (to: string) =>
      node('triggerconstantcontract', {
        owner_address: from.address,
        contract_address: USDT,
        function_selector: 'transfer(address,uint256)',
        parameter: `${tronAddressToHex(to).slice(2).padStart(64, '0')}${'1'.padStart(64, '0')}`,
      });
    expect((await call(wallet(1n).address)).energy_used).toBe(65_000);
    expect((await call(wallet().address)).energy_used).toBe(130_000);
    // As java-tron runs it: a transfer beyond the owner's balance reverts, answered in java-tron's
    // shape (Wallet.callConstantContract): result.result stays true, message "REVERT opcode
    // executed", the transaction's ret FAILED.
    const poor = await node('triggerconstantcontract', {
      owner_address: wallet(1n).address,
      contract_address: USDT,
      function_selector: 'transfer(address,uint256)',
      parameter: `${tronAddressToHex(from.address).slice(2).padStart(64, '0')}${'2'.padStart(64, '0')}`,
    });
    expect(poor.result.result).toBe(true);
    expect(Buffer.from(poor.result.message, 'hex').toString()).toBe('REVERT opcode executed');
    expect(poor.transaction.ret[0].ret).toBe('FAILED');
  });

  it('burns TRX for all of it without energy; with 65,000 delegated it burns nothing, and the receipt says where each part came from', async () => {
    const chain = mock.state.chain;
    const burner = wallet(10_000_000n, 20_000_000n);
    const renter = wallet(10_000_000n, 20_000_000n);
    const to = wallet(1n).address;

    const burnt = (await transfer(burner, to, 1_000_000n)).info;
    expect(burnt.receipt).toMatchObject({ energy_usage_total: 65_000, energy_fee: 6_500_000, result: 'SUCCESS' });
    expect(burnt.receipt.energy_usage).toBeUndefined();
    expect(burnt.fee).toBe(6_500_000);
    expect(chain.trxBalance(burner.address)).toBe(13_500_000n);

    await rent(renter.address, 'ENERGY', 65_000);
    expect((await node('getaccountresource', { address: renter.address })).EnergyLimit).toBe(65_000);
    const { info: rented, size } = await transfer(renter, to, 1_000_000n);
    expect(rented.receipt).toMatchObject({ energy_usage: 65_000, energy_usage_total: 65_000, net_usage: size, result: 'SUCCESS' });
    expect(rented.receipt.energy_fee).toBeUndefined();
    expect(rented.fee).toBeUndefined();
    expect(chain.trxBalance(renter.address)).toBe(20_000_000n);
    expect(chain.tokenBalance(to, USDT)).toBe(2_000_001n);
    const after = await node('getaccountresource', { address: renter.address });
    expect(after).toMatchObject({ EnergyLimit: 65_000, EnergyUsed: 65_000, freeNetUsed: size });
  });

  it('part delegated, part burnt; bandwidth from delegated bandwidth, else free, else burnt per byte', async () => {
    const sender = wallet(10_000_000n, 50_000_000n);
    const empty = wallet().address; // 130,000 energy
    await rent(sender.address, 'ENERGY', 100_000);
    await rent(sender.address, 'BANDWIDTH', 1_000);
    const { info, size } = await transfer(sender, empty, 1n);
    expect(info.receipt).toMatchObject({ energy_usage: 100_000, energy_fee: 3_000_000, energy_usage_total: 130_000, net_usage: size });
    expect(await node('getaccountresource', { address: sender.address })).toMatchObject({ NetLimit: 1_000, NetUsed: size });
    expect((await node('getaccountresource', { address: sender.address })).freeNetUsed).toBeUndefined();

    // 1,000 delegated bytes take two transfers; the third comes from the free 600 bytes; the fourth
    // fits in neither and burns 1,000 SUN per byte. (Other amounts: on the manual clock the same
    // transfer would be the same transaction.)
    const second = await transfer(sender, empty, 2n);
    expect(second.info.receipt.net_usage).toBe(second.size);
    expect((await node('getaccountresource', { address: sender.address })).NetUsed).toBe(size + second.size);
    const third = await transfer(sender, empty, 3n);
    expect(third.info.receipt.net_usage).toBe(third.size);
    expect((await node('getaccountresource', { address: sender.address })).freeNetUsed).toBe(third.size);
    const fourth = await transfer(sender, empty, 4n);
    expect(fourth.info.receipt.net_fee).toBe(fourth.size * 1_000);
    expect(fourth.info.receipt.net_usage).toBeUndefined();
    expect(fourth.info.fee).toBe(fourth.info.receipt.energy_fee + fourth.size * 1_000);
  });

  it('a burn past fee_limit is OUT_OF_ENERGY: the call fails, fee_limit is burnt, no tokens move', async () => {
    const sender = wallet(5_000_000n, 20_000_000n);
    const to = wallet(1n).address;
    const { info } = await transfer(sender, to, 1_000_000n, 1_000_000);
    expect(info.receipt).toMatchObject({ result: 'OUT_OF_ENERGY', energy_fee: 1_000_000 });
    expect(info.result).toBe('FAILED');
    expect(mock.state.chain.tokenBalance(to, USDT)).toBe(1n);
    expect(mock.state.chain.tokenBalance(sender.address, USDT)).toBe(5_000_000n);
  });

  it('POST /api/v1/broadcast moves tokens the sender holds, and mints none: beyond the balance the transfer reverts', async () => {
    const sender = wallet(2_000_000n, 20_000_000n);
    const to = wallet().address;
    const head = mock.state.chain.height();
    const build = (amount: bigint, offset: number) =>
      signTransaction(
        buildTrc20Transfer({
          from: sender.address,
          contract: USDT,
          to,
          amount,
          refBlock: { number: head, hash: mock.state.chain.blockId(head) },
          now: mock.state.now() + offset,
        }),
        sender.privateKey,
      );
    const ok = build(1_500_000n, 0);
    const r = await raw(mock.url, 'POST', '/api/v1/broadcast', { key: mock.apiKey, body: { signed_tx: ok } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ tx_id: ok.txID, status: 'pending' });
    expect(mock.state.chain.tokenBalance(to, USDT)).toBe(1_500_000n);
    const tooMuch = build(1_000_000n, 1);
    expect((await raw(mock.url, 'POST', '/api/v1/broadcast', { key: mock.apiKey, body: { signed_tx: tooMuch } })).status).toBe(200);
    const info = await node('gettransactioninfobyid', { value: tooMuch.txID });
    expect(info.receipt.result).toBe('REVERT');
    expect(info.result).toBe('FAILED');
    expect(mock.state.chain.tokenBalance(to, USDT)).toBe(1_500_000n);
    expect(mock.state.chain.tokenBalance(sender.address, USDT)).toBe(500_000n);
  });

  it('delegated energy leaves when the rental ends, and what was used of it with it', async () => {
    const sender = wallet(5_000_000n, 20_000_000n);
    await rent(sender.address, 'ENERGY', 65_000, 600);
    await transfer(sender, wallet(1n).address, 1n);
    expect(await node('getaccountresource', { address: sender.address })).toMatchObject({ EnergyLimit: 65_000, EnergyUsed: 65_000 });
    await mock.state.advance(600 * 1000);
    const after = await node('getaccountresource', { address: sender.address });
    expect(after.EnergyLimit ?? 0).toBe(0);
    expect(after.EnergyUsed ?? 0).toBe(0);
    // A new rental is all there to spend.
    await rent(sender.address, 'ENERGY', 65_000);
    const again = await node('getaccountresource', { address: sender.address });
    expect((again.EnergyLimit ?? 0) - (again.EnergyUsed ?? 0)).toBe(65_000);
  });
});
