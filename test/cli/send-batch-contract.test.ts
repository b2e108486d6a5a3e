/**
 * A batch's confirmation is a contract, through the built CLI as a person runs it: a resume
 * against another mock is refused naming both services and spends nothing there; a top-up past
 * the confirmed cost stops a run confirmed with --yes (its hint: --max-cost); a resume on the
 * same mock shows the plan of what is left and asks (declining writes nothing); and at a
 * terminal a top-up past the confirmed cost is asked, a yes journaled as a new approval. The
 * judges are the mocks' chains, order logs and the journal file.
 *
 * The top-up is forced as in life when a provider takes a delegation back: once the first row
 * has landed, the mock's chain takes 70 % of the energy rented for the sender back, so the batch
 * finds its energy short and must rent again, for more than its margin.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { account, ordersOf, paid, payouts, sender } from '../workflows/payouts-helpers.js';
import { inPty, plain, runCli } from './helpers.js';

const hasScript = spawnSync('script', ['--version']).status === 0;
const timings = { selectMs: 10, fillMs: 20, verifyMs: 30 };

let mock: MockServer;
let other: MockServer;
beforeAll(async () => {
  [mock, other] = await Promise.all([
    startMockServer({ port: 0, rateLimits: false, seed: 3838, timings }),
    startMockServer({ port: 0, rateLimits: false, seed: 3838, timings }),
  ]);
});
afterAll(async () => {
  await Promise.all([mock?.close(), other?.close()]);
});

function files(rows: Array<{ to: string; amount: string; id: string }>, privateKey: string) {
  const dir = mkdtempSync(join(tmpdir(), 'batch-contract-'));
  const csv = join(dir, 'payouts.csv');
  writeFileSync(csv, `to,amount,id\n${rows.map((r) => `${r.to},${r.amount},${r.id}`).join('\n')}\n`);
  const key = join(dir, 'key');
  writeFileSync(key, `${privateKey}\n`, { mode: 0o600 });
  return { dir, csv, key, journal: `${csv}.journal` };
}

/**
 * Once the batch's first row has landed, 70 % of the energy rented for the sender is taken back
 * (a provider reclaiming a delegation): the rows after it meet less energy than the run counted,
 * one burns for it, and the run must rent again for the rest. Returns what was taken (0 until
 * then) and a stop.
 */
function takeBackAfterFirstRow(m: MockServer, accountId: string, address: string): { taken: () => number; stop: () => void } {
  let taken = 0;
  const timer = setInterval(() => {
    if (taken || paid(m, address).size === 0) return;
    const filled = ordersOf(m, accountId).find((o) => o.resource_type === 'ENERGY' && o.target_address === address && o.status === 'FILLED');
    if (!filled) return;
    taken = Math.floor(Number(filled.amount) * 0.7);
    m.state.chain.undelegateResource(address, 'ENERGY', taken);
    clearInterval(timer);
  }, 2);
  return { taken: () => taken, stop: () => clearInterval(timer) };
}

const journalLines = (path: string) =>
  readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; budget_sun?: number });

