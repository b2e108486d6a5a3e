/**
 * tronweb 6.5.1 (the official TRON JavaScript library) against the mock's simulated node over real
 * HTTP, written as it would be against a java-tron node (`new TronWeb({ fullHost, privateKey })`):
 * the `trx` reads, `contract().at()` and `contract(abi, address)` transfers, the
 * `transactionBuilder` calls, sign + sendRawTransaction, estimateEnergy, sendTrx; then the same
 * USDT transfer made with the SDK's `client.transfers.send` on the same mock, with the same token
 * balances afterwards. The chain itself (`mock.state.chain`) is the judge of every outcome.
 */
import { TronWeb } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent, trxToSun } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { SOLIDIFIED_LAG_BLOCKS } from '../../src/mock/chain/blocks.js';
import { fundedWalletMaker } from '../helpers/wallets.js';
import { tronAddressToHex } from '../../src/utils/address.js';

let mock: MockServer;
beforeAll(async () => {
  // A real clock (tronweb and the SDK stamp transactions with the wall clock), short order steps.
  mock = await startMockServer({ seed: 61, rateLimits: false, timings: { selectMs: 20, fillMs: 40, verifyMs: 100 } });
});
afterAll(async () => {
  await mock.close();
});

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const FEE_LIMIT = 100_000_000; // 100 TRX, tronweb's usual
/** A fresh key and address holding `usdt` (atomic) and `trx` SUN (an account on chain when given TRX). */
const wallet = fundedWalletMaker(() => mock, 0xa0);

const tronWebFor = (privateKey: string) => new TronWeb({ fullHost: mock.url, privateKey });
const usdtOf = (address: string) => mock.state.chain.tokenBalance(address, USDT);

/** The USDT ABI as a user pastes it from an explorer (lower-case stateMutability). */
const USDT_ABI = [
  {
    constant: true,
    inputs: [{ name: 'who', type: 'address' }],
    name: 'balanceOf',
    outputs: [{ name: '', type: 'uint256' }],
    stateMutability: 'view',
    type: 'function',
  },
  {
    inputs: [
      { name: '_to', type: 'address' },
      { name: '_value', type: 'uint256' },
    ],
    name: 'transfer',
    outputs: [{ name: '', type: 'bool' }],
    stateMutability: 'nonpayable',
    type: 'function',
  },
];

// tronweb's getAccount and getBalance read the solidity node (/walletsolidity/getaccount), which
// answers the state as of the solidified block, as java-tron's does: a read after a change waits for it.
const solidified = () => mock.state.advance((SOLIDIFIED_LAG_BLOCKS + 1) * 3_000);

