/**
 * `trx-rent ensure` and `trx-rent send` against a mock on 127.0.0.1 (its simulated TRON node at
 * the same origin): in-process for the scripted paths (--yes, --json, where the key may come
 * from), and the built CLI in a pseudo-terminal (util-linux `script`) for the confirmation with
 * the cost and the saving, and Ctrl+C before the broadcast.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { trxToSun } from '../../src/index.js';
import { type PtyStep, fold, inPty as pty } from './helpers.js';
import { errorLine, json, runCliInProcess, tempDir } from './run.js';

const hasScript = spawnSync('script', ['--version']).status === 0;
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

let mock: MockServer;
let slow: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 26, timings: { selectMs: 20, fillMs: 40, verifyMs: 60 } });
  // Fills that take seconds, so Ctrl+C lands while the order is being filled.
  slow = await startMockServer({ port: 0, rateLimits: false, seed: 27, timings: { selectMs: 500, fillMs: 4_000, verifyMs: 100 } });
});
afterAll(async () => {
  await mock?.close();
  await slow?.close();
});

let keyByte = 0x40;
function wallet(server: MockServer, usdt = 0n) {
  const privateKey = (++keyByte).toString(16).repeat(32).slice(0, 64);
  const address = privateKeyToTronAddress(privateKey);
  const chain = server.state.chain;
  if (usdt > 0n) chain.syntheticTransfer({ token: chain.token('USDT')!, to: address, amount: usdt * 1_000_000n, label: `fund ${address}` });
  chain.activate(address); // an account on chain (AccountCreate): java-tron refuses a sender, or a delegation to a target, that is none
  return { privateKey, address };
}

function envFor(server: MockServer, extra: Record<string, string> = {}) {
  const account = server.state.createAccount({ trx_sun: trxToSun('1000') });
  return { account, env: { TRX_RENT_BASE_URL: server.url, TRX_RENT_API_KEY: account.api_key, TRX_RENT_TRON_NODE: server.url, ...extra } };
}

/** How many orders the account placed, from the API itself. */
async function orderCount(server: MockServer, apiKey: string): Promise<number> {
  const r = await fetch(`${server.url}/api/v1/orders`, { headers: { 'x-api-key': apiKey } });
  return (await r.json()).total;
}

