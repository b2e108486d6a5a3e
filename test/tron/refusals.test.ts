/**
 * `transfers.send` refuses what cannot succeed on chain before anything is rented: a sender
 * java-tron does not know (`getaccount` answers `{}`) and a transfer whose simulation reverts
 * (java-tron's shape: result.result true, message "REVERT opcode executed", ret FAILED, the
 * reason as Error(string)). The node is a scripted loopback node answering java-tron's recorded
 * shapes (test/tron/fixtures); the account API is the reference mock, whose order log is the
 * judge: no order may exist afterwards. A control run with the success fixture shows the same
 * setup does reach the rental quote, so the refusals come from the node's answers.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { type RecordedRequest, type Reply, scriptedServer } from '../helpers/scripted-server.js';

const fixture = (name: string): Record<string, unknown> =>
  (JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as { answer: Record<string, unknown> }).answer;

const KEY = '5a'.repeat(32);
const SENDER = privateKeyToTronAddress(KEY);
const TO = 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8';
const word = (n: bigint) => n.toString(16).padStart(64, '0');

/** What the scripted node answers for the sender's account and the transfer's simulation. */
const world = { account: fixture('getaccount-activated'), transfer: fixture('triggerconstantcontract-success') };

function nodeAnswer(req: RecordedRequest): Reply {
  const method = req.url.replace(/^\/wallet(solidity)?\//, '');
  const body = req.body ? (JSON.parse(req.body) as Record<string, unknown>) : {};
  switch (method) {
    case 'getaccount':
      return { status: 200, body: { ...world.account, ...(world.account.address ? { address: SENDER } : {}) } };
    case 'getaccountresource':
      return { status: 200, body: { freeNetLimit: 600, TotalEnergyLimit: 180_000_000_000, TotalEnergyWeight: 19_000_000_000 } };
    case 'getchainparameters':
      return {
        status: 200,
        body: {
          chainParameter: [
            { key: 'getEnergyFee', value: 100 },
            { key: 'getTransactionFee', value: 1000 },
          ],
        },
      };
    case 'getnowblock':
      return {
        status: 200,
        body: { blockID: `0000000004988c80${'ab'.repeat(24)}`, block_header: { raw_data: { number: 77_123_456, timestamp: Date.now() } } },
      };
    case 'triggerconstantcontract':
      if (String(body.function_selector).startsWith('balanceOf'))
        return { status: 200, body: { result: { result: true }, energy_used: 900, constant_result: [word(50_000_000n)] } };
      return { status: 200, body: world.transfer };
    default:
      return { status: 200, body: { Error: `unexpected call ${method}` } };
  }
}

let mock: MockServer;
let node: Awaited<ReturnType<typeof scriptedServer>>;
let client: TrxRent;
beforeAll(async () => {
  mock = await startMockServer({ seed: 31, rateLimits: false });
  node = await scriptedServer(nodeAnswer);
  client = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, tronNode: node.url, maxRetries: 0 });
});
afterAll(async () => {
  await node.close();
  await mock.close();
});

/** The mock's order log: every order any account placed. */
const ordersPlaced = () => mock.state.orders.size;

describe('send refuses before any order', () => {
  it('control: with java-tron success answers the estimate reaches the rental quote', async () => {
    world.account = fixture('getaccount-activated');
    world.transfer = fixture('triggerconstantcontract-success');
    const estimate = await client.transfers.estimate({ from: SENDER, to: TO, token: 'USDT', amount: '1' });
    expect(estimate.energy.needed).toBe(64_285);
    expect(estimate.rent?.amount).toBeGreaterThanOrEqual(64_285);
  });

  it('a never-activated sender (getaccount {}): SENDER_NOT_ACTIVATED, "send it TRX first", no order', async () => {
    world.account = fixture('getaccount-not-activated');
    world.transfer = fixture('triggerconstantcontract-success');
    const before = node.requests.length;
    const error = await client.transfers.send({ token: 'USDT', to: TO, amount: '1', signer: { privateKey: KEY } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SENDER_NOT_ACTIVATED', details: { field: 'from', address: SENDER } });
    expect((error as Error).message).toContain('send it TRX first');
    expect(ordersPlaced()).toBe(0);
    expect((await client.orders.list()).total).toBe(0);
    expect(node.requests.slice(before).map((r) => r.url)).not.toContain('/wallet/broadcasttransaction');
  });

  it('a reverting transfer (java-tron: result true, REVERT message, ret FAILED, Error(string)): refused with the reason, no order', async () => {
    world.account = fixture('getaccount-activated');
    world.transfer = fixture('triggerconstantcontract-revert-reason');
    const error = await client.transfers.send({ token: 'USDT', to: TO, amount: '1', signer: { privateKey: KEY } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SIMULATION_FAILED', details: { reverted: true, reason: 'BlackList: sender is blacklisted' } });
    expect((error as Error).message).toMatch(/would fail on chain.*BlackList: sender is blacklisted.*nothing was ordered or sent/);
    expect(ordersPlaced()).toBe(0);
    // A revert without a reason (a paused token) is refused too, and so is the estimate itself.
    world.transfer = fixture('triggerconstantcontract-revert-bare');
    await expect(client.transfers.estimate({ from: SENDER, to: TO, token: 'USDT', amount: '1' })).rejects.toMatchObject({
      code: 'SIMULATION_FAILED',
      details: { reverted: true, reason: 'REVERT opcode executed' },
    });
    expect(ordersPlaced()).toBe(0);
    expect((await client.orders.list()).total).toBe(0);
  });
});
