/**
 * The simulated chain holds java-tron's rules, not kinder ones: each test names the java-tron
 * class (tronprotocol/java-tron) whose rule it checks, and reads the outcome back from the node
 * routes and the chain itself.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MockServer } from '../../src/mock/index.js';
import { TAPOS_WINDOW_BLOCKS } from '../../src/mock/chain/blocks.js';
import { buildTrc20Transfer, buildTrxTransfer, encodeRawDataJson, signTransaction } from '../../src/protocol/tron-transaction.js';
import { tronAddressToHex } from '../../src/utils/address.js';
import { manualServer, raw } from './helpers.js';
import { fundedWalletMaker } from '../helpers/wallets.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await manualServer({ seed: 77 });
});
afterAll(async () => {
  await mock.close();
});

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const node = async (method: string, body: Record<string, unknown>) =>
  (await raw(mock.url, 'POST', `/wallet/${method}`, { body: { ...body, visible: true } })).json;
const text = (hex: string) => Buffer.from(hex, 'hex').toString();
/** A fresh key and address holding `usdt` (atomic) and `trxSun` (an account on chain when given TRX). */
const wallet = fundedWalletMaker(() => mock, 0x30);
const ref = () => {
  const head = mock.state.chain.height();
  return { number: head, hash: mock.state.chain.blockId(head) };
};
let nonce = 0;
/** A signed USDT transfer (distinct each call: the timestamp moves by a millisecond). */
const usdtTx = (from: { privateKey: string; address: string }, to: string, amount: bigint, feeLimitSun = 100_000_000, refBlock = ref()) =>
  signTransaction(
    buildTrc20Transfer({ from: from.address, contract: USDT, to, amount, refBlock, now: mock.state.now() + ++nonce, feeLimitSun }),
    from.privateKey,
  );
const trxTx = (
  from: { privateKey: string; address: string },
  to: string,
  amountSun: number,
  extra: { refBlock?: { number: number; hash: string }; now?: number; expirationMs?: number } = {},
) =>
  signTransaction(
    buildTrxTransfer({
      from: from.address,
      to,
      amountSun,
      refBlock: extra.refBlock ?? ref(),
      now: extra.now ?? mock.state.now() + ++nonce,
      ...(extra.expirationMs ? { expirationMs: extra.expirationMs } : {}),
    }),
    from.privateKey,
  );
const send = (tx: unknown) => node('broadcasttransaction', tx as Record<string, unknown>);
const transferCall = (owner: string, to: string, amount: bigint) => ({
  owner_address: owner,
  contract_address: USDT,
  function_selector: 'transfer(address,uint256)',
  parameter: `${tronAddressToHex(to).slice(2).padStart(64, '0')}${amount.toString(16).padStart(64, '0')}`,
});

