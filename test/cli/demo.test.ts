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
  });

  it('for people: eight numbered steps with the equivalent commands, ending in a verified webhook', async () => {
    const r = await runCliInProcess(['demo', '--no-json'], { timeoutMs: 50_000, env: { TRX_RENT_BASE_URL: 'http://127.0.0.1:9', TRX_RENT_API_KEY: 'ignored' } });
    expect(r.code, r.stderr).toBe(0);
    for (let i = 1; i <= 8; i++) expect(r.stdout).toContain(`${i}/8 `);
    for (const cmd of ['$ trx-rent prices', '$ trx-rent preview', '$ trx-rent buy', '$ trx-rent orders wait', '$ trx-rent balance', '$ trx-rent webhooks verify']) {
      expect(r.stdout).toContain(cmd);
    }
    expect(r.stdout).toMatch(/8\/8 Webhook {2}✓ order\.filled for \S+ received and verified/);
    expect(r.stdout).toContain('https://tronscan.org/');
    expect(r.stdout).toContain('Tour complete.');
    // TronSave's minimum energy order (100,000 in the mock) is above the tour's 65,000: not shown
    const prices = r.stdout.slice(r.stdout.indexOf('3/8 '), r.stdout.indexOf('4/8 '));
    expect(prices).toMatch(/PROVIDER/);
    expect(prices).not.toMatch(/tronsave/i);
    expect(r.stderr).toMatch(/FILLED after [\d.]+ s/);
  });
});
