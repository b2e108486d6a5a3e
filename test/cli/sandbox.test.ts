/**
 * The mock as a whole sandbox, with two real processes as a person runs them: `trx-rent mock
 * --wallet key.txt` in one terminal, `trx-rent send usdt … --key-file key.txt --yes` in another
 * with no other setting (only the shared config directory both terminals have anyway). The
 * mock's own chain is the judge of balances; then `mock fund`, the same API key for the same
 * seed across restarts, the node setting taken from the mock when the base URL is one, and a
 * hint that names the TRON node (not the base URL) when the node is what is wrong.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';
import { ADDRESS, errorLine, json, runCli, startCli, tempDir } from './helpers.js';
import { runCliInProcess } from './run.js';

const READY = /"memo": "[^"]+"\s*}/;

async function chainAccount(url: string, address: string): Promise<{ trx_sun: number; tokens: Record<string, string> }> {
  const res = await fetch(`${url}/__mock/chain/accounts/${address}`);
  return (await res.json()) as { trx_sun: number; tokens: Record<string, string> };
}

describe('trx-rent mock as a sandbox', { timeout: 90_000 }, () => {
  it('mock --wallet in one process, send --key-file --yes in another with no setting: the USDT moves on the mock', async () => {
    const configDir = tempDir();
    const keyFile = join(tempDir(), 'key.txt');
    const server = await startCli(['mock', '--port', '0', '--seed', '7', '--wallet', keyFile, '--quiet', '--json'], READY, { configDir });
    let stopped = false;
    try {
      const info = JSON.parse(server.output().stdout);
      expect(info.tron_node).toBe(info.url);
      const key = readFileSync(keyFile, 'utf8').trim();
      expect(statSync(keyFile).mode & 0o777).toBe(0o600);
      const sender = privateKeyToTronAddress(key);
      expect(info.wallet).toMatchObject({ address: sender, trx_sun: 1_000_000_000, usdt: '1000' });
      // Activated (java-tron's getaccount answers {} otherwise) and holding both tokens.
      const account = (await (
        await fetch(`${info.url}/wallet/getaccount`, { method: 'POST', body: JSON.stringify({ address: sender, visible: true }) })
      ).json()) as { address?: string };
      expect(account.address).toBe(sender);
      const before = await chainAccount(info.url, sender);
      const recipientBefore = await chainAccount(info.url, ADDRESS);
      expect(before.tokens.USDT).toBe('1000');

      // The second terminal: nothing but the command (and the config dir every terminal shares).
      const send = await runCli(['send', 'usdt', '--to', ADDRESS, '--amount', '1', '--key-file', keyFile, '--yes', '--json'], { configDir, timeoutMs: 60_000 });
      expect(send.code, send.stderr).toBe(0);
      const sent = json(send);
      expect(sent).toMatchObject({ from: sender, to: ADDRESS, amount: '1', confirmed: 'included', receipt: { result: 'SUCCESS' } });
      const after = await chainAccount(info.url, sender);
      expect(after.tokens.USDT).toBe('999');
      expect(Number((await chainAccount(info.url, ADDRESS)).tokens.USDT)).toBe(Number(recipientBefore.tokens.USDT) + 1);
      // The energy was rented through the mock's API (an order on the demo account), not burnt.
      expect(sent.rent_cost_sun).toBeGreaterThan(0);
      expect(sent.receipt.energy_burned_sun).toBe(0);

      // A person reading the human output is told where the settings came from.
      const human = await runCli(['send', 'usdt', '--to', ADDRESS, '--amount', '1', '--key-file', keyFile, '--yes', '--no-json'], {
        configDir,
        timeoutMs: 60_000,
      });
      expect(human.code, human.stderr).toBe(0);
      expect(human.stderr).toContain(`No base URL set: using the mock at ${info.url} (pid ${server.child.pid})`);
      expect(human.stderr).toMatch(/TRON node: the mock's own at/);

      // `mock fund` from another process funds any address, TRX first.
      const fresh = privateKeyToTronAddress('7e'.repeat(32));
      const fund = await runCli(['mock', 'fund', fresh, '--trx', '5', '--usdt', '2.5', '--json'], { configDir });
      expect(fund.code, fund.stderr).toBe(0);
      expect(json(fund)).toMatchObject({ address: fresh, trx_sun: 5_000_000, usdt: '2.5' });
      expect(await chainAccount(info.url, fresh)).toMatchObject({ trx_sun: 5_000_000, tokens: { USDT: '2.5' } });

      // The same seed gives the same API key after a restart; the record of the stopped mock is gone.
      const first = await server.stop();
      stopped = true;
      expect(first.signal ?? first.code).toBeDefined();
      expect(readdirSync(join(configDir, 'mocks'))).toEqual([]);
      const again = await startCli(['mock', '--port', '0', '--seed', '7', '--quiet', '--json'], READY, { configDir: tempDir() });
      try {
        expect(JSON.parse(again.output().stdout).api_key).toBe(info.api_key);
      } finally {
        await again.stop();
      }
    } finally {
      if (!stopped) await server.stop();
    }
  });

  it('with the base URL on a mock the node is the mock; a broken TRON node gets a hint naming the node setting', async () => {
    const server = await startCli(['mock', '--port', '0', '--seed', '8', '--quiet', '--json'], READY, { configDir: tempDir() });
    try {
      const info = JSON.parse(server.output().stdout);
      const env = { TRX_RENT_BASE_URL: info.url, TRX_RENT_API_KEY: info.api_key };
      const ensure = await runCliInProcess(['ensure', ADDRESS, '--energy', '65000', '--yes', '--no-json'], { env, timeoutMs: 30_000 });
      expect(ensure.code, ensure.stderr).toBe(0);
      expect(ensure.stderr).toContain(`TRON node: the mock's own at ${info.url}`);

      const broken = await runCliInProcess(['ensure', ADDRESS, '--energy', '65000', '--yes', '--json'], {
        env: { ...env, TRX_RENT_TRON_NODE: 'http://127.0.0.1:9' },
        timeoutMs: 30_000,
      });
      expect(broken.code).not.toBe(0);
      const error = errorLine(broken);
      expect(error.hint).toMatch(/TRON node http:\/\/127\.0\.0\.1:9 \(from TRX_RENT_TRON_NODE\)/);
      expect(error.hint).not.toMatch(/base URL|TRX_RENT_BASE_URL/);
      const flag = await runCliInProcess(['ensure', ADDRESS, '--energy', '65000', '--yes', '--json', '--tron-node', 'http://127.0.0.1:9'], {
        env,
        timeoutMs: 30_000,
      });
      expect(errorLine(flag).hint).toMatch(/fix --tron-node/);
    } finally {
      await server.stop();
    }
  });
});