describe('energy: the cap and the bill (VMActuator.getAccountEnergyLimitWithFixRatio, ReceiptCapsule.payEnergyBill)', () => {
  it('fee_limit caps all the energy, rented included: 65,000 delegated and fee_limit 0.5 TRX runs OUT_OF_ENERGY at 5,000', async () => {
    const sender = wallet(5_000_000n, 10_000_000n);
    mock.state.chain.delegateEnergy(sender.address, 65_000);
    const to = wallet(1n).address;
    const tx = usdtTx(sender, to, 1_000_000n, 500_000);
    expect((await send(tx)).result).toBe(true);
    const info = await node('gettransactioninfobyid', { value: tx.txID });
    expect(info.receipt).toMatchObject({ result: 'OUT_OF_ENERGY', energy_usage: 5_000, energy_usage_total: 5_000 });
    expect(info.receipt.energy_fee).toBeUndefined();
    expect(info.result).toBe('FAILED');
    expect(info.contractResult).toEqual(['']);
    expect(text(info.resMessage)).toMatch(/^Not enough energy for '\w+' operation executing: curInvokeEnergyLimit\[5000\]/);
    expect(mock.state.chain.tokenBalance(to, USDT)).toBe(1n);
    expect(mock.state.chain.tokenBalance(sender.address, USDT)).toBe(5_000_000n);
  });

  it('what the sender can pay caps it too: 1 TRX and no stake is 10,000 energy; all of it burnt, nothing moves', async () => {
    const sender = wallet(5_000_000n, 1_000_000n);
    const tx = usdtTx(sender, wallet(1n).address, 1n);
    expect((await send(tx)).result).toBe(true);
    const info = await node('gettransactioninfobyid', { value: tx.txID });
    expect(info.receipt).toMatchObject({ result: 'OUT_OF_ENERGY', energy_usage_total: 10_000, energy_fee: 1_000_000 });
    expect(info.fee).toBe(1_000_000);
    expect(mock.state.chain.trxBalance(sender.address)).toBe(0n);
    expect(mock.state.chain.tokenBalance(sender.address, USDT)).toBe(5_000_000n);
  });

  it('energy_usage never exceeds what the sender had: 30,000 delegated of 65,000 needed, the rest burnt', async () => {
    const sender = wallet(5_000_000n, 10_000_000n);
    mock.state.chain.delegateEnergy(sender.address, 30_000);
    const tx = usdtTx(sender, wallet(1n).address, 1n);
    await send(tx);
    const info = await node('gettransactioninfobyid', { value: tx.txID });
    expect(info.receipt).toMatchObject({
      result: 'SUCCESS',
      energy_usage: 30_000,
      energy_fee: 3_500_000,
      energy_usage_total: 65_000,
      energy_penalty_total: 48_750,
    });
    expect(info.contractResult).toEqual(['1'.padStart(64, '0')]); // transfer's return word: true
    expect(mock.state.chain.trxBalance(sender.address)).toBe(6_500_000n);
  });

  it('dynamic energy (VM.play, ContractStateCapsule): a configurable energy_factor, shown by getcontractinfo and in energy_penalty', async () => {
    const chain = mock.state.chain;
    const owner = wallet(5_000_000n).address;
    const to = wallet(1n).address;
    try {
      chain.setEnergyFactor(USDT, 0);
      expect((await node('getcontractinfo', { value: USDT })).contract_state.energy_factor).toBeUndefined();
      const base = await node('triggerconstantcontract', transferCall(owner, to, 1n));
      expect(base.energy_used).toBe(16_250);
      expect(base.energy_penalty).toBeUndefined();
      chain.setEnergyFactor(USDT, 34_000); // mainnet's maximum
      expect((await node('getcontractinfo', { value: USDT })).contract_state.energy_factor).toBe(34_000);
      const max = await node('triggerconstantcontract', transferCall(owner, to, 1n));
      expect(max).toMatchObject({ energy_used: 71_500, energy_penalty: 55_250 });
    } finally {
      chain.setEnergyFactor(USDT, 30_000);
    }
  });
});