describe('tronweb against the simulated node', () => {
  it('trx reads: getAccount, getBalance, getAccountResources ({} for a never-activated address), blocks, getContract', async () => {
    const alice = wallet(5_000_000n, 30_000_000n);
    const tronWeb = tronWebFor(alice.privateKey);
    await solidified();
    const account = await tronWeb.trx.getAccount(alice.address);
    expect(account.address).toBe(tronAddressToHex(alice.address));
    expect(account.balance).toBe(30_000_000);
    expect(await tronWeb.trx.getBalance(alice.address)).toBe(30_000_000);
    // A TRC-20 balance alone makes no account: getaccount and getaccountresource answer {}.
    const holderOnly = wallet(1_000_000n);
    expect(await tronWeb.trx.getAccount(holderOnly.address)).toEqual({});
    expect(await tronWeb.trx.getAccountResources(holderOnly.address)).toEqual({});
    expect(await tronWeb.trx.getBalance(holderOnly.address)).toBe(0);
    expect(await tronWeb.trx.getAccountResources(alice.address)).toMatchObject({ freeNetLimit: 600, TotalEnergyLimit: 180_000_000_000 });

    const head = await tronWeb.trx.getCurrentBlock();
    const height = mock.state.chain.height();
    expect([height - 1, height]).toContain(head.block_header.raw_data.number);
    expect(head.blockID).toBe(mock.state.chain.blockId(head.block_header.raw_data.number));
    const byNumber = await tronWeb.trx.getBlockByNumber(head.block_header.raw_data.number - 5);
    expect(byNumber.blockID).toBe(mock.state.chain.blockId(head.block_header.raw_data.number - 5));
    expect((await tronWeb.trx.getBlock(head.blockID)).blockID).toBe(head.blockID);
    expect((await tronWeb.trx.getBlockByHash(byNumber.blockID)).block_header.raw_data.number).toBe(head.block_header.raw_data.number - 5);
    // The solidity node's latest block trails the head as on mainnet.
    const solid = await tronWeb.trx.getConfirmedCurrentBlock();
    expect(solid.block_header.raw_data.number).toBeLessThanOrEqual(mock.state.chain.height() - SOLIDIFIED_LAG_BLOCKS);

    const contract = await tronWeb.trx.getContract(USDT);
    expect(contract.contract_address).toBe(tronAddressToHex(USDT));
    expect(contract.abi.entrys.map((e: { name?: string }) => e.name)).toEqual(expect.arrayContaining(['balanceOf', 'transfer', 'decimals']));
    // Dynamic energy visible: the contract's energy_factor.
    const info = await tronWeb.trx.getContractInfo(USDT);
    expect(info.contract_state.energy_factor).toBe(mock.state.chain.energyFactor(USDT));
    const params = await tronWeb.trx.getChainParameters();
    expect(params.find((p: { key: string }) => p.key === 'getEnergyFee')?.value).toBe(100);
  });

  it('contract().at(USDT): balanceOf().call(), transfer().send(); getTransaction, then getTransactionInfo once solidified', async () => {
    const alice = wallet(20_000_000n, 50_000_000n);
    const bob = wallet(1n).address;
    const tronWeb = tronWebFor(alice.privateKey);
    const usdt = await tronWeb.contract().at(USDT);
    expect(BigInt(String(await usdt.balanceOf(alice.address).call()))).toBe(20_000_000n);
    const txid: string = await usdt.transfer(bob, 3_000_000).send({ feeLimit: FEE_LIMIT });
    expect(txid).toMatch(/^[0-9a-f]{64}$/);
    expect(usdtOf(bob)).toBe(3_000_001n);
    expect(usdtOf(alice.address)).toBe(17_000_000n);
    const tx = await tronWeb.trx.getTransaction(txid);
    expect(tx.ret?.[0]?.contractRet).toBe('SUCCESS');
    // tronweb reads the receipt from the solidity node: nothing until the block is solidified.
    expect(await tronWeb.trx.getTransactionInfo(txid)).toEqual({});
    expect((await tronWeb.trx.getUnconfirmedTransactionInfo(txid)).id).toBe(txid);
    await mock.state.advance((SOLIDIFIED_LAG_BLOCKS + 1) * 3_000);
    const info = await tronWeb.trx.getTransactionInfo(txid);
    expect(info).toMatchObject({ id: txid, receipt: { result: 'SUCCESS', energy_usage_total: 65_000, energy_fee: 6_500_000 } });
    expect(info.contractResult).toEqual(['1'.padStart(64, '0')]);
    expect(mock.state.chain.trxBalance(alice.address)).toBe(50_000_000n - BigInt(info.fee));
  });

  it('contract(abi, USDT).transfer().send(), and a send that runs out of energy (fee_limit too low) moves nothing', async () => {
    const alice = wallet(10_000_000n, 50_000_000n);
    const carol = wallet().address; // holds nothing: 130,000 energy
    const tronWeb = tronWebFor(alice.privateKey);
    const usdt = tronWeb.contract(USDT_ABI, USDT);
    await usdt.methods.transfer!(carol, 2_000_000).send({ feeLimit: FEE_LIMIT });
    expect(usdtOf(carol)).toBe(2_000_000n);
    // 5 TRX of fee_limit buys 50,000 energy of the 65,000 a transfer to a holder needs: OUT_OF_ENERGY.
    const trxBefore = mock.state.chain.trxBalance(alice.address);
    const txid: string = await usdt.methods.transfer!(carol, 1_000_000).send({ feeLimit: 5_000_000 });
    expect(usdtOf(carol)).toBe(2_000_000n);
    const info = await tronWeb.trx.getUnconfirmedTransactionInfo(txid);
    expect(info).toMatchObject({ result: 'FAILED', receipt: { result: 'OUT_OF_ENERGY', energy_usage_total: 50_000, energy_fee: 5_000_000 } });
    expect(Buffer.from(info.resMessage, 'hex').toString()).toMatch(/^Not enough energy/);
    expect(trxBefore - mock.state.chain.trxBalance(alice.address)).toBe(BigInt(info.fee));
  });

  it('transactionBuilder.triggerSmartContract + trx.sign + trx.sendRawTransaction; the node answers {result, txid} only', async () => {
    const alice = wallet(10_000_000n, 50_000_000n);
    const dave = wallet(1n).address;
    const tronWeb = tronWebFor(alice.privateKey);
    const built = await tronWeb.transactionBuilder.triggerSmartContract(
      USDT,
      'transfer(address,uint256)',
      { feeLimit: FEE_LIMIT },
      [
        { type: 'address', value: dave },
        { type: 'uint256', value: 4_000_000 },
      ],
      alice.address,
    );
    expect(built.result.result).toBe(true);
    const signed = await tronWeb.trx.sign(built.transaction, alice.privateKey);
    // The node's own answer, as java-tron's BroadcastServlet prints it.
    const answer = await (await fetch(`${mock.url}/wallet/broadcasttransaction`, { method: 'POST', body: JSON.stringify(signed) })).json();
    expect(answer).toEqual({ result: true, txid: signed.txID });
    expect(usdtOf(dave)).toBe(4_000_001n);
    // Again: java-tron's duplicate refusal, through tronweb.
    await mock.state.advance(3_000); // a new head block: tronweb builds another transaction, not the same one again
    const again = await tronWeb.trx.sendRawTransaction(signed);
    expect(again).toMatchObject({ code: 'DUP_TRANSACTION_ERROR', txid: signed.txID });
    expect(Buffer.from(String(again.message), 'hex').toString()).toBe('Dup transaction.');
  });

  it('triggerConstantContract and estimateEnergy; a reverting transfer is refused the way tronweb sees java-tron refuse it', async () => {
    const alice = wallet(7_000_000n, 10_000_000n);
    const tronWeb = tronWebFor(alice.privateKey);
    const balance = await tronWeb.transactionBuilder.triggerConstantContract(
      USDT,
      'balanceOf(address)',
      {},
      [{ type: 'address', value: alice.address }],
      alice.address,
    );
    expect(BigInt(`0x${balance.constant_result[0]}`)).toBe(7_000_000n);
    const toEmpty = [
      { type: 'address', value: wallet().address },
      { type: 'uint256', value: 1 },
    ];
    const estimate = await tronWeb.transactionBuilder.estimateEnergy(USDT, 'transfer(address,uint256)', {}, toEmpty, alice.address);
    expect(estimate.energy_required).toBe(130_000);
    const simulated = await tronWeb.transactionBuilder.triggerConstantContract(USDT, 'transfer(address,uint256)', {}, toEmpty, alice.address);
    expect(simulated).toMatchObject({ energy_used: 130_000, energy_penalty: 97_500 });
    // Beyond the balance: java-tron's revert (result.result true + message), which tronweb throws.
    const tooMuch = [
      { type: 'address', value: wallet().address },
      { type: 'uint256', value: 8_000_000 },
    ];
    await expect(tronWeb.transactionBuilder.triggerConstantContract(USDT, 'transfer(address,uint256)', {}, tooMuch, alice.address)).rejects.toThrow(
      'REVERT opcode executed',
    );
    await expect(tronWeb.transactionBuilder.estimateEnergy(USDT, 'transfer(address,uint256)', {}, tooMuch, alice.address)).rejects.toThrow(
      'REVERT opcode executed',
    );
  });

  it('sendTrx activates the recipient (the 1 TRX + 0.1 TRX account-creation fees burnt), then a second one costs only bandwidth', async () => {
    const alice = wallet(0n, 20_000_000n);
    const erin = wallet().address;
    const tronWeb = tronWebFor(alice.privateKey);
    expect(await tronWeb.trx.getAccount(erin)).toEqual({});
    await solidified();
    const sent = await tronWeb.trx.sendTrx(erin, 2_000_000);
    expect(sent.result).toBe(true);
    await solidified();
    expect(await tronWeb.trx.getBalance(erin)).toBe(2_000_000);
    expect(mock.state.chain.trxBalance(alice.address)).toBe(20_000_000n - 2_000_000n - 1_000_000n - 100_000n);
    await tronWeb.trx.sendTrx(erin, 1_000_000);
    await solidified();
    expect(await tronWeb.trx.getBalance(erin)).toBe(3_000_000);
    expect(mock.state.chain.trxBalance(alice.address)).toBe(20_000_000n - 3_000_000n - 1_100_000n);
  });
});

