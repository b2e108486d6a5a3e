/**
 * The README's shell blocks and MCP configurations, each run alone in a fresh folder of the
 * clone, as a user types them (see readme-blocks.ts for the shell they get):
 * - the two-terminal sandbox, as written (no port: on 8787, or a free one when 8787 is taken);
 * - the send examples for a real wallet, with their placeholders filled (a mock address and the
 *   sandbox's key file), answering their confirmation at a terminal;
 * - the payouts CLI lines in the sandbox's terminal 2, the confirmation answered at a terminal;
 * - the CLI tour, with bash, while 8787 is held (as the sandbox's mock would hold it);
 * - the rules lines, one after another, each to its end (`rules run` until SIGTERM);
 * - both MCP configurations, started the way an MCP client starts them, from another folder.
 * The mock's chain is the judge of what was paid. Needs the build (dist/).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { holdPort } from '../helpers/ports.js';
import { type Block, background, bash, block, commands, freshFolder, linePty, root, run, shellEnv } from './readme-blocks.js';

const hasScript = (await run('script', ['--version'], { cwd: root, env: { PATH: process.env.PATH ?? '' }, timeout: 10_000 })).status === 0;
/** An account on every mock's chain from genesis: the README's rental target. */
const GENESIS = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';

interface Chain {
  tokens: { USDT: string };
}
const usdtOf = async (url: string, address: string) => Number(((await (await fetch(`${url}/__mock/chain/accounts/${address}`)).json()) as Chain).tokens.USDT);

/**
 * Terminal 1 of the sandbox block, as written, in `dir` with its own config directory: the mock
 * and its funded wallet (key.txt). Resolves once it serves; `stop` ends it with SIGTERM.
 */
async function sandbox(dir: string, configDir: string) {
  const [terminal1] = commands(block('npx trx-rent mock --wallet key.txt'));
  const mock = background(terminal1!, { cwd: dir, env: shellEnv(configDir) });
  try {
    await mock.until(() => /"memo"/.test(mock.output().stdout), 60_000, 'the mock serving');
  } catch (error) {
    await mock.stop('SIGKILL');
    throw error;
  }
  const info = JSON.parse(mock.output().stdout) as { url: string; wallet: { address: string } };
  return { url: info.url, sender: info.wallet.address, mock };
}

/**
 * Once `sender`'s USDT balance drops (its transfer is in a block), advance the mock's clock by
 * a minute (`POST /__mock/clock/advance`): the solidified block, 19 blocks behind the head,
 * passes the transfer's block at once. `stop` ends the watch (and reports a failed advance).
 */