describe('accounts exist only by TRX or AccountCreate (BandwidthProcessor, TransferActuator, DelegateResourceActuator)', () => {
  it('a TRC-20 transfer creates no account: getaccount and getaccountresource answer {} until TRX arrives', async () => {
    const sender = wallet(5_000_000n, 20_000_000n);
    const fresh = wallet().address;
    await send(usdtTx(sender, fresh, 2_000_000n));
    expect(mock.state.chain.tokenBalance(fresh, USDT)).toBe(2_000_000n);
    expect(await node('getaccount', { address: fresh })).toEqual({});
    expect(await node('getaccountresource', { address: fresh })).toEqual({});
    // TransferActuator: a TRX transfer creates it, for 1 TRX more (getCreateNewAccountFeeInSystemContract),
    // and BandwidthProcessor.consumeForCreateNewAccount burns 0.1 TRX (getCreateAccountFee) instead of free bandwidth.
    const before = mock.state.chain.trxBalance(sender.address);
    const tx = trxTx(sender, fresh, 1_000_000);
    expect((await send(tx)).result).toBe(true);
    expect(await node('getaccount', { address: fresh })).toMatchObject({ address: fresh, balance: 1_000_000 });
    expect(before - mock.state.chain.trxBalance(sender.address)).toBe(2_100_000n);
    expect((await node('gettransactioninfobyid', { value: tx.txID })).fee).toBe(1_100_000);
  });

  it('a sender that is no account is refused: CONTRACT_VALIDATE_ERROR "account [...] does not exist"', async () => {
    const ghost = wallet(5_000_000n);
    const answer = await send(usdtTx(ghost, wallet(1n).address, 1n));
    expect(answer.code).toBe('CONTRACT_VALIDATE_ERROR');
    expect(answer.result).toBeUndefined();
    expect(text(answer.message)).toBe(`Contract validate error : account [${ghost.address}] does not exist`);
    expect(mock.state.chain.tokenBalance(ghost.address, USDT)).toBe(5_000_000n);
  });

  it('a rental to a never-activated address fails with a reason, and delegates nothing', async () => {
    const target = wallet(1_000_000n).address; // holds USDT, is no account
    const before = (await raw(mock.url, 'GET', '/api/v1/balance', { key: mock.apiKey })).json;
    const created = await raw(mock.url, 'POST', '/api/v1/orders', {
      key: mock.apiKey,
      body: { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: target },
    });
    expect(created.status).toBe(201);
    await mock.state.advance(1_000);
    const order = (await raw(mock.url, 'GET', `/api/v1/orders/${created.json.id}`, { key: mock.apiKey })).json;
    expect(order.status).toBe('FAILED');
    expect(order.fills).toEqual([]);
    const details = (await raw(mock.url, 'GET', `/__mock/orders/${created.json.id}`)).json;
    expect(details).toMatchObject({ failure_reason: 'TARGET_NOT_ACTIVATED' });
    expect(details.failure_message).toMatch(/not activated/);
    expect(mock.state.chain.availableEnergy(target)).toBe(0);
    expect((await raw(mock.url, 'GET', '/api/v1/balance', { key: mock.apiKey })).json.trx).toBe(before.trx);
  });

  it('DelegateResourceActuator: a rental to a contract (the USDT token) fails TARGET_IS_CONTRACT, delegates nothing, charges nothing', async () => {
    expect(await node('getaccount', { address: USDT })).toMatchObject({ type: 'Contract' });
    const before = (await raw(mock.url, 'GET', '/api/v1/balance', { key: mock.apiKey })).json;
    const energyBefore = mock.state.chain.availableEnergy(USDT);
    const created = await raw(mock.url, 'POST', '/api/v1/orders', {
      key: mock.apiKey,
      body: { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: USDT },
    });
    expect(created.status).toBe(201);
    await mock.state.advance(1_000);
    const order = (await raw(mock.url, 'GET', `/api/v1/orders/${created.json.id}`, { key: mock.apiKey })).json;
    expect(order.status).toBe('FAILED');
    expect(order.fills).toEqual([]);
    const details = (await raw(mock.url, 'GET', `/__mock/orders/${created.json.id}`)).json;
    expect(details.failure_reason).toBe('TARGET_IS_CONTRACT');
    expect(details.failure_message).toContain('Do not allow delegate resources to contract addresses');
    expect(mock.state.chain.availableEnergy(USDT)).toBe(energyBefore);
    expect((await raw(mock.url, 'GET', '/api/v1/balance', { key: mock.apiKey })).json.trx).toBe(before.trx);
  });

  it("the chain itself refuses the DelegateResourceContract with java-tron's text, in its order: no account first, then a contract", () => {
    const chain = mock.state.chain;
    const provider = wallet(0n, 1n).address;
    const delegate = (to: string) => () =>
      chain.delegateResource({ from: provider, to, resource: 'ENERGY', amount: 65_000, lockSec: 3600, success: true, label: 'test' });
    const ghost = wallet(1n).address; // holds USDT, is no account
    const txs = chain.transactions.size;
    expect(delegate(USDT)).toThrow('Contract validate error : Do not allow delegate resources to contract addresses');
    expect(delegate(ghost)).toThrow(`Contract validate error : Account[${tronAddressToHex(ghost).toLowerCase()}] not exists`);
    // A refused contract never reaches a block.
    expect(chain.transactions.size).toBe(txs);
    expect(chain.delegationRefusal(wallet(0n, 1n).address)).toBeUndefined();
  });
});