describe('trx.sendHexTransaction (broadcasthex)', () => {
  it('takes the signed Transaction as protobuf hex and answers as BroadcastHexServlet does (the transaction as JSON text)', async () => {
    const alice = wallet(0n, 10_000_000n);
    const to = wallet(0n, 1n).address;
    const tronWeb = tronWebFor(alice.privateKey);
    const signed = await tronWeb.trx.sign(await tronWeb.transactionBuilder.sendTrx(to, 500_000, alice.address), alice.privateKey);
    // Transaction { raw_data = 1; signature = 2 }
    const rawLength = signed.raw_data_hex.length / 2;
    const lengthHex =
      rawLength < 128 ? rawLength.toString(16).padStart(2, '0') : ((rawLength & 0x7f) | 0x80).toString(16) + (rawLength >> 7).toString(16).padStart(2, '0');
    const hex = `0a${lengthHex}${signed.raw_data_hex}1241${signed.signature[0]}`;
    const sent = await tronWeb.trx.sendHexTransaction(hex);
    expect(sent).toMatchObject({ result: true, txid: signed.txID, transaction: { txID: signed.txID } });
    expect(mock.state.chain.trxBalance(to)).toBe(500_001n);
  });
});

describe('AccountCreate: the other way an address becomes an account', () => {
  it('transactionBuilder.createAccount + sign + sendRawTransaction: 1 TRX fee (+0.1 TRX bandwidth); a second time "Account has existed"', async () => {
    const alice = wallet(0n, 10_000_000n);
    const frank = wallet(1_000_000n).address; // holds USDT, is no account
    const tronWeb = tronWebFor(alice.privateKey);
    expect(await tronWeb.trx.getAccount(frank)).toEqual({});
    const built = await tronWeb.transactionBuilder.createAccount(frank, alice.address);
    const sent = await tronWeb.trx.sendRawTransaction(await tronWeb.trx.sign(built, alice.privateKey));
    expect(sent.result).toBe(true);
    await solidified();
    expect((await tronWeb.trx.getAccount(frank)).address).toBe(tronAddressToHex(frank));
    expect(await tronWeb.trx.getBalance(frank)).toBe(0);
    expect(mock.state.chain.trxBalance(alice.address)).toBe(10_000_000n - 1_100_000n);
    await mock.state.advance(3_000); // a new head block: tronweb builds another transaction, not the same one again
    const again = await tronWeb.trx.sendRawTransaction(
      await tronWeb.trx.sign(await tronWeb.transactionBuilder.createAccount(frank, alice.address), alice.privateKey),
    );
    expect(again.code).toBe('CONTRACT_VALIDATE_ERROR');
    expect(Buffer.from(String(again.message), 'hex').toString()).toBe('Contract validate error : Account has existed');
  });
});

