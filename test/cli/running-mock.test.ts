/**
 * Money never goes to a guessed service: with no base URL set, the CLI uses a running `trx-rent
 * mock` only when it is the only one, and a command that spends names it on stderr first (in
 * JSON mode too). Each mock has its own discovery record; two running mocks are refused with
 * both listed (spending and reading commands alike); a record whose process is gone, or whose
 * port no longer answers, is ignored and removed. The mocks are `trx-rent mock` runs in this
 * process (each records itself under this process's pid and its own port), and two spawned
 * `trx-rent mock` processes for the refusal as people meet it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { REGISTRY } from '../../src/cli/registry.js';
import { declareSpending, spendsAt } from '../../src/cli/state.js';
import { AmbiguousMockError, findRunningMocks, recordRunningMock, runningMocksDir } from '../../src/cli/running-mock.js';
import { ADDRESS, errorLine, json, runCli, startCli, tempDir } from './helpers.js';
import { runCliInProcess, startCliInProcess } from './run.js';

const READY = /"memo": "[^"]+"\s*}/;
const BUY = ['buy', '65000', 'energy', '--to', ADDRESS, '--duration', '1h', '--yes', '--json'];

/** A `trx-rent mock` in this process, recording itself in `configDir`. */
async function mockIn(configDir: string, seed: number) {
  const server = await startCliInProcess(['mock', '--port', '0', '--seed', String(seed), '--quiet', '--json'], READY, { configDir });
  const info = JSON.parse(server.output().stdout) as { url: string; api_key: string };
  return { ...info, stop: () => server.stop() };
}

/** The orders on a mock's demo account. */
async function orders(mock: { url: string; api_key: string }): Promise<unknown[]> {
  const res = await fetch(`${mock.url}/api/v1/orders`, { headers: { 'x-api-key': mock.api_key } });
  const body = (await res.json()) as { items?: unknown[]; orders?: unknown[] };
  return body.items ?? body.orders ?? [];
}

