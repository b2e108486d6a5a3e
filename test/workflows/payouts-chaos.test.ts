/**
 * The chaos test of payouts: a 200-row batch run by the built CLI as its own process
 * (`trx-rent send usdt --batch payouts.csv --yes --json`), killed with SIGKILL at random points
 * ten times and started again each time with the same command, while the mock's own fault
 * injection (`chaos.rules`, aimed at routes, seeded) drops broadcast answers after the network
 * accepted them and answers 5xx on the node and the broadcast. The judge is the mock's chain: every recipient paid exactly once, the
 * right amount, nothing else sent from the sender; and the journal says the same.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { BIN, ROOT, cleanEnv } from '../cli/helpers.js';
import { USDT, account, paid, payouts, sender } from './payouts-helpers.js';

const SEED = Number(process.env.PAYOUTS_CHAOS_SEED ?? 32032);
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({
    seed: SEED,
    rateLimits: false,
    timings: { selectMs: 10, fillMs: 20, verifyMs: 30 },
    chaos: {
      rate: 0,
      seed: SEED,
      rules: [
        { route: 'POST /api/v1/broadcast', kind: 'drop', probability: 0.1 },
        { route: 'POST /api/v1/broadcast', kind: 503, probability: 0.05 },
        { route: 'POST /wallet/gettransactioninfobyid', kind: 503, probability: 0.1 },
        { route: 'POST /wallet/gettransactioninfobyid', kind: 'drop', probability: 0.03 },
        { route: 'POST /walletsolidity/getnowblock', kind: 503, probability: 0.1 },
        { route: 'POST /wallet/getnowblock', kind: 500, probability: 0.05 },
      ],
    },
  });
});
afterAll(async () => {
  await mock?.close();
});

/** mulberry32, for the kill points (the seed is printed on failure). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: number;
  stderr: string;
}

/** Run the CLI; SIGKILL it once it has printed `killAfterLines` events or after `killAfterMs` (whichever first), if given. */
function runner(args: string[], env: Record<string, string>, kill?: { lines: number; ms: number }): Promise<Run> {
  const child: ChildProcess = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let lines = 0;
  let stderr = '';
  const die = () => child.kill('SIGKILL');
  child.stdout!.on('data', (d: Buffer) => {
    lines += d.toString().split('\n').length - 1;
    if (kill && lines >= kill.lines) die();
  });
  child.stderr!.on('data', (d: Buffer) => (stderr += d));
  const timer = setTimeout(die, kill ? kill.ms : 60_000);
  return new Promise((resolve) => child.on('close', (code, signal) => (clearTimeout(timer), resolve({ code, signal, lines, stderr }))));
}

describe('payouts under chaos', { timeout: 90_000 }, () => {
  it('200 rows, SIGKILL at ten random points, faults on the node and the broadcast: every row paid exactly once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'payouts-chaos-'));
    const s = sender(mock, 32);
    const rows = payouts(mock, 200, 'chaos');
    const acct = account(mock, '1000000');
    const csv = join(dir, 'payouts.csv');
    writeFileSync(csv, `to,amount,id\n${rows.map((r) => `${r.to},${r.amount},${r.id}`).join('\n')}\n`);
    const keyFile = join(dir, 'key');
    writeFileSync(keyFile, `${s.privateKey}\n`, { mode: 0o600 });
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: acct.apiKey, TRX_RENT_TRON_NODE: mock.url };
    const args = ['send', 'usdt', '--batch', csv, '--key-file', keyFile, '--yes', '--json', '--concurrency', '8'];
    const random = rng(SEED);
    const kills: Run[] = [];
    // Kill points: every other one a number of NDJSON events (1 to 40: the rows' sign, broadcast,
    // confirm and progress events, about four a row, so most fall while rows are in flight), the
    // others a time (0.15 to 0.9 s after the start: loading, reading the journal, estimating,
    // ordering, sending), and never later than 40 events, so ten kills fall within the batch
    // however fast the machine is.
    const started = Date.now();
    for (let i = 0; i < 10; i++) {
      const kill = i % 2 === 0 ? { lines: 1 + Math.floor(random() * 40), ms: 20_000 } : { lines: 40, ms: 150 + Math.floor(random() * 750) };
      kills.push(await runner(args, env, kill));
    }
    // Killed, not finished (a run that ended by itself before its kill point would prove less).
    expect(
      kills.map((k) => k.signal ?? `exit ${k.code}`),
      `seed ${SEED}`,
    ).toEqual(Array(10).fill('SIGKILL'));
    let last: Run | undefined;
    for (let attempt = 0; attempt < 4 && last?.code !== 0; attempt++) last = await runner(args, env);
    expect(last?.code, `seed ${SEED}: ${last?.stderr}`).toBe(0);

    // The judge: the chain.
    const chain = paid(mock, s.address);
    for (const r of rows) {
      const got = chain.get(r.to);
      expect(got?.count, `seed ${SEED}: row ${r.id} (journal ${csv}.journal)`).toBe(1);
      expect(got?.atomic, `row ${r.id}`).toBe(BigInt(r.amount.replace('.', '')));
    }
    expect([...chain.values()].reduce((n, e) => n + e.count, 0)).toBe(200);
    // The journal says so: 200 rows confirmed once each, with the transaction the chain holds.
    const entries = readFileSync(`${csv}.journal`, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const confirmed = entries.filter((e) => e.type === 'confirmed');
    expect(new Set(confirmed.map((e) => e.id)).size).toBe(200);
    expect(confirmed.length).toBe(200);
    for (const e of confirmed) {
      const tx = mock.state.chain.transactions.get(e.tx_id);
      expect(tx?.transfer?.token.address).toBe(USDT);
      expect(tx?.transfer?.to).toBe(rows.find((r) => r.id === e.id)!.to);
    }
    const faults = Object.entries(
      mock.chaos.log.reduce<Record<string, number>>((n, h) => ({ ...n, [`${h.kind} ${h.path}`]: (n[`${h.kind} ${h.path}`] ?? 0) + 1 }), {}),
    );
    console.log(
      `chaos seed ${SEED}: ${kills.filter((k) => k.signal === 'SIGKILL').length} kills after ${kills.map((k) => k.lines).join(',')} events; ${mock.chaos.log.length} faults injected (${faults.map(([k, n]) => `${n} ${k}`).join(', ')}); ${entries.length} journal lines; ${Date.now() - started} ms`,
    );
    // The kills fell while rows were in flight, not only before any was sent.
    expect(kills.filter((k) => k.lines > 0).length).toBeGreaterThanOrEqual(3);
    expect(mock.chaos.log.some((h) => h.kind === 'drop' && h.method === 'POST' && h.path === '/api/v1/broadcast')).toBe(true);
  });
});
