/**
 * The node client against java-tron's recorded answers (test/tron/fixtures/*.json, each written
 * from the java-tron class that prints it: see its `source`), served by a scripted loopback
 * node: a successful simulation, a revert in each of java-tron's forms (result.result stays
 * true!), the `{}` of an account that was never activated, a broadcast's success and every
 * refusal text, and receipts (mined, out of energy, unknown), the solidified one included.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TronNode, spendable } from '../../src/tron/node.js';
import { type ConstantCallResult, revertReason, simulationFailure } from '../../src/tron/node-answers.js';
import { type RecordedRequest, type Reply, scriptedServer } from '../helpers/scripted-server.js';

type Fixture = { source: string; answer: Record<string, unknown>; reason?: string };
const fixture = <T = Fixture>(name: string): T => JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as T;

const OWNER = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const TXID = '7c2d4206c03a883dd9066d620335dc1be272a8dc733cfa3f6d10308faa37facc';
const transferCall = { owner: OWNER, contract: USDT, functionSelector: 'transfer(address,uint256)', parameter: '00' };

let answer: (req: RecordedRequest) => Reply = () => ({ status: 200, body: {} });
let server: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  server = await scriptedServer((req) => answer(req));
});
afterAll(() => server.close());
const node = () => new TronNode({ baseUrl: server.url, maxRetries: 0 });
const serve = (body: unknown) => {
  answer = () => ({ status: 200, body });
};

describe('triggerconstantcontract as java-tron answers it', () => {
  it('a successful transfer simulation passes with its energy', async () => {
    const f = fixture('triggerconstantcontract-success');
    expect(f.source).toMatch(/java-tron/);
    serve(f.answer);
    const result = await node().triggerConstantContract(transferCall);
    expect(result.energy_used).toBe(64_285);
    expect(simulationFailure(result)).toBeUndefined();
  });

  for (const [name, reverted] of [
    ['triggerconstantcontract-revert-reason', true],
    ['triggerconstantcontract-revert-bare', true],
    ['triggerconstantcontract-validate-error', false],
    ['triggerconstantcontract-out-of-time', false],
  ] as const) {
    it(`${name}: failed, with the reason decoded (${reverted ? 'a revert' : 'not a revert'})`, async () => {
      const f = fixture(name);
      serve(f.answer);
      const error = await node()
        .triggerConstantContract(transferCall)
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'SIMULATION_FAILED', details: { reverted, reason: f.reason } });
      expect((error as Error).message).toContain(f.reason!);
      // The pure reading agrees with the client.
      expect(simulationFailure(f.answer as ConstantCallResult)).toMatchObject({ reverted, reason: f.reason });
    });
  }

  it('each form alone is a failure: result.code, a REVERT message, ret FAILED, an Error(string) in constant_result', () => {
    const base = { energy_used: 100, energy_penalty: 0 };
    expect(simulationFailure({ ...base, result: { code: 'OTHER_ERROR' } })).toMatchObject({ node_code: 'OTHER_ERROR', reverted: false });
    expect(simulationFailure({ ...base, result: { result: true, message: Buffer.from('REVERT opcode executed').toString('hex') } })).toMatchObject({
      reverted: true,
    });
    expect(simulationFailure({ ...base, result: { result: true }, transaction: { ret: [{ ret: 'FAILED' }] } })).toMatchObject({ reverted: false });
    const data = fixture('triggerconstantcontract-revert-reason').answer.constant_result as string[];
    expect(simulationFailure({ ...base, result: { result: true }, constant_result: data })).toMatchObject({
      reverted: true,
      reason: 'BlackList: sender is blacklisted',
    });
    expect(simulationFailure({ ...base, result: { result: true }, constant_result: ['0'.repeat(63) + '1'] })).toBeUndefined();
    expect(revertReason(`4e487b71${'0'.repeat(62)}11`)).toBe('Panic(0x11)');
    expect(revertReason('08c379a0')).toBeUndefined();
  });
});

describe('accounts, broadcasts and receipts as java-tron answers them', () => {
  it('a never-activated address: getaccount and getaccountresource answer {}', async () => {
    serve(fixture('getaccount-not-activated').answer);
    const account = await node().getAccount(OWNER);
    expect(account).toMatchObject({ balance: 0, create_time: 0 });
    expect(account.address).toBeUndefined();
    serve(fixture('getaccountresource-not-activated').answer);
    expect(spendable(await node().getAccountResource(OWNER))).toEqual({ energy: 0, bandwidth: 0, freeBandwidth: 0 });
    serve(fixture('getaccount-activated').answer);
    expect(await node().getAccount(OWNER)).toMatchObject({ address: OWNER, balance: 25_000_000 });
  });

  it('a broadcast: success as { result, txid }; each refusal with its code and its text decoded from hex', async () => {
    serve(fixture('broadcast-success').answer);
    expect(await node().broadcastTransaction({ txID: TXID })).toEqual({ result: true, txid: TXID });
    const refusals = fixture<{ answers: Array<{ answer: unknown; code: string; text: string }> }>('broadcast-refusals').answers;
    expect(refusals.map((r) => r.code)).toEqual(
      expect.arrayContaining(['DUP_TRANSACTION_ERROR', 'TRANSACTION_EXPIRATION_ERROR', 'TAPOS_ERROR', 'SIGERROR', 'BANDWITH_ERROR']),
    );
    for (const r of refusals) {
      serve(r.answer);
      expect(await node().broadcastTransaction({ txID: TXID })).toMatchObject({ result: false, code: r.code, message: r.text, txid: TXID });
    }
  });

  it('receipts: mined, out of energy (resMessage decoded), unknown; the solidified one asks /walletsolidity', async () => {
    serve(fixture('gettransactioninfobyid-success').answer);
    expect(await node().getTransactionInfo(TXID)).toMatchObject({
      blockNumber: 77_123_456,
      fee: 345_000,
      receipt: { energy_usage_total: 64_285, result: 'SUCCESS' },
    });
    serve(fixture('gettransactioninfobyid-out-of-energy').answer);
    const failed = await node().getTransactionInfo(TXID);
    expect(failed).toMatchObject({ result: 'FAILED', receipt: { result: 'OUT_OF_ENERGY', energy_fee: 6_428_500 } });
    expect(failed?.resMessage).toMatch(/^Not enough energy for 'SSTORE'/);
    serve(fixture('gettransactioninfobyid-unknown').answer);
    const before = server.requests.length;
    expect(await node().getTransactionInfo(TXID, { solidified: true })).toBeUndefined();
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/walletsolidity/gettransactioninfobyid']);
  });
});
