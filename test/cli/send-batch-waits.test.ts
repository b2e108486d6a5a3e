/**
 * A batch whose broadcasts are rate limited is never silent: each row that meets a 429 (or a
 * 5xx, or no answer) on the broadcast emits a `waiting` event naming the row, the host and when
 * its same bytes go again (NDJSON), and a person sees it on the progress line. The chain is the
 * judge that every row still lands once.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { account, paid, payouts, sender } from '../workflows/payouts-helpers.js';
import { inPty, runCli } from './helpers.js';

const hasScript = spawnSync('script', ['--version']).status === 0;

let mock: MockServer;
/** A mock whose first broadcast answers 429 (each test its own, so each meets the fault). */
async function rateLimitedMock(seed: number): Promise<MockServer> {
  await mock?.close();
  mock = await startMockServer({
    port: 0,
    rateLimits: false,
    seed,
    timings: { selectMs: 10, fillMs: 20, verifyMs: 30 },
    chaos: { rate: 0, seed, rules: [{ route: 'POST /api/v1/broadcast', kind: '429', times: 1 }] },
  });
  return mock;
}
afterAll(async () => {
  await mock?.close();
});

function files(tag: string, seed: number) {
  const s = sender(mock, seed);
  const rows = payouts(mock, 3, tag);
  const dir = mkdtempSync(join(tmpdir(), 'batch-waits-'));
  const csv = join(dir, 'payouts.csv');
  writeFileSync(csv, `to,amount,id\n${rows.map((r) => `${r.to},${r.amount},${r.id}`).join('\n')}\n`);
  const key = join(dir, 'key');
  writeFileSync(key, `${s.privateKey}\n`, { mode: 0o600 });
  return { s, rows, csv, key };
}

describe('send usdt --batch: a rate-limited broadcast is said', { timeout: 90_000 }, () => {
  it('--json: a waiting event per fault, naming the row, the host and the next try; every row lands once', async () => {
    await rateLimitedMock(3939);
    const { s, rows, csv, key } = files('waits-json', 81);
    const acct = account(mock);
    const r = await runCli(['send', 'usdt', '--batch', csv, '--key-file', key, '--yes', '--json', '--concurrency', '1'], {
      env: { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: acct.apiKey, TRX_RENT_TRON_NODE: mock.url },
      timeoutMs: 80_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event?: string; id?: string; status?: number; host?: string; retry_in_ms?: number });
    const waits = events.filter((e) => e.event === 'waiting');
    expect(waits).toHaveLength(1);
    for (const w of waits)
      expect(w).toMatchObject({
        status: 429,
        code: 'RATE_LIMITED',
        host: new URL(mock.url).host,
        id: expect.stringMatching(/^r\d$/),
        retry_in_ms: expect.any(Number),
      });
    const chain = paid(mock, s.address);
    expect(rows.map((row) => chain.get(row.to)?.count)).toEqual([1, 1, 1]);
  });

  it.skipIf(!hasScript)('at a terminal: the progress line says who rate limited which row and when it goes again', async () => {
    await rateLimitedMock(3940);
    const { s, rows, csv, key } = files('waits-pty', 82);
    const acct = account(mock);
    const run = await inPty(
      ['send', 'usdt', '--batch', csv, '--key-file', key, '--concurrency', '1'],
      [
        { expect: /Pay 3 rows for about/, send: 'y\r' },
        { expect: /rate limited by 127\.0\.0\.1:\d+ \(429\): row r\d is sent again within \d+ s/, send: '' },
      ],
      { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: acct.apiKey, TRX_RENT_TRON_NODE: mock.url },
      80_000,
    );
    expect(run.unmatched, run.output).toEqual([]);
    expect(run.code, run.output).toBe(0);
    const chain = paid(mock, s.address);
    expect(rows.map((row) => chain.get(row.to)?.count)).toEqual([1, 1, 1]);
  });
});
