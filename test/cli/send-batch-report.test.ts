/**
 * `send usdt --batch FILE --report FILE` never writes through a symlink: a link at the report's
 * name is refused before anything is spent (the file it points at untouched), and a report is
 * written by a temporary file and a rename, as the journal's care does.
 */
import { lstatSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { account, ordersOf, paid, payouts, sender } from '../workflows/payouts-helpers.js';
import { runCliInProcess } from './run.js';

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 3838, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
});
afterAll(async () => {
  await mock?.close();
});

function batch(seed: number, tag: string) {
  const s = sender(mock, seed);
  const acct = account(mock);
  const rows = payouts(mock, 2, tag);
  const dir = mkdtempSync(join(tmpdir(), 'send-batch-report-'));
  const csv = join(dir, 'payouts.csv');
  writeFileSync(csv, `to,amount,id\n${rows.map((r) => `${r.to},${r.amount},${r.id}`).join('\n')}\n`);
  const key = join(dir, 'key');
  writeFileSync(key, `${s.privateKey}\n`, { mode: 0o600 });
  const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: acct.apiKey, TRX_RENT_TRON_NODE: mock.url };
  return { s, acct, dir, csv, key, env };
}

describe('send usdt --batch --report', { timeout: 60_000 }, () => {
  it('a symlink at the report name is refused before anything is spent; its target is untouched', async () => {
    const { s, acct, dir, csv, key, env } = batch(0x51, 'report-link');
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const link = join(dir, 'report.csv');
    symlinkSync(victim, link);
    const r = await runCliInProcess(['send', 'usdt', '--batch', csv, '--key-file', key, '--yes', '--json', '--report', link], { env });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('is a symbolic link: refusing to write through it');
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(ordersOf(mock, acct.accountId)).toEqual([]);
    expect(paid(mock, s.address).size).toBe(0);
  });

  it('a plain report name gets the report, with no temporary file left beside it', async () => {
    const { s, dir, csv, key, env } = batch(0x52, 'report-file');
    const report = join(dir, 'report.csv');
    const r = await runCliInProcess(['send', 'usdt', '--batch', csv, '--key-file', key, '--yes', '--json', '--report', report], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(report, 'utf8').trim().split('\n')).toHaveLength(3); // header + 2 rows
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(paid(mock, s.address).size).toBe(2);
  });
});
