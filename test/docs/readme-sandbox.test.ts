/**
 * Two README passages run as written, taken from README.md (never copied here):
 * - the two-terminal sandbox (`npx trx-rent mock --wallet key.txt`, then `npx trx-rent send usdt …
 *   --key-file key.txt --yes`): two bash processes in the clone, the second with no setting but
 *   the config directory both terminals share; only the port (a free one, not 8787) and the key
 *   file's directory change. The mock's chain is the judge.
 * - the MCP client configuration for a clone: the command and args of its JSON, with the clone's
 *   path for /path/to/trx-rent, started the way an MCP client starts it, from another directory.
 * Needs the build (dist/).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { freePort } from '../helpers/ports.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { privateKeyToTronAddress } from '../../src/protocol/tron-transaction.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const blocks = (lang: string) => [...readme.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]!);

function bash(script: string, env: Record<string, string>, timeout: number) {
  return new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
    execFile('bash', ['-c', script], { cwd: root, env, timeout, encoding: 'utf8', killSignal: 'SIGKILL' }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe("the README's sandbox and MCP configuration", { timeout: 120_000 }, () => {
  it('terminal 1: npx trx-rent mock --wallet key.txt; terminal 2: npx trx-rent send … --key-file key.txt --yes', async () => {
    const [block] = blocks('sh').filter((b) => b.includes('mock --wallet key.txt'));
    expect(block).toBeDefined();
    const lines = block!.split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
    expect(lines).toHaveLength(2);
    const dir = mkdtempSync(join(tmpdir(), 'trx-rent-readme-sandbox-'));
    const keyFile = join(dir, 'key.txt');
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, TRX_RENT_CONFIG_DIR: dir, npm_config_update_notifier: 'false' };
    const port = await freePort();
    const first = `${lines[0]!.replace('key.txt', keyFile)} --port ${port} --quiet`;
    // Its own process group: npx runs the CLI as a child, and the group is what stops it all.
    const mock: ChildProcess = spawn('bash', ['-c', `exec ${first}`], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const closed = new Promise((r) => mock.once('close', r));
    let out = '';
    mock.stdout!.on('data', (d) => (out += d));
    mock.stderr!.on('data', (d) => (out += d));
    try {
      const deadline = Date.now() + 30_000;
      const recorded = () => existsSync(join(dir, 'mocks')) && readdirSync(join(dir, 'mocks')).some((n) => n.endsWith(`-${port}.json`));
      while (!(recorded() && /"memo"|Press Ctrl\+C/.test(out)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(recorded(), out).toBe(true);
      const sender = privateKeyToTronAddress(readFileSync(keyFile, 'utf8').trim());
      const recipient = /--to (T\w{33})/.exec(lines[1]!)![1]!;
      const account = async (a: string) => ((await (await fetch(`http://127.0.0.1:${port}/__mock/chain/accounts/${a}`)).json()) as { tokens: { USDT: string } }).tokens.USDT;
      const before = Number(await account(recipient));
      const send = await bash(lines[1]!.replace('key.txt', keyFile), env, 60_000);
      expect(send.status, `${send.stdout}\n${send.stderr}`).toBe(0);
      expect(await account(sender)).toBe('999');
      expect(Number(await account(recipient))).toBe(before + 1);
    } finally {
      process.kill(-mock.pid!, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-mock.pid!, 'SIGKILL'), 5_000);
      await closed;
      clearTimeout(timer);
    }
  });

  it('the clone configuration starts the MCP server from another directory and lists its tools', async () => {
    const config = blocks('json')
      .map((b) => JSON.parse(b) as { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> })
      .find((c) => c.mcpServers['trx-rent']?.args.some((a) => a.includes('/path/to/trx-rent')));
    expect(config).toBeDefined();
    const server = config!.mcpServers['trx-rent']!;
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const elsewhere = mkdtempSync(join(tmpdir(), 'trx-rent-mcp-client-'));
    const transport = new StdioClientTransport({
      command: server.command === 'node' ? process.execPath : server.command,
      args: server.args.map((a) => a.replace('/path/to/trx-rent', root.replace(/\/$/, ''))),
      cwd: elsewhere,
      stderr: 'pipe',
      env: { PATH: process.env.PATH ?? '', TRX_RENT_CONFIG_DIR: elsewhere, ...server.env },
    });
    const client = new Client({ name: 'readme-clone', version: '1.0.0' });
    await client.connect(transport, { timeout: 20_000 });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['send_token', 'ensure_resources']));
    } finally {
      await client.close();
    }
  });
});