describe('the same USDT transfer with tronweb and with the SDK', () => {
  // A mock of its own whose clock was never advanced: the SDK stamps its transaction with the
  // wall clock (tronweb with the reference block's time), so it must agree with the mock's.
  beforeAll(async () => {
    await mock.close();
    mock = await startMockServer({ seed: 62, rateLimits: false, timings: { selectMs: 20, fillMs: 40, verifyMs: 100 } });
  });

  it('leaves the same token balances (tronweb burns TRX for the energy, the SDK rents it)', async () => {
    const viaTronweb = { sender: wallet(50_000_000n, 40_000_000n), recipient: wallet(1_000_000n) };
    const viaSdk = { sender: wallet(50_000_000n, 40_000_000n), recipient: wallet(1_000_000n) };
    mock.state.chain.activate(viaSdk.recipient.address);
    mock.state.chain.activate(viaTronweb.recipient.address);

    const usdt = await tronWebFor(viaTronweb.sender.privateKey).contract().at(USDT);
    await usdt.transfer(viaTronweb.recipient.address, 12_500_000).send({ feeLimit: FEE_LIMIT });

    const account = mock.state.createAccount({ trx_sun: trxToSun('100') });
    const client = new TrxRent({ baseUrl: mock.url, apiKey: account.api_key, tronNode: mock.url, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
    const sent = await client.transfers.send({ token: 'USDT', to: viaSdk.recipient.address, amount: '12.5', signer: { privateKey: viaSdk.sender.privateKey } });
    expect(sent.receipt.result).toBe('SUCCESS');

    for (const [a, b] of [
      [viaTronweb.sender.address, viaSdk.sender.address],
      [viaTronweb.recipient.address, viaSdk.recipient.address],
    ] as const) {
      expect(usdtOf(a)).toBe(usdtOf(b));
    }
    expect(usdtOf(viaSdk.sender.address)).toBe(37_500_000n);
    expect(usdtOf(viaSdk.recipient.address)).toBe(13_500_000n);
    // The difference is the TRX: 6.5 TRX burnt for 65,000 energy by tronweb, none by the SDK's sender.
    expect(40_000_000n - mock.state.chain.trxBalance(viaTronweb.sender.address)).toBe(6_500_000n);
    expect(mock.state.chain.trxBalance(viaSdk.sender.address)).toBe(40_000_000n);
  });
});
