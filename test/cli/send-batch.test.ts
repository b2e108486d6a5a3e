/**
 * `trx-rent send usdt --batch FILE`: every bad row reported before anything is spent
 * (in-process), and the whole flow a person sees in a pseudo-terminal with the built CLI: the
 * plan, the confirmation, the progress bar, Ctrl+C, the printed resume command, that command run
 * to the end, and the report. The mock's chain is the judge of what was paid.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { account, ordersOf, paid, payouts, sender } from '../workflows/payouts-helpers.js';
import { type PtyStep, inPty as pty, plain as plainText, runCli } from './helpers.js';
import { runCliInProcess } from './run.js';

const hasScript = spawnSync('script', ['--version']).status === 0;
/** The batch flows in a pseudo-terminal, 40 s at most; the progress line's redraws read as lines. */
const inPty = (args: string[], steps: PtyStep[], env: Record<string, string>, timeoutMs = 40_000) => pty(args, steps, env, timeoutMs, 200, 'newline');
const plain = (s: string) => plainText(s, 'newline');

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 3232, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
});
afterAll(async () => {
  await mock?.close();
});

function files(rows: Array<{ to: string; amount: string; id: string }>, privateKey: string) {
  const dir = mkdtempSync(join(tmpdir(), 'send-batch-'));
  const csv = join(dir, 'payouts.csv');
  writeFileSync(csv, `to,amount,id\n${rows.map((r) => `${r.to},${r.amount},${r.id}`).join('\n')}\n`);
  const key = join(dir, 'key');
  writeFileSync(key, `${privateKey}\n`, { mode: 0o600 });
  return { dir, csv, key };
}

describe('send usdt --batch', { timeout: 60_000 }, () => {
  it('reports every bad row (address, amount, decimals, duplicate id) at once and spends nothing', async () => {
    const s = sender(mock, 41);
    const acct = account(mock);
    const good = payouts(mock, 2, 'bad-file');
    const { csv, key } = files(
      [
        good[0]!,
        { to: 'Tnot-an-address', amount: '1', id: 'b1' },
        { to: good[1]!.to, amount: '1.1234567', id: 'b2' },
        { to: good[1]!.to, amount: '-3', id: 'b3' },
        { to: good[1]!.to, amount: '2', id: good[0]!.id },
      ],
      s.privateKey,
    );
    const r = await runCliInProcess(['send', 'usdt', '--batch', csv, '--key-file', key, '--yes', '--json'], {
      env: { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: acct.apiKey, TRX_RENT_TRON_NODE: mock.url },
    });
    expect(r.code).not.toBe(0);
    for (const line of ['line 3', 'line 4', 'line 5', 'line 6']) expect(r.stderr).toContain(line);
    expect(r.stderr).toMatch(/4 bad rows, nothing was spent/);
    expect(ordersOf(mock, acct.accountId)).toEqual([]);
    expect(paid(mock, s.address).size).toBe(0);
  });

  it.skipIf(!hasScript)('in a terminal: plan, confirmation, progress, Ctrl+C, the resume command, resumed to the end, the report', async () => {
    const s = sender(mock, 42);
    const acct = account(mock, '1000000');
    const rows = payouts(mock, 150, 'pty');
    const { dir, csv, key } = files(rows, s.privateKey);
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: acct.apiKey, TRX_RENT_TRON_NODE: mock.url };
    const first = await inPty(
      ['send', 'usdt', '--batch', csv, '--key-file', key, '--concurrency', '1'],
      [
        { expect: /Batch pb-[0-9a-f]{16}: 150 rows, .* USDT from T\w+.*renting\s+\d+ orders?.*burning .* instead.*saving/, send: '' },
        { expect: /Pay 150 rows for about [\d,.]+ SUN .* \(burning: [\d,.]+ SUN/, send: 'y\r' },
        { expect: /\[#*-*\] ([1-9]\d*)\/150 confirmed/, send: '\x03' },
      ],
      env,
    );
    expect(first.unmatched, first.output).toEqual([]);
    expect(first.code, first.output).toBe(130);
    const resume = /resume with: (trx-rent send \S+ --batch .*?--resume)/.exec(first.output.replace(/\n/g, ' '))?.[1];
    expect(resume, first.output).toBeDefined();
    // The printed command asks again (a confirmation binds only the plan it showed): no --yes in it.
    expect(resume).not.toContain('--yes');
    expect(resume).toContain(`--journal ${csv}.journal`);
    const before = [...paid(mock, s.address).values()].reduce((n, e) => n + e.count, 0);
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(150);

    // The printed command, as a person would paste it (plus a report file), the resume's plan approved with --yes.
    const report = join(dir, 'report.csv');
    const argv = resume!.split(' ').slice(1);
    const second = await runCli([...argv, '--yes', '--report', report], { env, timeoutMs: 50_000 });
    expect(second.code, second.stderr).toBe(0);
    const chain = paid(mock, s.address);
    expect(rows.every((r) => chain.get(r.to)?.count === 1)).toBe(true);
    const lines = readFileSync(report, 'utf8').trim().split('\n');
    expect(lines[0]).toBe('row,to,amount,token,tx_id,status,energy,cost_sun,reason');
    expect(lines.length).toBe(151);
    expect(lines.slice(1).every((l) => l.split(',')[5] === 'confirmed')).toBe(true);
  });
});