describe('trx-rent ensure', () => {
  it('--yes --json buys the deficit rounded to the minimum; again it buys nothing', async () => {
    const { env, account } = envFor(mock);
    const target = wallet(mock);
    const first = await runCliInProcess(['ensure', target.address, '--energy', '30000', '--yes', '--json'], { env, timeoutMs: 20_000 });
    expect(first.code, first.stderr).toBe(0);
    const bought = json(first);
    expect(bought).toMatchObject({ address: target.address, bought: { energy: 65_000 }, after: { energy: 65_000 }, order: { status: 'FILLED' } });
    expect(mock.state.chain.availableEnergy(target.address)).toBe(65_000);
    const again = json(await runCliInProcess(['ensure', target.address, '--energy', '30000', '--yes', '--json'], { env }));
    expect(again).toMatchObject({ order: null, cost_sun: 0, bought: { energy: 0 } });
    expect(await orderCount(mock, account.api_key)).toBe(1);
  });

  it('without a terminal and without --yes it refuses before ordering; a cap below the cost refuses too', async () => {
    const { env, account } = envFor(mock);
    const target = wallet(mock);
    const r = await runCliInProcess(['ensure', target.address, '--energy', '65000'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing to place the order without confirmation/);
    const capped = await runCliInProcess(['ensure', target.address, '--energy', '65000', '--max-cost', '0.01', '--yes', '--json'], { env });
    expect(errorLine(capped)).toMatchObject({ code: 'SPENDING_CAP_EXCEEDED' });
    expect(await orderCount(mock, account.api_key)).toBe(0);
  });
});

describe('trx-rent send', () => {
  it('--yes --json: the key from a file, USDT moves, no TRX burnt for energy, the saving reported', async () => {
    const { env } = envFor(mock);
    const sender = wallet(mock, 50n);
    const recipient = wallet(mock, 1n);
    const dir = tempDir();
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, `${sender.privateKey}\n`, { mode: 0o600 });
    const r = await runCliInProcess(['send', 'usdt', '--to', recipient.address, '--amount', '10', '--key-file', keyFile, '--yes', '--json'], {
      env,
      timeoutMs: 20_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const sent = json(r);
    expect(sent).toMatchObject({ from: sender.address, to: recipient.address, amount: '10', receipt: { result: 'SUCCESS', energy_burned_sun: 0 } });
    expect(sent.saving_sun).toBe(sent.burn_cost_sun - sent.total_cost_sun);
    expect(sent.saving_sun).toBeGreaterThan(0);
    expect(mock.state.chain.tokenBalance(recipient.address, USDT)).toBe(11_000_000n);
    expect(r.stdout + r.stderr).not.toContain(sender.privateKey);
  });

  it('the key from TRX_RENT_PRIVATE_KEY; with no key and no terminal it stops before anything (keys never from argv)', async () => {
    const sender = wallet(mock, 5n);
    const recipient = wallet(mock, 1n);
    const { env } = envFor(mock, { TRX_RENT_PRIVATE_KEY: sender.privateKey });
    const ok = await runCliInProcess(['send', 'usdt', '--to', recipient.address, '--amount', '1', '--yes', '--json'], { env, timeoutMs: 20_000 });
    expect(ok.code, ok.stderr).toBe(0);
    expect(json(ok).from).toBe(sender.address);
    const { env: noKey, account } = envFor(mock);
    const r = await runCliInProcess(['send', 'usdt', '--to', recipient.address, '--amount', '1', '--yes'], { env: noKey });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no signing key/);
    expect(await orderCount(mock, account.api_key)).toBe(0);
    const flag = await runCliInProcess(['send', 'usdt', '--to', recipient.address, '--amount', '1', '--key', sender.privateKey], { env: noKey });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/unknown option '--key'/);
  });
});

describe('trx-rent tx', () => {
  it('says confirmed for a sent transfer (the expiration from the kept record), pending or expired for one in no block', async () => {
    const sender = wallet(mock, 5n);
    const recipient = wallet(mock, 1n);
    const { env } = envFor(mock, { TRX_RENT_PRIVATE_KEY: sender.privateKey });
    const configDir = tempDir();
    const sent = json(
      await runCliInProcess(['send', 'usdt', '--to', recipient.address, '--amount', '1', '--idempotency-key', 'tx-cmd-1', '--yes', '--json'], {
        env,
        configDir,
        timeoutMs: 20_000,
      }),
    );
    const confirmed = await runCliInProcess(['tx', sent.tx_id, '--json'], { env, configDir });
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(json(confirmed)).toMatchObject({ tx_id: sent.tx_id, state: 'confirmed', result: 'SUCCESS', block: sent.receipt.block, idempotency_key: 'tx-cmd-1' });
    expect(json(confirmed).expiration).toBeGreaterThan(0);
    const unknown = 'ab'.repeat(32);
    expect(json(await runCliInProcess(['tx', unknown, '--json'], { env, configDir }))).toMatchObject({ tx_id: unknown, state: 'pending' });
    // An expiration long past: the solidified block (19 blocks behind the head) is beyond it.
    const past = String(Date.now() - 3_600_000);
    expect(json(await runCliInProcess(['tx', unknown, '--expiration', past, '--json'], { env, configDir }))).toMatchObject({ state: 'expired' });
    const bad = await runCliInProcess(['tx', 'nope'], { env, configDir });
    expect(bad.code).toBe(2);
  });
});

/** The send flows in a 220-column terminal, 25 s at most. */
const inPty = (args: string[], steps: PtyStep[], env: Record<string, string>, timeoutMs = 25_000) => pty(args, steps, env, timeoutMs, 220);