function solidifySoon(url: string, sender: string) {
  let stopped = false;
  const watch = (async () => {
    const start = await usdtOf(url, sender);
    for (let i = 0; i < 1_200 && !stopped; i++) {
      if ((await usdtOf(url, sender)) < start) {
        const moved = await fetch(`${url}/__mock/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ms":60000}' });
        if (!moved.ok) throw new Error(`advance: ${moved.status} ${await moved.text()}`);
        return;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await watch;
    },
  };
}

describe("the README's sandbox: mock --wallet in terminal 1, commands in terminal 2", { timeout: 240_000 }, () => {
  it('terminal 1: npx trx-rent mock --wallet key.txt; terminal 2: npx trx-rent send … --key-file key.txt --yes', async () => {
    const lines = commands(block('npx trx-rent mock --wallet key.txt'));
    expect(lines).toHaveLength(2);
    const dir = freshFolder('sandbox');
    const configDir = freshFolder('sandbox-config');
    const { url, sender, mock } = await sandbox(dir, configDir);
    try {
      const recipient = /--to (T\w{33})/.exec(lines[1]!)![1]!;
      const before = await usdtOf(url, recipient);
      const send = await bash(lines[1]!, { cwd: dir, env: shellEnv(configDir), timeout: 90_000 });
      expect(send.status, `${send.stdout}\n${send.stderr}`).toBe(0);
      expect(await usdtOf(url, sender)).toBe(999);
      expect(await usdtOf(url, recipient)).toBe(before + 1);
    } finally {
      await mock.stop();
    }
  });

  it.skipIf(!hasScript)('the send examples for a real wallet, placeholders filled: asks at a terminal, sends; --solidified; ensure', async () => {
    const b = block('--solidified   # waits for the irreversible block');
    const lines = commands(b);
    expect(lines).toHaveLength(3);
    // The placeholders the text before the block names, and nothing else to fill.
    expect(b.code.match(/TXYZ…|~\/\.tron\/key/g)?.length).toBe(5);
    const fill = (line: string) => line.replaceAll('TXYZ…', GENESIS).replaceAll('~/.tron/key', 'key.txt');
    const dir = freshFolder('send-examples');
    const configDir = freshFolder('send-examples-config');
    const { url, sender, mock } = await sandbox(dir, configDir);
    try {
      const env = shellEnv(configDir);
      const before = await usdtOf(url, GENESIS);
      for (const line of lines.slice(0, 2)) {
        // `--solidified` waits for 19 more blocks (57 s of the mock's time): once the transfer
        // is in a block, the sandbox's clock is moved a minute on, as its control route lets a
        // user do, so the command as written ends without a minute of real waiting.
        const hurry = line.includes('--solidified') ? solidifySoon(url, sender) : undefined;
        const asked = await linePty(fill(line), [{ expect: /Send 10 USDT from T\w+ to T\w+ for about .*\? \(y\/N\)/, send: 'y\r' }], {
          cwd: dir,
          env,
          timeout: 150_000,
        });
        await hurry?.stop();
        expect(asked.unmatched, asked.output).toEqual([]);
        expect(asked.code, asked.output).toBe(0);
      }
      expect(await usdtOf(url, sender)).toBe(980);
      expect(await usdtOf(url, GENESIS)).toBe(before + 20);
      const ensure = await bash(fill(lines[2]!), { cwd: dir, env, timeout: 90_000 });
      expect(ensure.status, `${ensure.stdout}\n${ensure.stderr}`).toBe(0);
      expect(JSON.parse(ensure.stdout)).toMatchObject({ address: GENESIS });
    } finally {
      await mock.stop();
    }
  });

  it.skipIf(!hasScript)(
    'the payouts CLI lines in terminal 2: the file, the plan answered at a terminal, the same batch again with --yes paying nothing twice',
    async () => {
      const lines = commands(block('--report report.csv'));
      expect(lines).toHaveLength(3);
      const dir = freshFolder('payouts-cli');
      const configDir = freshFolder('payouts-cli-config');
      const { url, sender, mock } = await sandbox(dir, configDir);
      try {
        const env = shellEnv(configDir);
        const recipients = ['TJRabPrwbZy45sbavfcjinPJC18kjpRTv8', GENESIS];
        const before = await Promise.all(recipients.map((r) => usdtOf(url, r)));
        const file = await bash(lines[0]!, { cwd: dir, env, timeout: 10_000 });
        expect(file.status, file.stderr).toBe(0);
        const first = await linePty(lines[1]!, [{ expect: /Pay 2 rows for about .*\? \(y\/N\)/, send: 'y\r' }], { cwd: dir, env, timeout: 150_000 });
        expect(first.unmatched, first.output).toEqual([]);
        expect(first.code, first.output).toBe(0);
        const again = await bash(lines[2]!, { cwd: dir, env, timeout: 90_000 });
        expect(again.status, `${again.stdout}\n${again.stderr}`).toBe(0);
        expect(again.stdout).toMatch(/"event":\s*"done"/);
        expect(await Promise.all(recipients.map((r) => usdtOf(url, r)))).toEqual([before[0]! + 1, before[1]! + 2.5]);
        expect(await usdtOf(url, sender)).toBe(996.5);
        expect(readFileSync(join(dir, 'report.csv'), 'utf8').trim().split('\n')).toHaveLength(3); // header + 2 rows
      } finally {
        await mock.stop();
      }
    },
  );
});

describe("the README's CLI tour, with bash", () => {
  it('every line, in a fresh folder, while port 8787 is taken (by the sandbox mock a reader may still run)', async () => {
    const cli = block('npx trx-rent mock --port 0 > mock.json &');
    const held = await holdPort(8787);
    const dir = freshFolder('cli-tour');
    try {
      // Job control on, as in the terminal a reader types into: `kill %1` then stops the whole job (npx and the CLI under it).
      const r = await bash(`set -m\nset -euo pipefail\ntrap 'kill %1 2>/dev/null || true' EXIT\n${cli.code}`, {
        cwd: dir,
        env: shellEnv(dir),
        timeout: 200_000,
      });
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/^"?\w+"?$/m); // prices --query '[0].provider'
      expect(r.stdout).toMatch(/"status": "FILLED"/); // orders list --json id,status
      expect(r.stdout).toMatch(/"payment"/); // --mock x402 prices
    } finally {
      await new Promise((resolve) => (held ? held.close(resolve) : resolve(undefined)));
    }
  }, 220_000);
});

describe("the README's rules lines, with the rules file saved as rules.json", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, rateLimits: false, seed: 31, timings: { selectMs: 20, fillMs: 30, verifyMs: 40 } });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('check, plan, run (dry), run --execute, plan with the journal, backtest and log, each to its end; the unit is printed', async () => {
    const b: Block = block('rules backtest rules.json --days 30');
    const lines = commands(b);
    expect(lines.map((l) => l.split(' ').slice(0, 3).join(' '))).toEqual([
      'trx-rent rules check',
      'trx-rent rules plan',
      'trx-rent rules run',
      'trx-rent rules run',
      'trx-rent rules plan',
      'trx-rent rules backtest',
      'trx-rent rules log',
      'trx-rent rules service',
    ]);
    const dir = freshFolder('rules-lines');
    writeFileSync(join(dir, 'rules.json'), block('"id": "hot-wallet"').code);
    const env = shellEnv(dir, {
      TRX_RENT_BASE_URL: mock.url,
      TRX_RENT_API_KEY: mock.apiKey,
      TRX_RENT_TRON_NODE: mock.url,
      RULES_WEBHOOK_SECRET: 'whsec_readme_rules',
    });
    const opts = { cwd: dir, env, timeout: 120_000 };
    for (const line of [lines[0]!, lines[1]!]) {
      const r = await bash(line, opts);
      expect(r.status, `${line}\n${r.stdout}\n${r.stderr}`).toBe(0);
      expect(r.stdout).toContain('hot-wallet');
    }
    // A dry run watches until stopped: its decisions appear, SIGTERM ends it with 0 and nothing spent.
    const dry = background(lines[2]!, { cwd: dir, env });
    await dry.until(() => /hot-wallet/.test(dry.output().stdout), 90_000, 'a decision about hot-wallet');
    expect(await dry.stop(), JSON.stringify(dry.output())).toBe(0);
    expect(mock.state.orders.all(mock.state.demo.account_id)).toEqual([]);
    const journal = join(dir, 'rules.journal.jsonl');
    const execute = background(lines[3]!, { cwd: dir, env });
    await execute.until(() => existsSync(journal) && /"kind":"done"/.test(readFileSync(journal, 'utf8')), 90_000, 'an action done in the journal');
    // One tick is enough: stop once the runner has written the tick's last decision.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await execute.stop(), JSON.stringify(execute.output())).toBe(0);
    expect(mock.state.orders.all(mock.state.demo.account_id).length).toBeGreaterThan(0);
    // The plan again, its limits counted from the journal the run wrote.
    const planned = await bash(lines[4]!, opts);
    expect(planned.status, `${lines[4]}\n${planned.stdout}\n${planned.stderr}`).toBe(0);
    expect(planned.stderr).toContain('rules.journal.jsonl');
    const backtest = await bash(lines[5]!, opts);
    expect(backtest.status, `${backtest.stdout}\n${backtest.stderr}`).toBe(0);
    expect(backtest.stdout).toContain('hot-wallet');
    // The log shows the journal's entries of the rule it names, which acted on this mock.
    const rule = /--rule ([\w-]+)/.exec(lines[6]!)![1]!;
    const log = await bash(lines[6]!, opts);
    expect(log.status, `${log.stdout}\n${log.stderr}`).toBe(0);
    const written = readFileSync(journal, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { rule: string; kind: string });
    expect(written.some((e) => e.rule === rule && e.kind === 'done')).toBe(true);
    expect(JSON.parse(log.stdout)).toEqual(written.filter((e) => e.rule === rule));
    // The last line writes under /etc/systemd (root, systemd): the unit it writes is printed here instead.
    expect(lines[7]).toBe('trx-rent rules service --print > /etc/systemd/system/trx-rent-rules.service');
    const unit = await bash('trx-rent rules service --print', opts);
    expect(unit.status, unit.stderr).toBe(0);
    expect(unit.stdout).toMatch(/^ExecStart=\/usr\/bin\/env npx --yes trx-rent rules run \S+ --execute/m);
  }, 400_000);

  it("the unit's `npx --yes trx-rent`, with trx-rent installed globally (npm link in the clone), runs that install from any folder, offline", async () => {
    // The rules block's last line writes a systemd unit to /etc (root, systemd): not run here.
    // The test above prints the unit; this one runs what the unit runs, as the README says to install it.
    const prefix = mkdtempSync(join(tmpdir(), 'trx-rent-global-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'trx-rent-elsewhere-'));
    const env = { ...shellEnv(elsewhere), npm_config_prefix: prefix, PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}` };
    const link = await bash('npm link', { cwd: root, env, timeout: 120_000 });
    expect(link.status, `${link.stdout}\n${link.stderr}`).toBe(0);
    const version = await bash('npx --yes trx-rent --version', { cwd: elsewhere, env, timeout: 60_000 });
    expect(version.status, `${version.stdout}\n${version.stderr}`).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
  }, 200_000);
});

/** An MCP configuration of the README, started the way an MCP client starts it; the tool names it lists. */
async function toolsOf(server: { command: string; args: string[]; env: Record<string, string> }, cwd: string, env: Record<string, string>) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({
    command: server.command === 'node' ? process.execPath : server.command,
    args: server.args,
    cwd,
    stderr: 'pipe',
    env: { ...env, ...server.env },
  });
  const client = new Client({ name: 'readme-config', version: '1.0.0' });
  await client.connect(transport, { timeout: 60_000 });
  try {
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

type McpConfig = { mcpServers: Record<string, { command: string; args: string[]; env: Record<string, string> }> };

describe("the README's MCP client configurations", { timeout: 200_000 }, () => {
  it("installed globally (npm link in the clone): npx trx-rent mcp from the client's own folder, with the env it names", async () => {
    const config = JSON.parse(block('"args": ["trx-rent", "mcp"]').code) as McpConfig;
    const server = config.mcpServers['trx-rent']!;
    expect(server).toMatchObject({ command: 'npx', args: ['trx-rent', 'mcp'] });
    // The env holds placeholders for an account: a mock's values stand in for them.
    expect(server.env).toEqual({ TRX_RENT_API_KEY: 'sk_live_…', TRX_RENT_BASE_URL: 'https://…' });
    const mock = await startMockServer({ port: 0, rateLimits: false });
    const prefix = mkdtempSync(join(tmpdir(), 'trx-rent-global-'));
    const elsewhere = mkdtempSync(join(tmpdir(), 'trx-rent-mcp-client-'));
    mkdirSync(join(elsewhere, 'config'));
    try {
      const env = {
        ...shellEnv(join(elsewhere, 'config')),
        npm_config_prefix: prefix,
        PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`,
        NODE_OPTIONS: '',
      };
      const link = await bash('npm link', { cwd: root, env, timeout: 120_000 });
      expect(link.status, `${link.stdout}\n${link.stderr}`).toBe(0);
      const tools = await toolsOf({ ...server, env: { TRX_RENT_API_KEY: mock.apiKey, TRX_RENT_BASE_URL: mock.url } }, elsewhere, env);
      expect(tools).toEqual(expect.arrayContaining(['send_token', 'ensure_resources']));
    } finally {
      await mock.close();
    }
  });

  it("from a clone: node with the bin's absolute path, started from another folder, lists its tools", async () => {
    const config = JSON.parse(block('/path/to/trx-rent/bin/trx-rent.js').code) as McpConfig;
    const server = config.mcpServers['trx-rent']!;
    const elsewhere = mkdtempSync(join(tmpdir(), 'trx-rent-mcp-client-'));
    const env = { PATH: process.env.PATH ?? '', TRX_RENT_CONFIG_DIR: elsewhere, NO_COLOR: '1' };
    const tools = await toolsOf({ ...server, args: server.args.map((a) => a.replace('/path/to/trx-rent', root.replace(/\/$/, ''))) }, elsewhere, env);
    expect(tools).toEqual(expect.arrayContaining(['send_token', 'ensure_resources']));
  });
});
