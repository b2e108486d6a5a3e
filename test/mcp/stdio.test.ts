import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { TOOLS } from '../../src/mcp/tools/index.js';
import { TARGET, errorOf, ok, spawnMcp } from './helpers.js';

/**
 * The built command as an MCP client starts it: `node bin/trx-rent.js mcp --mock` spawned by the
 * SDK's StdioClientTransport. Needs the build (`npm run build`, or `npx tsup`).
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'trx-rent.js');

const spawnServer = (args: string[], answers?: ElicitResult[], configDir?: string) => spawnMcp(['mcp', '--mock', ...args], { answers, configDir });

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args }, undefined, { timeout: 20_000 })) as CallToolResult;

const ORDER = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: TARGET };

describe('trx-rent mcp --mock over stdio (the built bin)', () => {
  test('lists the tools, answers reads, refuses spends (read-only), exits when the client closes stdin', async () => {
    const s = await spawnServer([]);
    try {
      const { tools } = await s.client.listTools(undefined, { timeout: 10_000 });
      expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
      const balance = ok<{ trx: number }>(await call(s.client, 'get_balance'));
      expect(balance.trx).toBe(1_000_000_000);
      expect(ok<{ providers: unknown[] }>(await call(s.client, 'get_prices')).providers.length).toBeGreaterThan(0);
      expect(errorOf(await call(s.client, 'create_order', ORDER)).code).toBe('READ_ONLY');
      expect(errorOf(await call(s.client, 'x402_prices')).code).toBe('READ_ONLY');
      expect(errorOf(await call(s.client, 'create_order', { ...ORDER, amount: 10 })).code).toBe('READ_ONLY');
      expect(ok<{ trx: number }>(await call(s.client, 'get_balance')).trx).toBe(1_000_000_000);
      expect(s.stderr()).toMatch(/trx-rent mcp: on the embedded mock at http:\/\/127\.0\.0\.1:\d+; API key from embedded mock; .* read-only/);
    } finally {
      // ending stdin ends the server (the client would SIGTERM it after 2 s)
      expect(await s.close()).toBeLessThan(1900);
    }
    expect(s.stderr()).not.toMatch(/stopping \(SIGTERM\)/);
  });

  test('--allow-spend with caps: declined spends nothing, approved spends and is logged on stderr', async () => {
    const s = await spawnServer(
      ['--allow-spend', '--max-order-trx', '10', '--x402-budget', '0.05'],
      [{ action: 'decline' }, { action: 'accept', content: { approve: true } }, { action: 'decline' }, { action: 'accept', content: { approve: true } }],
    );
    try {
      expect(errorOf(await call(s.client, 'create_order', ORDER)).code).toBe('DECLINED');
      expect(ok<{ trx: number }>(await call(s.client, 'get_balance')).trx).toBe(1_000_000_000);
      expect(ok<{ total: number }>(await call(s.client, 'list_orders')).total).toBe(0);

      const created = ok<{ order: { id: string }; max_cost_trx: string }>(await call(s.client, 'create_order', ORDER));
      expect(ok<{ total: number }>(await call(s.client, 'list_orders')).total).toBe(1);

      expect(errorOf(await call(s.client, 'x402_prices')).code).toBe('DECLINED');
      const paid = ok<{ payment: { amount_usd: string } }>(await call(s.client, 'x402_prices'));
      expect(paid.payment.amount_usd).toBe('0.01');

      expect(errorOf(await call(s.client, 'create_order', { ...ORDER, amount: 1_000_000 })).code).toBe('SPEND_LIMIT');

      const err = s.stderr();
      expect(err).toMatch(/spending allowed within the caps/);
      expect(err).toMatch(/x402 wallet a throwaway TRON key/);
      expect(err).toContain(`spent create_order: order ${created.order.id}`);
      expect(err).toMatch(/refused create_order: .*\(DECLINED\)/);
      expect(err).toMatch(/paid x402_prices: 0\.01 USD in USDT .*\(x402 server total 0\.01 of 0\.05 USD\)/);
    } finally {
      await s.close();
    }
  });

  test('caps saved to the profile (--save-limits) apply to later servers; a flag overrides them', async () => {
    const configDir = mkdtempSync(join(tmpdir(), 'trx-rent-mcp-profile-'));
    const saved = spawnSync(process.execPath, [bin, 'mcp', '--max-order-trx', '1', '--save-limits', '--json'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 20_000,
      env: { PATH: process.env.PATH ?? '', TRX_RENT_CONFIG_DIR: configDir },
    });
    expect(saved.status, saved.stderr).toBe(0);
    expect(JSON.parse(saved.stdout)).toEqual({ profile: 'default', saved: { mcp_max_order_trx: '1' } });
    expect(JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')).profiles.default).toMatchObject({ mcp_max_order_trx: '1' });

    const capped = await spawnServer(['--allow-spend'], undefined, configDir);
    try {
      const error = errorOf(await call(capped.client, 'create_order', ORDER));
      expect(error.code).toBe('SPEND_LIMIT');
      expect(error.message).toMatch(/per-call cap of 1 TRX/);
    } finally {
      await capped.close();
    }
    const raised = await spawnServer(['--allow-spend', '--spend-without-confirmation', '--max-order-trx', '20'], undefined, configDir);
    try {
      ok(await call(raised.client, 'create_order', ORDER));
    } finally {
      await raised.close();
    }
  });
});
