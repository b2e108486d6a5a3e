/**
 * Waits are shown: a retry after 429 (the mock's chaos rule answers it with Retry-After: 1) is
 * said on the CLI's status line for people ("rate limited by HOST (429), retrying in 1 s") and
 * is a `{"event":"retrying",…}` line where the command streams NDJSON (`send --batch --json`),
 * never an extra document where it prints one. In-process, against a mock on 127.0.0.1.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { account, paid, payouts, sender } from '../workflows/payouts-helpers.js';
import { ADDRESS, json, runCliInProcess } from './run.js';

let mock: MockServer;
let host: string;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 5151, timings: { selectMs: 10, fillMs: 20, verifyMs: 30 } });
  host = new URL(mock.url).host;
});
afterAll(async () => {
  await mock?.close();
});
beforeEach(() => {
  mock.chaos.setRules([]);
});

// eslint-disable-next-line no-control-regex
const plain = (s: string) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '\n');

describe('a retry, shown', { timeout: 60_000 }, () => {
  it('on the status line: `orders wait` says who rate limited it and how long it waits, then goes on', async () => {
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey, TERM: 'xterm' };
    const bought = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--yes', '--json'], { env });
    expect(bought.code, bought.stderr).toBe(0);
    const id = json(bought).id as string;
    mock.chaos.setRules([{ route: `GET /api/v1/orders/${id}`, kind: 429, times: 1 }]);
    const r = await runCliInProcess(['orders', 'wait', id, '--no-json', '--no-color'], { env, isTTY: { stderr: true } });
    expect(r.code, r.stderr).toBe(0);
    const lines = plain(r.stderr).split('\n');
    // Drawn on the spinner's line, after its text.
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(`Waiting for order ${id} to fill… .*· rate limited by ${host.replace(/\./g, '\\.')} \\(429\\), retrying in 1 s \\(retry 1/\\d\\)$`),
      ),
    );
    expect(r.stderr).toMatch(/FILLED after/);
    expect(mock.chaos.log.some((h) => h.path === `/api/v1/orders/${id}` && h.kind === 429)).toBe(true);
  });

  it('as a line on stderr when no spinner runs (`prices` for people); nothing extra in one JSON document', async () => {
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
    mock.chaos.setRules([{ route: 'GET /api/v1/prices', kind: 503, times: 1 }]);
    const human = await runCliInProcess(['prices', '--no-json', '--no-color'], { env });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stderr).toMatch(new RegExp(`service unavailable at ${host.replace(/\./g, '\\.')} \\(503\\), retrying in [\\d.]+ s \\(retry 1/\\d\\)`));
    mock.chaos.setRules([{ route: 'GET /api/v1/prices', kind: 429, times: 1 }]);
    const doc = await runCliInProcess(['prices', '--json'], { env });
    expect(doc.code, doc.stderr).toBe(0);
    expect(Array.isArray(json(doc))).toBe(true);
  });

  it("as a `retrying` event in the NDJSON of `send usdt --batch --json`, among the batch's events", async () => {
    const s = sender(mock, 71);
    const acct = account(mock, '100000');
    const rows = payouts(mock, 2, 'retry');
    const dir = mkdtempSync(join(tmpdir(), 'retry-batch-'));
    const csv = join(dir, 'payouts.csv');
    writeFileSync(csv, `to,amount,id\n${rows.map((r) => `${r.to},${r.amount},${r.id}`).join('\n')}\n`);
    const key = join(dir, 'key');
    writeFileSync(key, `${s.privateKey}\n`, { mode: 0o600 });
    mock.chaos.setRules([{ route: 'POST /wallet/gettransactioninfobyid', kind: 429, times: 1 }]);
    const r = await runCliInProcess(['send', 'usdt', '--batch', csv, '--key-file', key, '--yes', '--json'], {
      env: { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: acct.apiKey, TRX_RENT_TRON_NODE: mock.url },
      timeoutMs: 50_000,
    });
    expect(r.code, r.stderr).toBe(0);
    const events = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { event?: string });
    const retrying = events.filter((e) => e.event === 'retrying');
    expect(retrying).toEqual([
      {
        event: 'retrying',
        host,
        status: 429,
        code: expect.any(String),
        request: 'POST /wallet/gettransactioninfobyid',
        retry: 1,
        max_retries: expect.any(Number),
        delay_ms: 1000,
        retry_after: true,
      },
    ]);
    expect(events.findIndex((e) => e.event === 'planned')).toBeLessThan(events.indexOf(retrying[0]!));
    const chain = paid(mock, s.address);
    expect(rows.every((row) => chain.get(row.to)?.count === 1)).toBe(true);
  });
});