describe('the solidity node answers with the solidified state (java-tron reads its solidified database)', () => {
  it('/walletsolidity/getaccount shows an account as of the solidified block: new TRX shows on /wallet at once and on /walletsolidity 19 blocks later', async () => {
    const solid = async (address: string) => (await raw(mock.url, 'POST', '/walletsolidity/getaccount', { body: { address, visible: true } })).json;
    const fresh = wallet(0n).address;
    mock.state.chain.fundTrx(fresh, 5_000_000n);
    expect(await node('getaccount', { address: fresh })).toMatchObject({ address: fresh, balance: 5_000_000 });
    // Not an account yet as of the solidified block.
    expect(await solid(fresh)).toEqual({});
    // A second change in a later block: the solidified view moves block by block.
    await mock.state.advance(3_000);
    mock.state.chain.fundTrx(fresh, 2_000_000n);
    expect((await node('getaccount', { address: fresh })).balance).toBe(7_000_000);
    // 18 blocks after the first change: still not solidified.
    await mock.state.advance(17 * 3_000);
    expect(await solid(fresh)).toEqual({});
    // 19 blocks after it (SOLIDIFIED_LAG_BLOCKS): the first change is solid, the second not yet.
    await mock.state.advance(3_000);
    expect(await solid(fresh)).toMatchObject({ address: fresh, balance: 5_000_000 });
    await mock.state.advance(3_000);
    expect(await solid(fresh)).toMatchObject({ address: fresh, balance: 7_000_000 });
    // An account untouched for longer than the lag reads the same on both.
    expect(await solid(fresh)).toEqual(await node('getaccount', { address: fresh }));
  });

  it('a spend shows on the solidity node only once solidified; token balances follow the same view', async () => {
    const solid = async (address: string) => (await raw(mock.url, 'POST', '/walletsolidity/getaccount', { body: { address, visible: true } })).json;
    const sender = wallet(3_000_000n, 50_000_000n);
    await mock.state.advance(20 * 3_000);
    const settled = await solid(sender.address);
    expect(settled).toMatchObject({ balance: 50_000_000 });
    const to = wallet(0n, 1n).address;
    expect((await send(trxTx(sender, to, 10_000_000))).result).toBe(true);
    expect((await node('getaccount', { address: sender.address })).balance).toBeLessThan(40_000_001);
    expect(await solid(sender.address)).toEqual(settled);
    await mock.state.advance(19 * 3_000);
    expect(await solid(sender.address)).toEqual(await node('getaccount', { address: sender.address }));
  });
});

describe('reverts (Wallet.callConstantContract, VMActuator: "REVERT opcode executed")', () => {
  it('triggerconstantcontract: result.result true + message, energy_used up to the revert, ret FAILED, Error(string) data', async () => {
    const owner = wallet(1_000_000n).address;
    const answer = await node('triggerconstantcontract', transferCall(owner, wallet().address, 2_000_000n));
    expect(answer.result.result).toBe(true);
    expect(answer.result.code).toBeUndefined();
    expect(text(answer.result.message)).toBe('REVERT opcode executed');
    expect(answer.energy_used).toBe(8_000); // what ran before the revert, penalty included
    expect(answer.transaction.ret[0].ret).toBe('FAILED');
    const data: string = answer.constant_result[0];
    expect(data.slice(0, 8)).toBe('08c379a0'); // Error(string)
    expect(text(data.slice(8 + 128)).replace(/\0+$/, '')).toBe('transfer amount exceeds balance');
  });

  it('a blacklisted sender reverts with no data; broadcast, the receipt is REVERT with the energy used charged', async () => {
    const sender = wallet(5_000_000n, 10_000_000n);
    mock.state.chain.setBlacklisted(USDT, sender.address, true);
    try {
      const simulated = await node('triggerconstantcontract', transferCall(sender.address, wallet(1n).address, 1n));
      expect(simulated.constant_result).toEqual(['']);
      expect(text(simulated.result.message)).toBe('REVERT opcode executed');
      const tx = usdtTx(sender, wallet(1n).address, 1n);
      expect((await send(tx)).result).toBe(true);
      const info = await node('gettransactioninfobyid', { value: tx.txID });
      expect(info).toMatchObject({ result: 'FAILED', receipt: { result: 'REVERT', energy_usage_total: 8_000, energy_fee: 800_000 } });
      expect(text(info.resMessage)).toBe('REVERT opcode executed');
      expect((await node('gettransactionbyid', { value: tx.txID })).ret[0].contractRet).toBe('REVERT');
      expect(mock.state.chain.tokenBalance(sender.address, USDT)).toBe(5_000_000n);
    } finally {
      mock.state.chain.setBlacklisted(USDT, sender.address, false);
    }
  });
});

