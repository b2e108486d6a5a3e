/**
 * `client.chain.ensure` and a rental's target: TRON refuses a delegation to an address that is no
 * account and to a contract (java-tron `DelegateResourceActuator`), so ensure refuses both before
 * anything is ordered (TARGET_NOT_ACTIVATED, TARGET_IS_CONTRACT); `activate: { signer }`
 * activates a never-activated address first (a TRX transfer from the funding wallet, which pays
 * java-tron's account-creation fee), and an order that fails anyway names its failure_reason and
 * is final. The mock is both the account API and the node, and its order log and chain are the
 * judges.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrxRent } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { fromPrivateKey } from '../../src/protocol/signers/local.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { type RecordedRequest, type Reply, scriptedServer } from '../helpers/scripted-server.js';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
let mock: MockServer;
let client: TrxRent;
beforeAll(async () => {
  mock = await startMockServer({ seed: 41, rateLimits: false, timings: { selectMs: 20, fillMs: 30, verifyMs: 40 } });
  client = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, tronNode: mock.url, maxRetries: 0 });
});
afterAll(async () => {
  await mock?.close();
});

let n = 0;
const key = () => createHash('sha256').update(`activation test ${++n}`).digest('hex');
/** A fresh address with nothing on chain (not an account). */
const fresh = () => privateKeyToTronAddress(key());
const orders = async () => (await client.orders.list({ limit: 1 })).total;
const getaccount = async (address: string) =>
  (await (await fetch(`${mock.url}/wallet/getaccount`, { method: 'POST', body: JSON.stringify({ address, visible: true }) })).json()) as {
    address?: string;
    balance?: number;
  };

