/**
 * `trx-rent demo`: the whole tour on an embedded mock, no account and no settings needed. The
 * --json run is the real process (a smoke test of the build); the human tour runs in-process.
 */
import { describe, expect, it } from 'vitest';
import { json, runCli } from './helpers.js';
import { runCliInProcess } from './run.js';

describe('demo', { timeout: 60_000 }, () => {
  it('--json: exits 0 with one document covering every step', async () => {
    const r = await runCli(['demo', '--json'], { timeoutMs: 50_000 });
    expect(r.code, r.stderr).toBe(0);
    const doc = json(r);
    expect(doc.prices.length).toBeGreaterThan(0);
    // only providers that quote the tour's amount (TronSave's minimum is above 65,000)
    const quoted = [doc.preview.best, ...doc.preview.fallbacks].map((o: { provider: string }) => o.provider);
    for (const row of doc.prices) expect(quoted).toContain(row.provider);
    expect(doc.prices.map((row: { provider: string }) => row.provider)).not.toContain('tronsave');
    expect(doc.preview.best).toBeTruthy();
    expect(doc.order.status).toBe('FILLED');
    expect(doc.order.fills[0].tronscan_url).toMatch(/^https:\/\//);
    expect(doc.balance.spent_sun).toBe(doc.order.total_cost_sun);
    expect(doc.balance.before.trx - doc.balance.after.trx).toBe(doc.order.total_cost_sun);
    expect(doc.webhook).toMatchObject({ event: 'order.filled', order_id: doc.order.id, verified: true });
    // It ends with a USDT send whose energy was rented: nothing burnt for it, and a saving.
    expect(doc.transfer).toMatchObject({ token: { symbol: 'USDT' }, amount: '10', receipt: { result: 'SUCCESS', energy_burned_sun: 0 } });
    expect(doc.transfer.saving_sun).toBe(doc.transfer.burn_cost_sun - doc.transfer.total_cost_sun);
    expect(doc.transfer.saving_sun).toBeGreaterThan(0);
  });

  it('for people: nine numbered steps with the equivalent commands: a verified webhook, then a USDT send that shows the saving', async () => {
    const r = await runCliInProcess(['demo', '--no-json'], {
      timeoutMs: 50_000,
      env: { TRX_RENT_BASE_URL: 'http://127.0.0.1:9', TRX_RENT_API_KEY: 'ignored' },
    });
    expect(r.code, r.stderr).toBe(0);
    for (let i = 1; i <= 9; i++) expect(r.stdout).toContain(`${i}/9 `);
    for (const cmd of [
      '$ trx-rent prices',
      '$ trx-rent preview',
      '$ trx-rent buy',
      '$ trx-rent orders wait',
      '$ trx-rent balance',
      '$ trx-rent webhooks verify',
      '$ trx-rent send usdt',
    ]) {
      expect(r.stdout).toContain(cmd);
    }
    expect(r.stdout).toMatch(/8\/9 Webhook {2}✓ order\.filled for \S+ received and verified/);
    expect(r.stdout).toMatch(/9\/9 Send USDT {2}10 USDT from T\w+ \(no energy\)/);
    expect(r.stdout).toMatch(/Sent 10 USDT to T\w+ in block \d+/);
    expect(r.stdout).toMatch(/saved\s+[\d,]+ SUN \([\d.]+ TRX\)/);
    expect(r.stdout).toContain('https://tronscan.org/');
    expect(r.stdout).toContain('Tour complete.');
    // TronSave's minimum energy order (100,000 in the mock) is above the tour's 65,000: not shown
    const prices = r.stdout.slice(r.stdout.indexOf('3/9 '), r.stdout.indexOf('4/9 '));
    expect(prices).toMatch(/PROVIDER/);
    expect(prices).not.toMatch(/tronsave/i);
    expect(r.stderr).toMatch(/FILLED after [\d.]+ s/);
  });
});