/** A pid no process has: a child that ran and exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

/** A loopback port nothing listens on any more. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function writeRecord(configDir: string, record: { url: string; api_key: string; pid: number; port: number }): string {
  const dir = runningMocksDir(configDir);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${record.pid}-${record.port}.json`);
  writeFileSync(path, JSON.stringify(record));
  return path;
}

describe('the running mock', { timeout: 90_000 }, () => {
  it('two running: a spending command is refused naming both (nothing ordered on either), a reading one too; one left: used and named on stderr first', async () => {
    const configDir = tempDir();
    const a = await mockIn(configDir, 21);
    const b = await mockIn(configDir, 22);
    try {
      // One record each, named by pid and port: neither overwrote the other.
      expect(readdirSync(runningMocksDir(configDir)).sort()).toEqual([a.url, b.url].map((u) => `${process.pid}-${new URL(u).port}.json`).sort());

      const refused = await runCliInProcess(BUY, { configDir });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stdout).toBe('');
      const error = errorLine(refused);
      expect(error.code).toBe('AMBIGUOUS_MOCK');
      for (const m of [a, b]) expect(error.message).toContain(`${m.url} (pid ${process.pid})`);
      expect(error.hint).toMatch(/--base-url URL or TRX_RENT_BASE_URL=URL/);
      expect(await orders(a)).toEqual([]);
      expect(await orders(b)).toEqual([]);

      // Reading commands never pick one silently either.
      const balance = await runCliInProcess(['balance', '--json'], { configDir });
      expect(balance.code).toBe(2);
      expect(errorLine(balance).code).toBe('AMBIGUOUS_MOCK');
      const human = await runCliInProcess(['balance', '--no-json'], { configDir });
      expect(human.stderr).toMatch(/error AMBIGUOUS_MOCK: .*2 `trx-rent mock` servers are running here/);

      // The user picks one: the flag wins, no guessing involved.
      const picked = await runCliInProcess([...BUY, '--base-url', b.url], { configDir, env: { TRX_RENT_API_KEY: b.api_key } });
      expect(picked.code, picked.stderr).toBe(0);
      expect(picked.stderr).not.toMatch(/using the mock/);
      expect(await orders(b)).toHaveLength(1);

      // One left: its record is the only one (the stopped mock removed its own).
      await b.stop();
      expect(readdirSync(runningMocksDir(configDir))).toEqual([`${process.pid}-${new URL(a.url).port}.json`]);
      const used = await runCliInProcess(BUY, { configDir });
      expect(used.code, used.stderr).toBe(0);
      // Named on stderr in JSON mode too, since buy spends.
      expect(used.stderr).toContain(`using the mock at ${a.url} (pid ${process.pid})`);
      expect(json(used).status).toBeDefined();
      expect(await orders(a)).toHaveLength(1);

      // Named before anything is spent: a spend the network refuses still has it on stderr.
      const noNetwork: typeof fetch = async (input, init) => {
        if ((init?.method ?? 'GET') === 'POST') throw new TypeError('fetch failed');
        return fetch(input, init);
      };
      const failed = await runCliInProcess(BUY, { configDir, fetch: noNetwork, env: { TRX_RENT_MAX_RETRIES: '0' } });
      expect(failed.code).not.toBe(0);
      expect(failed.stderr.indexOf(`using the mock at ${a.url}`)).toBeGreaterThanOrEqual(0);
      expect(failed.stderr.indexOf(`using the mock at ${a.url}`)).toBeLessThan(failed.stderr.indexOf('{"error"'));

      // A reading command in JSON mode is not chatty; for people it is a note.
      const read = await runCliInProcess(['balance', '--json'], { configDir });
      expect(read.code, read.stderr).toBe(0);
      expect(read.stderr).toBe('');
      const readHuman = await runCliInProcess(['balance', '--no-json'], { configDir });
      expect(readHuman.stderr).toContain(`using the mock at ${a.url} (pid ${process.pid})`);
    } finally {
      await a.stop();
      await b.stop().catch(() => undefined);
    }
  });

  it('a stale record (its process gone, or its port closed) is ignored and removed; the live mock is used', async () => {
    const configDir = tempDir();
    const live = await mockIn(configDir, 23);
    const other = await mockIn(tempDir(), 24); // answers, but its record here names a dead process
    try {
      const dead = writeRecord(configDir, { url: other.url, api_key: other.api_key, pid: deadPid(), port: Number(new URL(other.url).port) });
      const port = await closedPort();
      const closed = writeRecord(configDir, { url: `http://127.0.0.1:${port}`, api_key: 'sk_x', pid: process.pid, port });
      const found = await findRunningMocks(configDir);
      expect(found.map((m) => m.url)).toEqual([live.url]);
      expect(existsSync(dead)).toBe(false);
      expect(existsSync(closed)).toBe(false);

      writeRecord(configDir, { url: other.url, api_key: other.api_key, pid: deadPid(), port: Number(new URL(other.url).port) });
      const used = await runCliInProcess(BUY, { configDir });
      expect(used.code, used.stderr).toBe(0);
      expect(used.stderr).toContain(`using the mock at ${live.url} (pid ${process.pid})`);
      expect(await orders(live)).toHaveLength(1);
      expect(await orders(other)).toEqual([]);
    } finally {
      await live.stop();
      await other.stop();
    }
  });

  it('records are per instance and removed by their own mock only; AmbiguousMockError lists the choices', async () => {
    const configDir = tempDir();
    const removeA = recordRunningMock(configDir, { url: 'http://127.0.0.1:40001', apiKey: 'sk_a' });
    const removeB = recordRunningMock(configDir, { url: 'http://127.0.0.1:40002', apiKey: 'sk_b' });
    expect(readdirSync(runningMocksDir(configDir)).sort()).toEqual([`${process.pid}-40001.json`, `${process.pid}-40002.json`]);
    removeA();
    expect(readdirSync(runningMocksDir(configDir))).toEqual([`${process.pid}-40002.json`]);
    removeB();
    const error = new AmbiguousMockError([
      { url: 'http://127.0.0.1:1', apiKey: 'k', pid: 5, port: 1, path: 'p' },
      { url: 'http://127.0.0.1:2', apiKey: 'k', pid: 6, port: 2, path: 'q' },
    ]);
    expect(error).toMatchObject({
      code: 'AMBIGUOUS_MOCK',
      exitCode: 2,
      details: {
        choices: [
          { url: 'http://127.0.0.1:1', pid: 5 },
          { url: 'http://127.0.0.1:2', pid: 6 },
        ],
      },
    });
  });

  it('two spawned `trx-rent mock` processes: `send` refused naming both pids; one stopped, the other is named and used', async () => {
    const configDir = tempDir();
    const first = await startCli(['mock', '--port', '0', '--seed', '31', '--quiet', '--json'], READY, { configDir });
    const second = await startCli(['mock', '--port', '0', '--seed', '32', '--quiet', '--json'], READY, { configDir });
    try {
      const urls = [first, second].map((m) => JSON.parse(m.output().stdout).url as string);
      const r = await runCli(['send', 'usdt', '--to', ADDRESS, '--amount', '1', '--yes', '--json'], {
        configDir,
        env: { TRX_RENT_PRIVATE_KEY: '11'.repeat(32) },
      });
      expect(r.code, r.stderr).toBe(2);
      const error = errorLine(r);
      expect(error.code).toBe('AMBIGUOUS_MOCK');
      expect(error.message).toContain(`${urls[0]} (pid ${first.child.pid})`);
      expect(error.message).toContain(`${urls[1]} (pid ${second.child.pid})`);
      await second.stop();
      const one = await runCli(['prices', '--no-json'], { configDir });
      expect(one.code, one.stderr).toBe(0);
      expect(one.stderr).toContain(`using the mock at ${urls[0]} (pid ${first.child.pid})`);
    } finally {
      await first.stop();
      await second.stop();
    }
  });

  it('what spends is declared in the registry, and each subcommand it names exists', async () => {
    const spends = Object.fromEntries(REGISTRY.filter((e) => e.spends).map((e) => [e.name, e.spends]));
    expect(spends).toEqual({
      buy: true,
      ensure: true,
      send: true,
      sweep: true,
      withdraw: true,
      broadcast: true,
      deposit: ['submit'],
      rules: ['run'],
      tx: ['broadcast'],
    });
    for (const entry of REGISTRY) {
      if (!Array.isArray(entry.spends)) continue;
      const cmd = new Command(entry.name);
      (await entry.load()).default.register?.(cmd, { loadAll: async () => new Command() });
      for (const sub of entry.spends)
        expect(
          cmd.commands.map((c) => c.name()),
          `${entry.name} ${sub}`,
        ).toContain(sub);
    }
    // How a run finds it: from the command up to its top-level command's declaration.
    const program = new Command('trx-rent');
    const rules = program.command('rules');
    const run = rules.command('run');
    const plan = rules.command('plan');
    const buy = program.command('buy');
    const prices = program.command('prices');
    declareSpending(rules, ['run']);
    declareSpending(buy, true);
    expect([spendsAt(run), spendsAt(plan), spendsAt(rules), spendsAt(buy), spendsAt(prices)]).toEqual([true, false, false, true, false]);
  });
});