describe('broadcast: answers and refusals as Wallet.broadcastTransaction words them', () => {
  it('success is {result, txid} only; a second time DUP_TRANSACTION_ERROR "Dup transaction."', async () => {
    const sender = wallet(0n, 10_000_000n);
    const tx = trxTx(sender, wallet(0n, 1n).address, 1_000);
    expect(await send(tx)).toEqual({ result: true, txid: tx.txID });
    const again = await send(tx);
    expect(again).toEqual({ code: 'DUP_TRANSACTION_ERROR', txid: tx.txID, message: Buffer.from('Dup transaction.').toString('hex') });
  });

  it('SIGERROR "Validate signature error: ...", TRANSACTION_EXPIRATION_ERROR "Transaction expired" (past, or > 24 h ahead), TAPOS_ERROR "Tapos check error."', async () => {
    const sender = wallet(0n, 10_000_000n);
    const other = wallet(0n, 1n);
    const to = other.address;
    const forged = signTransaction(buildTrxTransfer({ from: sender.address, to, amountSun: 1, refBlock: ref(), now: mock.state.now() }), other.privateKey);
    const sig = await send(forged);
    expect(sig.code).toBe('SIGERROR');
    expect(text(sig.message)).toBe(`Validate signature error: ${forged.signature[0]} is signed by ${other.address} but it is not contained of permission.`);
    const past = await send(trxTx(sender, to, 1, { now: mock.state.now() - 120_000 }));
    expect([past.code, text(past.message)]).toEqual(['TRANSACTION_EXPIRATION_ERROR', 'Transaction expired']);
    const far = await send(trxTx(sender, to, 1, { expirationMs: 24 * 3_600_000 + 60_000 }));
    expect([far.code, text(far.message)]).toEqual(['TRANSACTION_EXPIRATION_ERROR', 'Transaction expired']);
    const unknown = await send(trxTx(sender, to, 1, { refBlock: { number: mock.state.chain.height(), hash: 'ff'.repeat(32) } }));
    expect([unknown.code, text(unknown.message)]).toEqual(['TAPOS_ERROR', 'Tapos check error.']);
    // The offline all-zero reference of buildTrxTransfer is no block either.
    const offline = await send(trxTx(sender, to, 1, { refBlock: { number: 0, hash: '0'.repeat(64) } }));
    expect(offline.code).toBe('TAPOS_ERROR');
  });

  it('BANDWITH_ERROR "Account resource insufficient error." once the free 600 bytes are used and no TRX is left to burn', async () => {
    const sender = wallet(5_000_000n, 0n);
    mock.state.chain.activate(sender.address);
    mock.state.chain.delegateEnergy(sender.address, 200_000);
    expect((await send(usdtTx(sender, wallet(1n).address, 1n))).result).toBe(true); // ~345 free bytes
    const refused = await send(usdtTx(sender, wallet(1n).address, 1n));
    expect([refused.code, text(refused.message)]).toEqual(['BANDWITH_ERROR', 'Account resource insufficient error.']);
  });

  it('the 65,536-block TAPOS window (Manager.validateTapos, RecentBlockStore)', async () => {
    const sender = wallet(0n, 10_000_000n);
    const to = wallet(0n, 1n).address;
    const chain = mock.state.chain;
    const old = { number: chain.height(), hash: chain.blockId(chain.height()) };
    const next = { number: old.number + 1, hash: '' };
    await mock.state.advance(TAPOS_WINDOW_BLOCKS * 3_000);
    next.hash = chain.blockId(next.number);
    expect((await send(trxTx(sender, to, 1, { refBlock: old }))).code).toBe('TAPOS_ERROR'); // 65,536 blocks back: out
    expect((await send(trxTx(sender, to, 2, { refBlock: next }))).result).toBe(true); // 65,535 back: still in
  });
});

describe('the transaction is its raw_data JSON (BroadcastServlet -> Util.packTransaction)', () => {
  it('a raw_data that does not hash to the signed id is SIGERROR and moves nothing; the answer names the id of what was sent', async () => {
    const sender = wallet(0n, 10_000_000n);
    const to = wallet(0n, 1n).address;
    const tx = trxTx(sender, to, 1_000);
    const raw_data = structuredClone(tx.raw_data) as { contract: { parameter: { value: { amount: number } } }[] };
    raw_data.contract[0]!.parameter.value.amount = 5_000_000;
    const tampered = { ...tx, raw_data }; // raw_data_hex and txID still the signed ones
    const answer = await send(tampered);
    expect(answer.code).toBe('SIGERROR');
    expect(answer.txid).toBe(bytesToHex(sha256(hexToBytes(encodeRawDataJson(raw_data)))));
    expect(text(answer.message)).toMatch(/^Validate signature error: /);
    expect(mock.state.chain.trxBalance(to)).toBe(1n);
  });

  it('raw_data_hex is not read when raw_data is there: a wrong one does not stop a good transaction', async () => {
    const sender = wallet(0n, 10_000_000n);
    const to = wallet(0n, 1n).address;
    const tx = trxTx(sender, to, 7_000);
    expect(await send({ ...tx, raw_data_hex: 'deadbeef' })).toEqual({ result: true, txid: tx.txID });
    expect(mock.state.chain.trxBalance(to)).toBe(7_001n);
  });
});
