/**
 * `trx-rent sweep --watch` as its own process: deposits keep arriving at the deposit addresses
 * while the watcher runs, is killed with SIGKILL and started again; every deposit is reported
 * once across the runs (its cursor in `<journal>.watch`), and the treasury ends up with every
 * deposit, each source's balance swept once per round (the mock's chain is the judge).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { BIN, ROOT, cleanEnv } from '../cli/helpers.js';
import { account } from './payouts-helpers.js';
import { depositSources, funding, receivedBy, treasury } from './sweep-helpers.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ seed: 4142, rateLimits: false, timings: { selectMs: 5, fillMs: 10, verifyMs: 10 } });
});
afterAll(async () => {
  await mock?.close();
});

/** Start the CLI; resolves with its stdout once it exits (killed after `killMs` if given). */
function start(args: string[], env: Record<string, string>, killMs: number) {
  const child: ChildProcess = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  child.on('close', () => children.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d));
  child.stderr!.on('data', (d: Buffer) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), killMs);
  return new Promise<{ stdout: string; stderr: string; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, signal });
    }),
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const children = new Set<ChildProcess>();
/** SIGKILL every CLI still running. */
function killAll(): void {
  for (const c of children) c.kill('SIGKILL');
}

/** Every USDT atomic unit sent to `address` on the chain. */
function sentTo(address: string): bigint {
  return [...mock.state.chain.transactions.values()]
    .filter((t) => t.transfer?.to === address && t.transfer.token.address === 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' && t.result === 'SUCCESS')
    .reduce((n, t) => n + t.transfer!.amount, 0n);
}

describe('sweep --watch', { timeout: 180_000 }, () => {
  it('deposits arriving while the watcher is killed and restarted: each reported once, each swept', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sweep-watch-'));
    // All activated here (a source killed mid-activation waits for that transaction to expire: the chaos test covers it).
    const sources = depositSources(mock, 6, 'watch');
    for (const s of sources) if (!s.activated) mock.state.chain.fundTrx(s.address, 1_000_000n);
    const fund = funding(mock, 'watch');
    const to = treasury(mock, 'watch');
    const acct = account(mock, '1000000');
    const keys = join(dir, 'keys.txt');
    writeFileSync(keys, `${sources.map((s) => s.privateKey).join('\n')}\n`, { mode: 0o600 });
    const fundKey = join(dir, 'fund.key');
    writeFileSync(fundKey, `${fund.privateKey}\n`, { mode: 0o600 });
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: acct.apiKey, TRX_RENT_TRON_NODE: mock.url };
    const args = ['sweep', '--to', to, '--from', keys, '--min', '1', '--funding-key-file', fundKey, '--watch', '--confirmations', '1', '--yes', '--json'];
    const usdt = mock.state.chain.token('USDT')!;
    const deposits: string[] = [];
    const outputs: string[] = [];
    // Three lives of the watcher; deposits land during each life and between them.
    for (let life = 0; life < 3; life++) {
      const running = start(args, env, 14_000);
      for (let k = 0; k < 4; k++) {
        await sleep(2_500);
        const s = sources[(life * 4 + k) % sources.length]!;
        deposits.push(
          mock.state.chain.syntheticTransfer({ token: usdt, to: s.address, amount: BigInt(2_000_000 + life * 10 + k), label: `watch deposit ${life} ${k}` })
            .txid,
        );
      }
      const run = await running;
      expect(run.signal, run.stderr.slice(-1000)).toBe('SIGKILL');
      outputs.push(run.stdout);
    }
    // A last life, until the treasury holds every deposit (each round is a sweep with its own
    // orders: the watcher catches up round by round), at most 120 s.
    const everything = () => {
      const got = receivedBy(mock, to);
      return sources.every((s) => got.get(s.address)?.atomic === sentTo(s.address));
    };
    const last = start(args, env, 120_000);
    for (let i = 0; i < 240 && !everything(); i++) await sleep(500);
    await sleep(500);
    killAll();
    outputs.push((await last).stdout);
    // What was reported is what the watch journal holds (written before the event is printed).
    const reported = readFileSync(`${keys}.sweep.journal.watch`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((e) => e.type === 'deposit')
      .map((e) => e.deposit.tx_id as string);
    const printed = outputs
      .join('\n')
      .split('\n')
      .filter((l) => l.includes('"event":"deposit_deposit"')).length;
    expect(printed).toBeGreaterThan(0);
    // Each deposit reported once across the four processes, none of those made while they ran missed,
    // and nothing reported that is not a USDT transfer to a watched address.
    expect(new Set(reported).size).toBe(reported.length);
    expect(
      deposits.filter((d) => !reported.includes(d)),
      outputs
        .map((o) =>
          o
            .split('\n')
            .filter((l) => !l.includes('"progress"'))
            .slice(-6)
            .join('\n')
            .slice(0, 1500),
        )
        .join('\n----\n'),
    ).toEqual([]);
    const watched = new Set(sources.map((s) => s.address));
    for (const id of reported) expect(watched.has(mock.state.chain.transactions.get(id)?.transfer?.to ?? '')).toBe(true);
    // The treasury received everything each source was sent (each round swept the balance once).
    const got = receivedBy(mock, to);
    for (const s of sources) expect(got.get(s.address)?.atomic, s.address).toBe(sentTo(s.address));
  });
});