describe('a target no delegation can reach is refused before anything is ordered', () => {
  it('never activated (getaccount {}): TARGET_NOT_ACTIVATED saying how to activate it; plan, ensure and checkTarget alike', async () => {
    const target = fresh();
    const before = await orders();
    const error = await client.chain.ensure({ address: target, energy: 65_000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TARGET_NOT_ACTIVATED', details: { field: 'address', address: target, failure_reason: 'TARGET_NOT_ACTIVATED' } });
    expect((error as Error).message).toMatch(/not activated on chain.*nothing was ordered.*Send it TRX first.*activate: \{ signer \}/);
    await expect(client.chain.plan({ address: target, energy: 65_000 })).rejects.toMatchObject({ code: 'TARGET_NOT_ACTIVATED' });
    await expect(client.chain.checkTarget(target)).rejects.toMatchObject({ code: 'TARGET_NOT_ACTIVATED' });
    expect(await orders()).toBe(before);
    // Tokens alone make no account, on TRON and on the mock: still refused.
    mock.state.chain.syntheticTransfer({ token: mock.state.chain.token('USDT')!, to: target, amount: 5_000_000n, label: 'tokens only' });
    await expect(client.chain.ensure({ address: target, energy: 65_000 })).rejects.toMatchObject({ code: 'TARGET_NOT_ACTIVATED' });
    expect(await orders()).toBe(before);
  });

  it('a contract (the USDT token, getaccount type Contract): TARGET_IS_CONTRACT, nothing ordered', async () => {
    const before = await orders();
    const error = await client.chain.ensure({ address: USDT, energy: 65_000 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'TARGET_IS_CONTRACT', details: { address: USDT } });
    expect((error as Error).message).toContain('Do not allow delegate resources to contract addresses');
    // Even with a funding wallet: a contract is never "activated" into a target.
    await expect(client.chain.ensure({ address: USDT, energy: 65_000, activate: { signer: { privateKey: key() } } })).rejects.toMatchObject({
      code: 'TARGET_IS_CONTRACT',
    });
    expect(await orders()).toBe(before);
  });

  it('an activated account is taken: checkTarget returns what it read', async () => {
    const target = fresh();
    mock.state.chain.fundTrx(target, 2_000_000n);
    expect(await client.chain.checkTarget(target)).toEqual({ address: target, activated: true, contract: false, balance_sun: 2_000_000 });
  });
});

describe('activate: { signer } activates the address first, from the funding wallet', () => {
  it('sends the TRX, pays the account-creation fee read from the chain parameters, then rents: the address is an account holding the energy', async () => {
    const funderKey = key();
    const funder = privateKeyToTronAddress(funderKey);
    mock.state.chain.fundTrx(funder, 10_000_000n);
    const target = fresh();
    const before = await orders();
    const plan = await client.chain.plan({ address: target, energy: 65_000, activate: { signer: { privateKey: funderKey } } });
    // The most it can cost: getCreateNewAccountFeeInSystemContract (1 TRX) + getCreateAccountFee (0.1 TRX) on the mock's chain.
    expect(plan.activation).toEqual({ address: target, from: funder, amount_sun: 1, fee_sun: 1_100_000, total_sun: 1_100_001 });
    expect(plan.before).toEqual({ energy: 0, bandwidth: 600, freeBandwidth: 600 });
    expect(plan.rentals).toHaveLength(1);
    expect(await getaccount(target)).toEqual({});
    const steps: string[] = [];
    const result = await client.chain.ensure({
      address: target,
      energy: 65_000,
      activate: { signer: { privateKey: funderKey } },
      onProgress: (e) => steps.push(e.step),
    });
    expect(steps.slice(0, 2)).toEqual(['activated', 'ordered']);
    expect(result.activation).toMatchObject({ address: target, from: funder, amount_sun: 1 });
    expect(result.activation!.tx_id).toMatch(/^[0-9a-f]{64}$/);
    // The receipt's fee: 1 TRX for the account, 0.1 TRX burnt for its bandwidth (a funder with no staked bandwidth).
    expect(result.activation!.fee_sun).toBe(1_100_000);
    expect(await getaccount(target)).toMatchObject({ address: target, balance: 1 });
    expect(mock.state.chain.trxBalance(funder)).toBe(10_000_000n - 1n - 1_100_000n);
    const info = (await (
      await fetch(`${mock.url}/wallet/gettransactioninfobyid`, { method: 'POST', body: JSON.stringify({ value: result.activation!.tx_id }) })
    ).json()) as { fee: number };
    expect(info.fee).toBe(1_100_000);
    expect(result.order?.status).toBe('FILLED');
    expect(result.after.energy).toBeGreaterThanOrEqual(65_000);
    expect(mock.state.chain.availableEnergy(target)).toBeGreaterThanOrEqual(65_000);
    expect(await orders()).toBe(before + 1);
    // Again: already an account, nothing sent (the funder's balance stays), enough energy, nothing bought.
    const again = await client.chain.ensure({ address: target, energy: 65_000, activate: { signer: { privateKey: funderKey } } });
    expect(again).toMatchObject({ activation: null, order: null, cost_sun: 0 });
    expect(mock.state.chain.trxBalance(funder)).toBe(10_000_000n - 1_100_001n);
    expect(await orders()).toBe(before + 1);
  });

  it('a funding wallet that is no account, or holds less than the amount plus the fees: refused, nothing sent or ordered', async () => {
    const target = fresh();
    const before = await orders();
    const ghostKey = key();
    await expect(client.chain.ensure({ address: target, energy: 65_000, activate: { signer: { privateKey: ghostKey } } })).rejects.toMatchObject({
      code: 'SENDER_NOT_ACTIVATED',
      details: { field: 'activate.signer', address: privateKeyToTronAddress(ghostKey) },
    });
    const poorKey = key();
    mock.state.chain.fundTrx(privateKeyToTronAddress(poorKey), 1_000_000n);
    const poor = await client.chain.ensure({ address: target, energy: 65_000, activate: { signer: { privateKey: poorKey } } }).catch((e: unknown) => e);
    expect(poor).toMatchObject({ code: 'INSUFFICIENT_TRX', details: { balance_sun: 1_000_000, needed_sun: 1_100_001 } });
    expect(await getaccount(target)).toEqual({});
    expect(mock.state.chain.trxBalance(privateKeyToTronAddress(poorKey))).toBe(1_000_000n);
    expect(await orders()).toBe(before);
  });

  it('client.chain.activate alone: activates once, then leaves an account alone', async () => {
    const funderKey = key();
    mock.state.chain.fundTrx(privateKeyToTronAddress(funderKey), 5_000_000n);
    const target = fresh();
    const done = await client.chain.activate({ address: target, signer: { privateKey: funderKey }, amountSun: 1_000_000 });
    expect(done).toMatchObject({ address: target, amount_sun: 1_000_000 });
    expect(await getaccount(target)).toMatchObject({ balance: 1_000_000 });
    expect(await client.chain.activate({ address: target, signer: { privateKey: funderKey } })).toBeUndefined();
  });

  it('the funding wallet may be any Signer of its owner key (a KMS key, a function): the same activation; another permission is refused', async () => {
    const funderKey = key();
    mock.state.chain.fundTrx(privateKeyToTronAddress(funderKey), 5_000_000n);
    const target = fresh();
    const done = await client.chain.activate({ address: target, signer: fromPrivateKey(funderKey) });
    expect(done).toMatchObject({ address: target, from: privateKeyToTronAddress(funderKey), amount_sun: 1 });
    expect(await getaccount(target)).toMatchObject({ address: target, balance: 1 });
    await expect(client.chain.activate({ address: fresh(), signer: fromPrivateKey(funderKey, { permissionId: 2 }) })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { field: 'activate.signer' },
    });
  });
});

describe('an order that fails says why, and is final', () => {
  it('a node that took the target for an account while the chain refuses it: ORDER_FAILED with failure_reason TARGET_NOT_ACTIVATED, outcome refused', async () => {
    // The node answers getaccount as an account once (the check), then as the chain has it ({}).
    const target = fresh();
    let asked = 0;
    const node = await scriptedServer((req: RecordedRequest): Reply => {
      const method = req.url.replace(/^\/wallet(solidity)?\//, '');
      if (method === 'getaccount') return { status: 200, body: asked++ === 0 ? { address: target, balance: 1, create_time: 1 } : {} };
      if (method === 'getaccountresource') return { status: 200, body: { freeNetLimit: 600 } };
      return { status: 200, body: { Error: `unexpected ${method}` } };
    });
    try {
      const lying = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, tronNode: node.url, maxRetries: 0 });
      const error = await lying.chain.ensure({ address: target, energy: 65_000, idempotencyKey: `fail-${target}` }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'ORDER_FAILED', details: { stage: 'delegation', failure_reason: 'TARGET_NOT_ACTIVATED', outcome: 'refused' } });
      expect((error as Error).message).toMatch(/^Order \S+ FAILED: TARGET_NOT_ACTIVATED \(.*not activated on chain/);
      // The service's own record agrees, and nothing was charged.
      const id = (error as { details: { order_id: string } }).details.order_id;
      expect((await (await fetch(`${mock.url}/__mock/orders/${id}`)).json()).failure_reason).toBe('TARGET_NOT_ACTIVATED');
    } finally {
      await node.close();
    }
  });
});