describe('send usdt --batch: the confirmation binds', { timeout: 120_000 }, () => {
  it('a resume against another mock is refused, naming both, and spends nothing there', async () => {
    const s = sender(mock, 71);
    const acct = account(mock);
    const rows = payouts(mock, 4, 'contract-other');
    const { csv, key } = files(rows, s.privateKey);
    const first = await runCli(['send', 'usdt', '--batch', csv, '--key-file', key, '--yes', '--json'], {
      env: { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: acct.apiKey, TRX_RENT_TRON_NODE: mock.url },
      timeoutMs: 60_000,
    });
    expect(first.code, first.stderr).toBe(0);
    // The other mock: same seed, same rows, the sender funded there too, an account of its own.
    sender(other, 71);
    payouts(other, 4, 'contract-other');
    const there = account(other);
    const second = await runCli(['send', 'usdt', '--batch', csv, '--key-file', key, '--yes', '--json', '--resume'], {
      env: { TRX_RENT_BASE_URL: other.url, TRX_RENT_API_KEY: there.apiKey, TRX_RENT_TRON_NODE: other.url },
      timeoutMs: 60_000,
    });
    expect(second.code).not.toBe(0);
    expect(second.stderr).toContain('JOURNAL_MISMATCH');
    expect(second.stderr).toContain(new URL(mock.url).origin);
    expect(second.stderr).toContain(new URL(other.url).origin);
    expect(ordersOf(other, there.accountId)).toEqual([]);
    expect(paid(other, s.address).size).toBe(0);
    expect([...paid(mock, s.address).values()].every((e) => e.count === 1)).toBe(true);
  });

  it.skipIf(!hasScript)('a top-up past the confirmed cost stops a --yes run; the resume prices what is left and asks; declining writes nothing', async () => {
    const s = sender(mock, 72);
    const acct = account(mock, '1000000');
    const rows = payouts(mock, 12, 'contract-topup');
    const { csv, key, journal } = files(rows, s.privateKey);
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: acct.apiKey, TRX_RENT_TRON_NODE: mock.url };
    const { taken, stop } = takeBackAfterFirstRow(mock, acct.accountId, s.address);

    // 1. Confirmed with --yes: the top-up the run needs is past the margin: it stops, ordering nothing more.
    const first = await runCli(['send', 'usdt', '--batch', csv, '--key-file', key, '--yes', '--concurrency', '1'], { env, timeoutMs: 60_000 });
    stop();
    expect(taken()).toBeGreaterThan(0);
    expect(first.code, first.stderr).not.toBe(0);
    expect(first.stderr).toMatch(/SPENDING_CAP_EXCEEDED[\s\S]*past its confirmed cost/);
    expect(first.stderr).toContain('--max-cost');
    const ordersAfterStop = ordersOf(mock, acct.accountId).length;
    expect(ordersAfterStop).toBeGreaterThan(0);
    expect(journalLines(journal).filter((e) => e.type === 'order' && String((e as { key?: string }).key).includes(':topup:'))).toEqual([]);
    const paidAfterStop = [...paid(mock, s.address).values()].reduce((n, e) => n + e.count, 0);
    expect(paidAfterStop).toBeLessThan(12);

    // 2. The resume, at a terminal: the plan of what is left, asked again; "n" writes nothing.
    const size = statSync(journal).size;
    const declined = await inPty(
      ['send', 'usdt', '--batch', csv, '--key-file', key, '--resume', '--concurrency', '1'],
      [{ expect: /Resume: \d+ rows confirmed.*pay the \d+ rows left/, send: 'n\r' }],
      env,
      40_000,
    );
    expect(declined.unmatched, declined.output).toEqual([]);
    // Declining is not a failure (exit 0, "Cancelled", as every confirmation of the CLI).
    expect(declined.code, declined.output).toBe(0);
    expect(declined.output).toMatch(/Cancelled/);
    expect(statSync(journal).size).toBe(size);
    expect(ordersOf(mock, acct.accountId).length).toBe(ordersAfterStop);
    expect([...paid(mock, s.address).values()].reduce((n, e) => n + e.count, 0)).toBe(paidAfterStop);

    // 3. Again, "y": the rows left are paid, once each.
    const approvalsBefore = journalLines(journal).filter((e) => e.type === 'approved').length;
    // The question prices the energy the node now lacks (top-ups buy it), and approving it raises the budget to cover it.
    const resumed = await inPty(
      ['send', 'usdt', '--batch', csv, '--key-file', key, '--resume', '--concurrency', '1'],
      [{ expect: /Resume: \d+ rows confirmed.*pay the \d+ rows left for about [1-9][\d,]* SUN .* more rental .*the batch's budget becomes/, send: 'y\r' }],
      env,
      60_000,
    );
    expect(resumed.unmatched, resumed.output).toEqual([]);
    expect(resumed.code, plain(resumed.output)).toBe(0);
    const chain = paid(mock, s.address);
    expect(rows.map((r) => chain.get(r.to)?.count)).toEqual(rows.map(() => 1));
    expect(journalLines(journal).filter((e) => e.type === 'approved').length).toBe(approvalsBefore + 1);
  });

  it.skipIf(!hasScript)(
    'at a terminal, a top-up past the confirmed cost is asked; yes raises the budget (journaled) and the batch ends paid once each',
    async () => {
      const s = sender(mock, 73);
      const acct = account(mock, '1000000');
      const rows = payouts(mock, 12, 'contract-ask');
      const { csv, key, journal } = files(rows, s.privateKey);
      const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: acct.apiKey, TRX_RENT_TRON_NODE: mock.url };
      const reclaim = takeBackAfterFirstRow(mock, acct.accountId, s.address);
      const run = await inPty(
        ['send', 'usdt', '--batch', csv, '--key-file', key, '--concurrency', '1'],
        [
          { expect: /Pay 12 rows for about/, send: 'y\r' },
          { expect: /Energy ran short: renting [\d,]+ more energy costs .* past the confirmed cost .* Raise the batch's budget to [\d,.]+ SUN/, send: 'y\r' },
        ],
        env,
        60_000,
      );
      reclaim.stop();
      expect(reclaim.taken()).toBeGreaterThan(0);
      expect(run.unmatched, run.output).toEqual([]);
      expect(run.code, run.output).toBe(0);
      const chain = paid(mock, s.address);
      expect(rows.map((r) => chain.get(r.to)?.count)).toEqual(rows.map(() => 1));
      const approvals = journalLines(journal).filter((e) => e.type === 'approved');
      expect(approvals).toHaveLength(2);
      expect(approvals[1]!.budget_sun).toBeGreaterThan(approvals[0]!.budget_sun!);
    },
  );
});
