/**
 * The CLI and a rental's target, in-process against the mock (its node found from the base URL):
 * `ensure` and `buy` to an address TRON cannot delegate to (never activated, a contract) are
 * refused before anything is ordered, with the code and how to activate it (`trx-rent mock fund`
 * on the mock), and no `finish with` command that could not succeed; `ensure --activate
 * --key-file` activates it from a funding wallet (a sandbox account) and rents; an order that
 * fails anyway names its reason and suggests no retry with the same key.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { sandboxAccounts } from '../../src/mock/chain/sandbox.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { type RecordedRequest, type Reply, scriptedServer } from '../helpers/scripted-server.js';
import { errorLine, json, runCliInProcess, tempDir } from './run.js';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
let mock: MockServer;
let env: Record<string, string>;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 23, rateLimits: false, timings: { selectMs: 20, fillMs: 30, verifyMs: 40 } });
  env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
});
afterAll(async () => {
  await mock?.close();
});

let n = 0;
const fresh = () => privateKeyToTronAddress(createHash('sha256').update(`cli activation ${++n}`).digest('hex'));
const orders = async () =>
  ((await (await fetch(`${mock.url}/api/v1/orders?limit=1`, { headers: { 'x-api-key': mock.apiKey } })).json()) as { total: number }).total;

describe('refused before anything is ordered', () => {
  it('ensure to a never-activated address: TARGET_NOT_ACTIVATED, the mock fund command and --activate in the hint, no finish command, no order', async () => {
    const target = fresh();
    const before = await orders();
    const r = await runCliInProcess(['ensure', target, '--energy', '65000', '--yes', '--json'], { env, timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(1);
    const error = errorLine(r);
    expect(error.code).toBe('TARGET_NOT_ACTIVATED');
    expect(error.message).toMatch(/not activated on chain.*nothing was ordered/);
    expect(error.hint).toContain(`trx-rent mock fund ${target} --trx 1`);
    expect(error.hint).toContain('--activate');
    expect(r.stderr).not.toContain('finish with');
    expect(r.stderr).not.toContain('--idempotency-key');
    expect(await orders()).toBe(before);
  });

  it('ensure and buy to a contract (the USDT token): TARGET_IS_CONTRACT, no order', async () => {
    const before = await orders();
    for (const args of [
      ['ensure', USDT, '--energy', '65000', '--yes', '--json'],
      ['buy', '65000', '--to', USDT, '--duration', '1h', '--yes', '--json'],
    ]) {
      const r = await runCliInProcess(args, { env, timeoutMs: 30_000 });
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(1);
      expect(errorLine(r)).toMatchObject({ code: 'TARGET_IS_CONTRACT' });
      expect(errorLine(r).hint).toMatch(/not to the contract/);
    }
    expect(await orders()).toBe(before);
  });

  it('buy to a never-activated address (also --dry-run): TARGET_NOT_ACTIVATED with the mock fund hint, no order; once funded, it fills', async () => {
    const target = fresh();
    const before = await orders();
    for (const extra of [[], ['--dry-run']]) {
      const r = await runCliInProcess(['buy', '65000', '--to', target, '--duration', '1h', '--yes', '--json', ...extra], { env, timeoutMs: 30_000 });
      expect(r.code, r.stderr).toBe(1);
      expect(errorLine(r)).toMatchObject({ code: 'TARGET_NOT_ACTIVATED' });
      expect(errorLine(r).hint).toContain(`trx-rent mock fund ${target} --trx 1`);
    }
    expect(await orders()).toBe(before);
    // As the hint says: fund it, then the same buy goes through.
    const funded = await runCliInProcess(['mock', 'fund', target, '--trx', '1', '--json'], { env });
    expect(funded.code, funded.stderr).toBe(0);
    const ok = await runCliInProcess(['buy', '65000', '--to', target, '--duration', '1h', '--yes', '--wait', '--json'], { env, timeoutMs: 30_000 });
    expect(ok.code, ok.stderr).toBe(0);
    expect(json(ok)).toMatchObject({ status: 'FILLED', target_address: target });
  });
});

describe('buy when the node cannot be read', () => {
  it('says so on stderr and orders anyway (the service then decides); ensure, which needs the node, stops', async () => {
    const node = await scriptedServer((): Reply => ({ status: 503, body: {} }));
    try {
      const before = await orders();
      const envWithNode = { ...env, TRX_RENT_TRON_NODE: node.url, TRX_RENT_MAX_RETRIES: '0' };
      const r = await runCliInProcess(['buy', '65000', '--to', 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW', '--duration', '1h', '--yes', '--json'], {
        env: envWithNode,
        timeoutMs: 60_000,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/could not check TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW on the TRON node .*ordering anyway/);
      expect(await orders()).toBe(before + 1);
      const ensure = await runCliInProcess(['ensure', fresh(), '--energy', '65000', '--yes', '--json'], { env: envWithNode, timeoutMs: 60_000 });
      expect(ensure.code).toBe(1);
      expect(errorLine(ensure).code).toBe('NODE_ERROR');
      expect(await orders()).toBe(before + 1);
    } finally {
      await node.close();
    }
  });
});

describe('ensure --activate', () => {
  it('activates from the funding wallet in --key-file (a sandbox account), then rents; the wallet pays the creation fee', async () => {
    const [funder] = sandboxAccounts(23, 1);
    const keyFile = join(tempDir(), 'funder.txt');
    writeFileSync(keyFile, `${funder!.private_key}\n`, { mode: 0o600 });
    const target = fresh();
    const before = mock.state.chain.trxBalance(funder!.address);
    const r = await runCliInProcess(['ensure', target, '--energy', '65000', '--activate', '--key-file', keyFile, '--yes', '--json'], {
      env,
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const out = json(r);
    expect(out.activation).toMatchObject({ address: target, from: funder!.address, amount_sun: 1, fee_sun: 1_100_000 });
    expect(out.order.status).toBe('FILLED');
    expect(mock.state.chain.isActivated(target)).toBe(true);
    expect(mock.state.chain.availableEnergy(target)).toBeGreaterThanOrEqual(65_000);
    expect(before - mock.state.chain.trxBalance(funder!.address)).toBe(1_100_001n);
    // The key never reaches the output.
    expect(r.stdout + r.stderr).not.toContain(funder!.private_key);
  });

  it('--key-file without --activate is a usage error; nothing read or ordered', async () => {
    const before = await orders();
    const r = await runCliInProcess(['ensure', fresh(), '--energy', '65000', '--key-file', '/nonexistent', '--yes', '--json'], { env });
    expect(r.code).toBe(2);
    expect(errorLine(r).message).toMatch(/--key-file is the funding wallet of --activate/);
    expect(await orders()).toBe(before);
  });
});

describe('an order that fails anyway', () => {
  it('names its reason (from the node) and suggests no retry with the same key', async () => {
    const target = fresh();
    // A node that takes the target for an account at the check, then answers as the chain has it.
    let asked = 0;
    const node = await scriptedServer((req: RecordedRequest): Reply => {
      const method = req.url.replace(/^\/wallet(solidity)?\//, '');
      if (method === 'getaccount') return { status: 200, body: asked++ === 0 ? { address: target, balance: 1, create_time: 1 } : {} };
      if (method === 'getaccountresource') return { status: 200, body: { freeNetLimit: 600 } };
      return { status: 200, body: { Error: `unexpected ${method}` } };
    });
    try {
      const r = await runCliInProcess(['ensure', target, '--energy', '65000', '--tron-node', node.url, '--yes', '--json'], { env, timeoutMs: 30_000 });
      expect(r.code, r.stderr).toBe(1);
      const error = errorLine(r);
      expect(error.code).toBe('ORDER_FAILED');
      expect(error.message).toMatch(/FAILED: TARGET_NOT_ACTIVATED/);
      // The node was given by --tron-node (not the mock's own): the hint says to send it TRX, or --activate.
      expect(error.hint).toMatch(new RegExp(`send ${target} some TRX first.*--activate`));
      expect(r.stderr).not.toContain('finish with');
    } finally {
      await node.close();
    }
  });
});