describe.skipIf(!hasScript)('trx-rent send in a pseudo-terminal', { timeout: 40_000 }, () => {
  it('asks for the key hidden, shows the cost and the saving, sends on yes', async () => {
    const { env } = envFor(mock);
    const sender = wallet(mock, 20n);
    const recipient = wallet(mock); // empty: about 130,000 energy
    const r = await inPty(
      ['send', 'usdt', '--to', recipient.address, '--amount', '2.5'],
      [
        { expect: /Sender's private key/, send: `${sender.privateKey}\r` },
        { expect: /Send 2\.5 USDT from T\w+ to T\w+ for about [\d,]+ SUN \([\d.]+ TRX\), saving [\d,]+ SUN \([\d.]+ TRX\) against burning\?/, send: 'y\r' },
      ],
      env,
    );
    expect(r.unmatched, r.output).toEqual([]);
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(/energy\s+needs 130,000, has 0, short 130,000/);
    expect(r.output).toMatch(/burning\s+13,000,000 SUN \(13 TRX\) at 100 SUN per energy/);
    expect(r.output).toMatch(/Sent 2\.5 USDT to T\w+ in block \d+/);
    expect(r.output).toMatch(/saved\s+[\d,]+ SUN/);
    expect(r.output).not.toContain(sender.privateKey);
    expect(mock.state.chain.tokenBalance(recipient.address, USDT)).toBe(2_500_000n);
  });

  it('Ctrl+C at the confirmation sends nothing and orders nothing', async () => {
    const { env, account } = envFor(mock);
    const sender = wallet(mock, 20n);
    const recipient = wallet(mock, 1n);
    const r = await inPty(
      ['send', 'usdt', '--to', recipient.address, '--amount', '1'],
      [
        { expect: /Sender's private key/, send: `${sender.privateKey}\r` },
        { expect: /for about [\d,]+ SUN .*saving [\d,]+ SUN/, send: '\x03' },
      ],
      env,
    );
    expect(r.unmatched, r.output).toEqual([]);
    expect(r.code).toBe(130);
    expect(await orderCount(mock, account.api_key)).toBe(0);
    expect(mock.state.chain.tokenBalance(recipient.address, USDT)).toBe(1_000_000n);
    expect(mock.state.chain.tokenBalance(sender.address, USDT)).toBe(20_000_000n);
  });

  it('Ctrl+C while the energy is being rented: the transfer is not sent, and the message says so', async () => {
    const sender = wallet(slow, 20n);
    const recipient = wallet(slow, 1n);
    const { env } = envFor(slow, { TRX_RENT_PRIVATE_KEY: sender.privateKey });
    const r = await inPty(
      ['send', 'usdt', '--to', recipient.address, '--amount', '1'],
      [
        { expect: /saving [\d,]+ SUN .*against burning\?/, send: 'y\r' },
        { expect: /waiting for the fill/, send: '\x03' },
      ],
      env,
    );
    expect(r.unmatched, r.output).toEqual([]);
    expect(r.code).toBe(130);
    expect(fold(r.output)).toMatch(
      /Interrupted \(Ctrl\+C\) while waiting for order (\S+) and its delegation \(stage delegation\): the transfer was not sent; order \1 was placed and goes on/,
    );
    expect(fold(r.output)).toMatch(/finish with: trx-rent send usdt --to T\w+ --amount 1 --idempotency-key [0-9a-f-]{36}/);
    // Even once the order fills and the energy arrives, nothing was broadcast.
    await slow.state.advance(0);
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(slow.state.chain.tokenBalance(recipient.address, USDT)).toBe(1_000_000n);
    expect(slow.state.chain.tokenBalance(sender.address, USDT)).toBe(20_000_000n);
    expect([...slow.state.chain.transactions.values()].some((t) => t.owner === sender.address)).toBe(false);
  });
});
