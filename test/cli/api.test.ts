/**
 * The CLI (in-process) against a real mock server on 127.0.0.1: JSON and human output, exit
 * codes, money moving only when confirmed.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { buildTrxTransfer, privateKeyToTronAddress, signTransaction } from '../../src/protocol/tron-transaction.js';
import { ADDRESS, errorLine, json, runCliInProcess } from './run.js';

let mock: MockServer;
let env: Record<string, string>;

beforeAll(async () => {
  // Fast fills: the CLI's behaviour is the point here, not the mock's pacing.
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 7, timings: { selectMs: 20, fillMs: 30, verifyMs: 40 } });
  env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
});
afterAll(async () => {
  await mock?.close();
});

const demoBalance = () => mock.state.balance(mock.state.demo.account_id);

describe('prices', () => {
  it('--json prints one array, cheapest first, with exact TRX strings', async () => {
    const r = await runCliInProcess(['prices', '--json'], { env: { TRX_RENT_BASE_URL: mock.url } });
    expect(r.code).toBe(0);
    const rows = json<Array<{ provider: string; price_sun: number; price_trx: string; duration_sec: number }>>(r);
    expect(rows.length).toBeGreaterThan(0);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.price_sun).toBeGreaterThanOrEqual(rows[i - 1]!.price_sun);
    for (const row of rows) {
      expect(row.duration_sec).toBeGreaterThanOrEqual(3600);
      expect(Number(row.price_trx) * 1e6).toBeCloseTo(row.price_sun, 6);
    }
    expect(r.stderr).toBe('');
  });

  it('is JSON by default when stdout is not a terminal, and a table with --no-json', async () => {
    const piped = await runCliInProcess(['prices', 'bandwidth', '--duration', '1d'], { env });
    expect(piped.code).toBe(0);
    expect(Array.isArray(json(piped))).toBe(true);
    const human = await runCliInProcess(['prices', '--no-json', '--amount', '65k'], { env });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Energy for 1h: \d+ of \d+ providers, cheapest first/);
    expect(human.stdout).toMatch(/PROVIDER\s+SUN\/UNIT\s+TRX\/UNIT\s+TIER\s+AVAILABLE\s+COST OF 65,000/);
    expect(human.stdout).not.toMatch(/\u001b\[/); // no colour off a terminal
  });

  it('a bad duration is a usage error (exit 2) naming the option', async () => {
    const r = await runCliInProcess(['prices', '--duration', 'soon', '--json'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorLine(r).message).toContain('--duration');
  });
});

describe('buy', () => {
  it('buy 65000 --to T… --duration 1h --yes --wait --json exits 0 with a FILLED order and its fills', async () => {
    const before = demoBalance().trx;
    const r = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--yes', '--wait', '--json'], { env, timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(0);
    const order = json(r);
    expect(order.status).toBe('FILLED');
    expect(order.amount).toBe(65000);
    expect(order.duration_sec).toBe(3600);
    expect(order.target_address).toBe(ADDRESS);
    expect(order.fills.length).toBeGreaterThan(0);
    expect(order.fills[0].tronscan_url).toMatch(/^https:\/\//);
    expect(before - demoBalance().trx).toBe(order.total_cost_sun);
  });

  it('human output shows the preview, the order and explorer links', async () => {
    const r = await runCliInProcess(['buy', '65k', 'energy', '-t', ADDRESS, '-d', '3600', '--yes', '--wait', '--no-json'], { env, timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Preview 65,000 energy for 1h');
    expect(r.stdout).toMatch(/best\s+\S+/);
    expect(r.stdout).toMatch(/status\s+FILLED/);
    expect(r.stdout).toContain('https://tronscan.org/');
    expect(r.stderr).toMatch(/Order \S+ placed \(PENDING\); idempotency key [0-9a-f-]{36}/);
  });

  it('without --yes and without a terminal: exit 2, no order placed', async () => {
    const before = demoBalance();
    const r = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--json'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorLine(r)).toMatchObject({ code: 'CONFIRMATION_REQUIRED', exit_code: 2 });
    expect(demoBalance()).toEqual(before);
  });

  it('missing arguments fail at once (no prompt, no hang) naming all of them', async () => {
    const r = await runCliInProcess(['buy', '--yes', '--json'], { env, timeoutMs: 10_000 });
    expect(r.code).toBe(2);
    const e = errorLine(r);
    expect(e.code).toBe('MISSING_ARGUMENT');
    expect(e.message).toContain('<amount>');
    expect(e.message).toContain('--to ADDRESS');
    expect(e.message).toContain('--duration');
  });

  it('an invalid address and an amount below the minimum are validation errors (exit 2)', async () => {
    const bad = await runCliInProcess(['buy', '65000', '--to', 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMX', '--duration', '1h', '--yes'], { env });
    expect(bad.code).toBe(2);
    expect(errorLine(bad).code).toBe('INVALID_ADDRESS');
    const small = await runCliInProcess(['buy', '1000', '--to', ADDRESS, '--duration', '1h', '--yes'], { env });
    expect(small.code).toBe(2);
    expect(errorLine(small)).toMatchObject({ code: 'VALIDATION_ERROR', hint: 'rent at least 65000 units of energy' });
  });

  it('--dry-run previews and places nothing', async () => {
    const before = demoBalance();
    const r = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--dry-run', '--json'], { env });
    expect(r.code).toBe(0);
    expect(json(r)).toMatchObject({ dry_run: true, no_providers: false });
    expect(demoBalance()).toEqual(before);
  });

  it('INSUFFICIENT_BALANCE: exit 1 with the balance and the shortfall in the hint', async () => {
    const poor = mock.state.createAccount({ name: 'poor', trx_sun: 1_000_000 });
    const r = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--yes', '--json'], {
      env: { ...env, TRX_RENT_API_KEY: poor.api_key },
    });
    expect(r.code).toBe(1);
    const e = errorLine(r);
    expect(e.code).toBe('INSUFFICIENT_BALANCE');
    expect(e.hint).toMatch(/balance 1 TRX \(1,000,000 SUN\); needed [\d.]+ TRX \([\d,]+ SUN\); short by [\d.]+ TRX/);
  });
});

describe('orders, balance, history', () => {
  it('orders list / get in JSON and as tables; an unknown id exits 4', async () => {
    const list = await runCliInProcess(['orders', 'list', '--limit', '5', '--json'], { env });
    expect(list.code).toBe(0);
    const page = json(list);
    expect(Array.isArray(page)).toBe(true); // a list is an array; paging notes go to stderr
    expect(page.length).toBeGreaterThan(0);
    const id = page[0].id;
    const got = await runCliInProcess(['orders', 'get', id, '--json'], { env });
    expect(json(got).id).toBe(id);
    const table = await runCliInProcess(['orders', 'list', '--no-json'], { env });
    expect(table.stdout).toMatch(/^ID\s+STATUS\s+AMOUNT\s+FOR\s+TO\s+CREATED \(UTC\)/);
    expect(table.stdout).toContain(id);
    const missing = await runCliInProcess(['orders', 'get', '00000000-0000-0000-0000-000000000000', '--json'], { env });
    expect(missing.code).toBe(4);
    expect(errorLine(missing)).toMatchObject({ code: 'NOT_FOUND', hint: 'check the id with `trx-rent orders list`' });
  });

  it('orders list --all walks every page', async () => {
    const all = json(await runCliInProcess(['orders', 'list', '--all', '--limit', '1', '--json'], { env }));
    const first = json(await runCliInProcess(['orders', 'list', '--limit', '100', '--json'], { env }));
    expect(all.map((o: { id: string }) => o.id)).toEqual(first.map((o: { id: string }) => o.id));
    // one page of several: the array on stdout, where it sits on stderr
    const one = await runCliInProcess(['orders', 'list', '--limit', '1', '--json'], { env });
    expect(json(one)).toHaveLength(1);
    expect(one.stderr).toContain(`1 of ${first.length} orders from offset 0; next page: --offset 1, or --all for every page`);
  });

  it('orders wait resolves at once for a filled order', async () => {
    const page = json(await runCliInProcess(['orders', 'list', '--status', 'filled', '--json'], { env }));
    const r = await runCliInProcess(['orders', 'wait', page[0].id, '--json'], { env });
    expect(r.code).toBe(0);
    expect(json(r).status).toBe('FILLED');
  });

  it('balance: SUN in JSON, TRX and SUN for people', async () => {
    const r = await runCliInProcess(['balance', '--json'], { env });
    expect(json(r)).toMatchObject({ trx: demoBalance().trx, trx_locked: expect.any(Number), usdt: expect.any(Number) });
    const human = await runCliInProcess(['balance', '--no-json'], { env });
    const trx = demoBalance().trx;
    expect(human.stdout).toMatch(new RegExp(`TRX available\\s+${(trx / 1e6).toString().replace('.', '\\.')} TRX`));
  });

  it('history and history summary', async () => {
    const fills = json(await runCliInProcess(['history', '--period', '30d', '--json'], { env }));
    expect(Array.isArray(fills)).toBe(true);
    expect(fills.length).toBeGreaterThan(0);
    const summary = json(await runCliInProcess(['history', 'summary', '--json'], { env }));
    expect(summary.total_orders).toBeGreaterThan(0);
    const bad = await runCliInProcess(['history', '--period', '1Y'], { env });
    expect(bad.code).toBe(2);
  });
});

describe('withdraw', () => {
  it('without --yes and without a terminal exits 2 and moves no money', async () => {
    const before = demoBalance();
    const r = await runCliInProcess(['withdraw', '60', '--to', ADDRESS], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorLine(r)).toMatchObject({ code: 'CONFIRMATION_REQUIRED', hint: 'pass --yes to confirm non-interactively' });
    expect(demoBalance()).toEqual(before);
  });

  it('with --yes withdraws exactly the decimal amount in SUN', async () => {
    const before = demoBalance();
    const r = await runCliInProcess(['withdraw', '--amount', '60.5', '--to', ADDRESS, '--yes', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    const w = json(r);
    expect(w).toMatchObject({ amount: 60_500_000, currency: 'TRX', address: ADDRESS });
    const after = demoBalance();
    expect(before.trx - after.trx).toBe(60_500_000);
  });

  it('below the minimum or with too many decimals: exit 2 before anything is sent', async () => {
    expect((await runCliInProcess(['withdraw', '10', '--to', ADDRESS, '--yes'], { env })).code).toBe(2);
    expect((await runCliInProcess(['withdraw', '60', '--amount', '70', '--to', ADDRESS, '--yes'], { env })).code).toBe(2);
    const r = await runCliInProcess(['withdraw', '50.0000001', '--to', ADDRESS, '--yes'], { env });
    expect(r.code).toBe(2);
    expect(errorLine(r).message).toContain('6 decimal places');
  });
});

describe('authentication and permissions', () => {
  it('no key: exit 3 with what to do', async () => {
    const r = await runCliInProcess(['balance', '--json'], { env: { TRX_RENT_BASE_URL: mock.url } });
    expect(r.code).toBe(3);
    expect(errorLine(r).hint).toContain('trx-rent login');
  });

  it('a wrong key: exit 3 (UNAUTHORIZED), and the key is never printed', async () => {
    const key = `sk_live_${'ab'.repeat(32)}`;
    const r = await runCliInProcess(['balance', '--json', '--verbose'], { env: { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: key } });
    expect(r.code).toBe(3);
    expect(errorLine(r).code).toBe('UNAUTHORIZED');
    expect(r.stdout + r.stderr).not.toContain(key);
  });

  it('a key without the permission: exit 3 (FORBIDDEN) naming it', async () => {
    const limited = mock.state.createAccount({ name: 'limited', trx_sun: 100_000_000, permissions: ['view_orders'] });
    const r = await runCliInProcess(['balance', '--json'], { env: { ...env, TRX_RENT_API_KEY: limited.api_key } });
    expect(r.code).toBe(3);
    expect(errorLine(r)).toMatchObject({ code: 'FORBIDDEN' });
    expect(errorLine(r).hint).toContain('view_balance');
  });

  it('no base URL anywhere: exit 2 with the ways to set one', async () => {
    const r = await runCliInProcess(['balance', '--json'], { env: { TRX_RENT_API_KEY: mock.apiKey } });
    expect(r.code).toBe(2);
    expect(errorLine(r)).toMatchObject({ code: 'CONFIGURATION_ERROR' });
  });

  it('an unreachable API: exit 1 with a network hint', async () => {
    const r = await runCliInProcess(['prices', '--json', '--base-url', 'http://127.0.0.1:9'], { env: {} });
    expect(r.code).toBe(1);
    expect(errorLine(r)).toMatchObject({ code: 'CONNECTION_ERROR' });
    expect(errorLine(r).hint).toContain('http://127.0.0.1:9');
  });

  it('--verbose logs requests and status codes on stderr with the key redacted', async () => {
    const r = await runCliInProcess(['balance', '--json', '--verbose'], { env });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/→ GET \/api\/v1\/balance/);
    expect(r.stderr).toMatch(/← 200 GET \/api\/v1\/balance/);
    expect(r.stderr).toContain('API key from TRX_RENT_API_KEY');
    expect(r.stderr).not.toContain(mock.apiKey);
    expect(json(r).trx).toBeTypeOf('number');
  });
});

describe('rate limits', () => {
  it('RATE_LIMITED: exit 5 with the wait from Retry-After', async () => {
    const limited = await startMockServer({ port: 0, rateLimits: { balance: 1, windowMs: 600_000 } });
    try {
      const e = { TRX_RENT_BASE_URL: limited.url, TRX_RENT_API_KEY: limited.apiKey };
      expect((await runCliInProcess(['balance', '--json'], { env: e })).code).toBe(0);
      const r = await runCliInProcess(['balance', '--json'], { env: e });
      expect(r.code).toBe(5);
      const err = errorLine(r);
      expect(err.code).toBe('RATE_LIMITED');
      // Reported, not slept through: a wait would have ended in an answer (exit 0), not exit 5.
      expect(err.hint).toMatch(/^wait (\d+ s|\d+ min) before retrying/);
    } finally {
      await limited.close();
    }
  });
});

describe('deposits, keys, webhooks', () => {
  it('deposit info and prepare (TRX decimals to exact SUN)', async () => {
    const info = json(await runCliInProcess(['deposit', 'info', '--json'], { env }));
    expect(info.memo).toBe(mock.memo);
    const prepared = await runCliInProcess(['deposit', 'prepare', '12.345678', '--json'], { env });
    expect(prepared.code, prepared.stderr).toBe(0);
    expect(json(prepared)).toMatchObject({ amount_sun: 12_345_678, memo: mock.memo });
  });

  it('deposit submit broadcasts a signed transfer carrying the memo (stdin or --file)', async () => {
    const key = '1f'.repeat(32);
    const tx = signTransaction(
      buildTrxTransfer({ from: privateKeyToTronAddress(key), to: mock.state.platformAddress, amountSun: 2_500_000n, memo: mock.memo }),
      key,
    );
    const r = await runCliInProcess(['deposit', 'submit', '--json'], { env: { TRX_RENT_BASE_URL: mock.url }, input: JSON.stringify(tx) });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ tx_id: tx.txID, status: 'pending' });
    const again = await runCliInProcess(['deposit', 'submit', '--json'], { env, input: JSON.stringify(tx) });
    expect(again.code).toBe(1);
    expect(errorLine(again)).toMatchObject({ code: 'BROADCAST_FAILED' });
    const second = signTransaction(
      buildTrxTransfer({ from: privateKeyToTronAddress(key), to: mock.state.platformAddress, amountSun: 3_000_000n, memo: mock.memo }),
      key,
    );
    const human = await runCliInProcess(['deposit', 'submit', '--no-json'], { env, input: JSON.stringify({ signed_tx: second }) });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/amount\s+3,000,000 SUN \(3 TRX\)/);
  });

  it('broadcast hands a signed transaction to the service (--file or stdin); again answers the same tx id; a key without the permission exits 3', async () => {
    const key = '2e'.repeat(32);
    const from = privateKeyToTronAddress(key);
    mock.state.chain.fundTrx(from, 5_000_000n);
    const tx = signTransaction(buildTrxTransfer({ from, to: ADDRESS, amountSun: 1_000_000n, now: mock.state.now() }), key);
    const dir = mkdtempSync(join(tmpdir(), 'trx-rent-broadcast-'));
    const file = join(dir, 'tx.json');
    writeFileSync(file, JSON.stringify(tx));
    const r = await runCliInProcess(['broadcast', '--file', file, '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toEqual({ tx_id: tx.txID.toLowerCase(), status: 'pending' });
    expect(mock.state.chain.trxBalance(ADDRESS)).toBeGreaterThanOrEqual(1_000_000n);
    const again = await runCliInProcess(['broadcast', '--no-json'], { env, input: JSON.stringify({ signed_tx: tx }) });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`tx\\s+${tx.txID.toLowerCase()}`));
    const narrow = mock.state.createAccount({ trx_sun: 1_000_000, permissions: ['view_orders'] });
    const refused = await runCliInProcess(['broadcast', '--json'], { env: { ...env, TRX_RENT_API_KEY: narrow.api_key }, input: JSON.stringify(tx) });
    expect(refused.code).toBe(3);
    expect(errorLine(refused)).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('deposit submit without input on a pipe: rejects non-JSON with exit 2', async () => {
    const r = await runCliInProcess(['deposit', 'submit', '--json'], { env, input: 'not json' });
    expect(r.code).toBe(2);
  });

  it('keys create prints the new key once as the data; revoke needs --yes; the revoked key then exits 3', async () => {
    const created = await runCliInProcess(['keys', 'create', '--name', 'ci', '--permissions', 'view_balance,view_orders', '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    const key = json(created);
    expect(key.key).toMatch(/^sk_live_/);
    expect(created.stderr).toContain('shown only once');
    expect(created.stderr).not.toContain(key.key);
    const works = await runCliInProcess(['balance', '--json'], { env: { ...env, TRX_RENT_API_KEY: key.key } });
    expect(works.code).toBe(0);
    expect((await runCliInProcess(['keys', 'revoke', key.id], { env })).code).toBe(2);
    const revoked = await runCliInProcess(['keys', 'revoke', key.id, '--yes', '--json'], { env });
    expect(json(revoked)).toMatchObject({ id: key.id, revoked: true });
    const after = await runCliInProcess(['balance', '--json'], { env: { ...env, TRX_RENT_API_KEY: key.key } });
    expect(after.code).toBe(3);
    const again = await runCliInProcess(['keys', 'revoke', key.id, '--yes', '--json'], { env });
    expect(again.code).toBe(4);
  });

  it('webhooks create / list / delete', async () => {
    const created = await runCliInProcess(['webhooks', 'create', '--url', 'https://example.com/hook', '--events', 'order.filled', '--json'], { env });
    expect(created.code, created.stderr).toBe(0);
    const hook = json(created);
    expect(hook.secret).toMatch(/^[0-9a-f]{64}$/);
    const list = json(await runCliInProcess(['webhooks', 'list', '--json'], { env }));
    expect(list.map((w: { id: string }) => w.id)).toContain(hook.id);
    expect(JSON.stringify(list)).not.toContain(hook.secret);
    const deleted = await runCliInProcess(['webhooks', 'delete', hook.id, '--yes', '--json'], { env });
    expect(json(deleted)).toMatchObject({ id: hook.id, deleted: true });
    const bad = await runCliInProcess(['webhooks', 'create', '--url', 'http://example.com/hook', '--events', 'order.filled', '--json'], { env });
    expect(bad.code).toBe(2);
  });
});

describe('--mock', () => {
  it('runs any command against an embedded mock', async () => {
    const r = await runCliInProcess(['--mock', 'balance', '--json'], { env: {} });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r).trx).toBe(1_000_000_000);
  });
});
