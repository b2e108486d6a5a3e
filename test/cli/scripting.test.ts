/**
 * Output for scripts (in-process, against a mock on 127.0.0.1): one shape rule (a list is an
 * array, one resource an object), `--json FIELDS`, `--query` (JMESPath), paging notes on stderr,
 * and tables that fit a terminal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandJsonFields } from '../../src/cli/index.js';
import { visibleLength } from '../../src/cli/styles.js';
import { fitWidths, truncateCell } from '../../src/cli/tables.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { KEYS } from '../x402/helpers.js';
import { ADDRESS, errorLine, json, runCliInProcess, tempDir } from './run.js';

let mock: MockServer;
let env: Record<string, string>;

beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 11, timings: { selectMs: 20, fillMs: 30, verifyMs: 40 } });
  env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
  // Two filled orders and a webhook, so every list has something in it.
  for (let i = 0; i < 2; i++) {
    const r = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--yes', '--wait', '--json'], { env });
    expect(r.code, r.stderr).toBe(0);
  }
  const hook = await runCliInProcess(['webhooks', 'create', '--url', 'http://127.0.0.1:9/hook', '--events', 'all', '--json'], { env });
  expect(hook.code, hook.stderr).toBe(0);
});
afterAll(async () => {
  await mock?.close();
});

describe('one shape rule: a list is an array, one resource an object', () => {
  const lists: string[][] = [['prices'], ['orders', 'list'], ['history'], ['webhooks', 'list'], ['profiles', 'list']];
  for (const args of lists) {
    it(`${args.join(' ')} --json prints an array`, async () => {
      const r = await runCliInProcess([...args, '--json'], { env });
      expect(r.code, r.stderr).toBe(0);
      expect(Array.isArray(json(r))).toBe(true);
    });
  }

  const singles: string[][] = [['balance'], ['history', 'summary'], ['deposit', 'info'], ['preview', '65000']];
  for (const args of singles) {
    it(`${args.join(' ')} --json prints an object`, async () => {
      const r = await runCliInProcess([...args, '--json'], { env });
      expect(r.code, r.stderr).toBe(0);
      const doc = json(r);
      expect(doc !== null && typeof doc === 'object' && !Array.isArray(doc)).toBe(true);
    });
  }
});

describe('--json FIELDS', () => {
  it('keeps the named fields of each item of a list, in the order given', async () => {
    const r = await runCliInProcess(['orders', 'list', '--json', 'status,id'], { env });
    expect(r.code, r.stderr).toBe(0);
    const rows = json<Array<Record<string, unknown>>>(r);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (const row of rows) expect(Object.keys(row)).toEqual(['status', 'id']);
  });

  it('works on an object, with --json=FIELDS, and before the command', async () => {
    expect(Object.keys(json(await runCliInProcess(['balance', '--json=trx'], { env })))).toEqual(['trx']);
    expect(Object.keys(json(await runCliInProcess(['--json', 'trx,usdt', 'balance'], { env })))).toEqual(['trx', 'usdt']);
  });

  it('a single known field name is a field list; any other word is left to the command', async () => {
    expect(expandJsonFields(['orders', 'list', '--json', 'id'])).toEqual(['orders', 'list', '--json', '--json-fields', 'id']);
    expect(expandJsonFields(['prices', '--json', 'bandwidth'])).toEqual(['prices', '--json', 'bandwidth']);
    expect(expandJsonFields(['--json', 'status'])).toEqual(['--json', 'status']); // the status command
    expect(expandJsonFields(['--profile', 'id', '--json', 'orders'])).toEqual(['--profile', 'id', '--json', 'orders']);
    expect(expandJsonFields(['orders', 'get', '--json', '5f0c2c1e-0000-4000-8000-000000000000'])).toEqual([
      'orders',
      'get',
      '--json',
      '5f0c2c1e-0000-4000-8000-000000000000',
    ]);
    const r = await runCliInProcess(['prices', '--json', 'bandwidth'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(json<Array<{ resource: string }>>(r).every((row) => row.resource === 'BANDWIDTH')).toBe(true);
  });

  it('an unknown field is an error (exit 2, as gh) naming the available ones; nothing is printed', async () => {
    const r = await runCliInProcess(['balance', '--json', 'trx,nope'], { env });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(errorLine(r)).toMatchObject({
      code: 'UNKNOWN_FIELD',
      message: 'no field nope in this output',
      hint: expect.stringMatching(/^available: trx, usdt, trx_locked/),
    });
  });

  it('fields are checked against the schema, not the rows: an unknown field fails on an empty list too', async () => {
    // No FAILED orders on this mock: the list is empty, yet the typo is caught and a real field passes.
    const empty = await runCliInProcess(['orders', 'list', '--status', 'FAILED', '--json', 'id,nope'], { env });
    expect(empty.code).toBe(2);
    expect(empty.stdout).toBe('');
    expect(errorLine(empty)).toMatchObject({ code: 'UNKNOWN_FIELD', message: 'no field nope in this output', hint: expect.stringMatching(/target_address/) });
    const ok = await runCliInProcess(['orders', 'list', '--status', 'FAILED', '--json', 'id,target_address'], { env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(json(ok)).toEqual([]);
    // The same for every list: profiles (an empty store), webhooks, history, prices.
    const configDir = tempDir();
    expect(errorLine(await runCliInProcess(['profiles', 'list', '--json', 'name,nope'], { env, configDir })).code).toBe('UNKNOWN_FIELD');
    expect(json(await runCliInProcess(['profiles', 'list', '--json', 'name,base_url'], { env, configDir }))).toEqual([]);
    for (const args of [['webhooks', 'list'], ['history'], ['prices', '--duration', '1h']]) {
      const r = await runCliInProcess([...args, '--json', 'nope,nope2'], { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(errorLine(r).message).toBe('no field nope, nope2 in this output');
    }
    // One order: a field it does not have yet (filled_at before the fill) is in the schema, a typo is not.
    const pending = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '-d', '1h', '--yes', '--json', 'id,filled_at'], { env });
    expect(pending.code, pending.stderr).toBe(0);
    expect(Object.keys(json(pending))).toContain('id');
    expect(errorLine(await runCliInProcess(['orders', 'get', json(pending).id, '--json', 'id,filed_at'], { env })).code).toBe('UNKNOWN_FIELD');
    // Leave no order in flight: later tests take the newest order to be a filled one.
    const filled = await runCliInProcess(['orders', 'wait', json(pending).id, '--json', 'status'], { env });
    expect(json(filled), filled.stderr).toEqual({ status: 'FILLED' });
    // A field of the schema that this row lacks (cost_sun comes with --amount) is not an error.
    const prices = await runCliInProcess(['prices', '--json', 'provider,cost_sun'], { env });
    expect(prices.code, prices.stderr).toBe(0);
  });

  it('--json nonsense says what is wrong, not "too many arguments"', async () => {
    for (const args of [
      ['orders', 'list', '--json', 'nonsense'],
      ['balance', '--json', 'nonsense'],
      ['webhooks', 'list', '--json', 'nonsense'],
    ]) {
      const r = await runCliInProcess(args, { env });
      expect(r.code, args.join(' ')).toBe(2);
      const error = errorLine(r);
      expect(error.message).toBe('"nonsense" after --json is not a field name of this output, and the command takes no further argument');
      expect(error.hint).toMatch(/--json=FIELDS/);
    }
    // A real extra argument elsewhere is still commander's message.
    expect(errorLine(await runCliInProcess(['balance', 'extra', '--json'], { env })).message).toMatch(/too many arguments/);
  });

  it('at a terminal, a --query or --json FIELDS error is words, not JSON', async () => {
    const r = await runCliInProcess(['balance', '--json', 'trx,nope'], { env: { ...env, NO_COLOR: '1' }, isTTY: true, columns: 80 });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error UNKNOWN_FIELD: no field nope in this output \(hint: available: trx/m);
    const q = await runCliInProcess(['balance', '--query', '[?status=='], { env: { ...env, NO_COLOR: '1' }, isTTY: true, columns: 80 });
    expect(q.code).toBe(2);
    expect(q.stderr).toMatch(/^error \w+: /m);
    expect(q.stderr).not.toMatch(/^\{/m);
  });
});

describe('one convention for money in JSON output (src/cli/README.md, "Money in JSON")', () => {
  /** Every key path of a JSON document with its value. */
  function walk(value: unknown, path: string, visit: (key: string, path: string, v: unknown) => void): void {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`, visit));
    else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        visit(k, `${path}.${k}`, v);
        walk(v, `${path}.${k}`, visit);
      }
    }
  }
  // The API's own documents pass unchanged; these are the spec's (or the live service's) own
  // exceptions to the convention, named by where they sit.
  const API_OWN = [/\.(best|fallbacks\[\d+\])\.(displayName|cost_trx)$/, /^\$\.min_amount_(trx|usdt)$/];

  it('fields are snake_case; *_sun are numbers (whole SUN, a price per unit may have a fraction); *_trx are exact decimal strings', async () => {
    const commands = [
      ['prices', '--amount', '65k'],
      ['preview', '65000'],
      ['balance'],
      ['history'],
      ['history', 'summary'],
      ['orders', 'list'],
      ['deposit', 'info'],
      ['buy', '65000', '--to', ADDRESS, '-d', '1h', '--dry-run', '--yes'],
      ['status'],
    ];
    let sun = 0;
    let trx = 0;
    for (const args of commands) {
      const r = await runCliInProcess([...args, '--json'], { env });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      walk(json(r), '$', (key, path, v) => {
        if (API_OWN.some((re) => re.test(path))) return;
        const where = `${args.join(' ')} ${path}`;
        expect(key, where).toMatch(/^[a-z0-9]+(_[a-z0-9]+)*$/);
        if (key.endsWith('_sun') && v !== null) {
          sun++;
          expect(typeof v, where).toBe('number');
          if (!key.endsWith('price_sun')) expect(Number.isInteger(v), where).toBe(true);
        }
        if (key.endsWith('_trx') && v !== null) {
          trx++;
          expect(v, where).toEqual(expect.stringMatching(/^\d+(\.\d+)?$/));
        }
      });
    }
    expect(sun).toBeGreaterThan(10);
    expect(trx).toBeGreaterThan(3);
  });
});

describe('--query (JMESPath, no external binary)', () => {
  it('filters and projects; a string result prints bare', async () => {
    const ids = await runCliInProcess(['orders', 'list', '--query', "[?status=='FILLED'].id"], { env });
    expect(ids.code, ids.stderr).toBe(0);
    const list = json<string[]>(ids);
    expect(list.length).toBeGreaterThanOrEqual(2);
    const first = await runCliInProcess(['orders', 'list', '--query', '[0].id'], { env });
    expect(first.stdout).toBe(`${list[0]}\n`); // like jq -r: ready for $(…)
    const count = await runCliInProcess(['prices', '-q', 'length(@)'], { env });
    expect(Number(count.stdout)).toBeGreaterThanOrEqual(5);
  });

  it('implies JSON even with --no-json, and combines with --json FIELDS (fields first)', async () => {
    const r = await runCliInProcess(['balance', '--no-json', '--json', 'trx', '--query', 'keys(@)'], { env });
    expect(json(r)).toEqual(['trx']);
  });

  it('a malformed expression is a usage error (exit 2) before anything is sent', async () => {
    let requests = 0;
    const r = await runCliInProcess(['orders', 'list', '--query', '[?status=='], {
      env,
      fetch: (input, init) => {
        requests++;
        return fetch(input, init);
      },
    });
    expect(r.code).toBe(2);
    expect(errorLine(r).message).toMatch(/--query is not a JMESPath expression/);
    expect(requests).toBe(0);
    expect(r.stdout).toBe('');
  });
});

describe('tables on a terminal fit its width', () => {
  it('fits 80 columns by leaving columns out (ids whole, never cut); --wide shows every column', async () => {
    const configDir = tempDir();
    const narrow = await runCliInProcess(['orders', 'list', '--no-color'], { env, isTTY: true, columns: 80, configDir });
    expect(narrow.code, narrow.stderr).toBe(0);
    const lines = narrow.stdout.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThanOrEqual(3);
    for (const line of lines) expect(visibleLength(line), line).toBeLessThanOrEqual(80);
    expect(narrow.stdout).not.toContain('…');
    expect(narrow.stdout).toMatch(/\(TO left out to fit 80 columns: --wide shows all\)/);
    for (const id of json<string[]>(await runCliInProcess(['orders', 'list', '--query', '[].id'], { env }))) expect(narrow.stdout).toContain(id);
    const wide = await runCliInProcess(['orders', 'list', '--wide', '--no-color'], { env, isTTY: true, columns: 80, configDir });
    expect(wide.stdout).not.toContain('…');
    expect(Math.max(...wide.stdout.split('\n').map(visibleLength))).toBeGreaterThan(80);
    const ids = json<string[]>(await runCliInProcess(['orders', 'list', '--query', '[].id'], { env }));
    for (const id of ids) expect(wide.stdout).toContain(id);
  });

  it('piped with --no-json there is no width to fit: nothing is cut', async () => {
    const r = await runCliInProcess(['orders', 'list', '--no-json'], { env });
    expect(r.stdout).not.toContain('…');
  });

  it('truncateCell keeps the colour around a cell and both ends of an id', () => {
    expect(truncateCell('TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW', 13, 'middle')).toBe('TJCnKs…Q6sxMW');
    expect(visibleLength(truncateCell('TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW', 13, 'middle'))).toBeLessThanOrEqual(13);
    expect(truncateCell('\u001b[32mhello world\u001b[39m', 6)).toBe('\u001b[32mhello…\u001b[39m');
    expect(truncateCell('short', 10)).toBe('short');
  });

  it('fitWidths narrows the columns that give way first, never below their minimum', () => {
    const columns = [
      { header: 'ID', shrink: 0, min: 10 },
      { header: 'N', truncate: 'none' as const },
      { header: 'NOTE', shrink: 2, min: 8 },
    ];
    expect(fitWidths(columns, [36, 5, 40], 60)).toEqual({ widths: [36, 5, 15], cut: true });
    expect(fitWidths(columns, [36, 5, 40], 30)).toEqual({ widths: [13, 5, 8], cut: true });
    expect(fitWidths(columns, [36, 5, 40], 20)).toEqual({ widths: [10, 5, 8], cut: true }); // as narrow as allowed
    expect(fitWidths(columns, [36, 5, 40], undefined)).toEqual({ widths: [36, 5, 40], cut: false });
  });
});

describe('trx-rent api METHOD PATH (the SDK request core)', () => {
  it('GET with the configured key; the path may omit /api/v1; -i prints the status and headers first', async () => {
    const r = await runCliInProcess(['api', '/api/v1/balance'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ trx: expect.any(Number) });
    const short = await runCliInProcess(['api', 'GET', 'balance', '--query', 'trx'], { env });
    expect(Number(short.stdout)).toBe(json(r).trx);
    const inc = await runCliInProcess(['api', 'balance', '-i'], { env });
    expect(inc.stdout).toMatch(/^HTTP\/1\.1 200 OK\n(?:[\w-]+: .*\n)+\n\{/);
  });

  it('-f/-F fields go in the query of a GET; --paginate walks every page into one array', async () => {
    const all = json<Array<{ id: string }>>(await runCliInProcess(['orders', 'list', '--all', '--json'], { env }));
    expect(all.length).toBeGreaterThanOrEqual(2);
    const paged = await runCliInProcess(['api', 'orders', '-F', 'limit=1', '--paginate'], { env });
    expect(paged.code, paged.stderr).toBe(0);
    expect(json<Array<{ id: string }>>(paged).map((o) => o.id)).toEqual(all.map((o) => o.id));
    const filtered = await runCliInProcess(['api', 'orders', '-f', 'status=FAILED', '--paginate'], { env });
    expect(json(filtered)).toEqual([]);
    const notAList = await runCliInProcess(['api', 'balance', '--paginate'], { env });
    expect(notAList.code).toBe(2);
    // A list the table gives no pagination (a bare array) is its one answer.
    const prices = await runCliInProcess(['api', 'prices', '--paginate', '-q', 'length(@)'], { env });
    expect(Number(prices.stdout)).toBeGreaterThanOrEqual(5);
  });

  it('POST with fields (or --input -) sends a JSON body, with an idempotency key on /orders', async () => {
    const body = { resource_type: 'ENERGY', amount: 65000, duration_sec: 3600, target_address: ADDRESS };
    const seen: Array<Record<string, string>> = [];
    const spy: typeof fetch = (input, init) => {
      seen.push(Object.fromEntries(new Headers(init?.headers).entries()));
      return fetch(input, init);
    };
    const r = await runCliInProcess(['api', 'POST', '/api/v1/orders', '--input', '-'], { env, input: JSON.stringify(body), fetch: spy });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ status: 'PENDING', amount: 65000 });
    expect(seen[0]?.['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    const typed = await runCliInProcess(
      [
        'api',
        'POST',
        'orders',
        '-f',
        'resource_type=ENERGY',
        '-F',
        'amount=65000',
        '-F',
        'duration_sec=3600',
        '-f',
        `target_address=${ADDRESS}`,
        '-q',
        'status',
      ],
      { env },
    );
    expect(typed.stdout).toBe('PENDING\n');
    // Idempotency comes from the endpoint table: POST /withdraw gets a key, POST /deposit/prepare none.
    seen.length = 0;
    await runCliInProcess(['api', 'POST', 'withdraw', '-f', `address=${ADDRESS}`, '-F', 'amount=50000000', '-f', 'currency=TRX'], { env, fetch: spy });
    expect(seen[0]?.['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    seen.length = 0;
    await runCliInProcess(['api', 'POST', 'deposit/prepare', '-F', 'amount_sun=5000000'], { env, fetch: spy });
    expect(seen[0]).toBeDefined();
    expect(seen[0]?.['idempotency-key']).toBeUndefined();
  });

  it('errors are the same as every command: exit codes and the {error} line', async () => {
    const missing = await runCliInProcess(['api', 'orders/00000000-0000-0000-0000-000000000000'], { env });
    expect(missing.code).toBe(4);
    expect(errorLine(missing).code).toBe('NOT_FOUND');
    const bad = await runCliInProcess(['api', 'POST', 'orders', '-F', 'amount=1'], { env });
    expect(bad.code).toBe(2);
    const noKey = await runCliInProcess(['api', 'balance'], { env: { TRX_RENT_BASE_URL: mock.url } });
    expect(noKey.code).toBe(3);
    const otherHost = await runCliInProcess(['api', 'http://example.com/api/v1/balance'], { env });
    expect(otherHost.code).toBe(2);
    expect(errorLine(otherHost).message).toMatch(/not the configured API/);
    const keyHeader = await runCliInProcess(['api', 'balance', '-H', 'X-API-Key: sk_live_x'], { env });
    expect(keyHeader.code).toBe(2);
    expect(keyHeader.stderr).not.toContain('sk_live_x');
  });

  it('public endpoints work without a key, and the mock routes are reachable', async () => {
    const prices = await runCliInProcess(['api', 'prices', '-q', 'length(@)'], { env: { TRX_RENT_BASE_URL: mock.url } });
    expect(Number(prices.stdout)).toBeGreaterThanOrEqual(5);
    const state = await runCliInProcess(['api', '/__mock/state', '-q', 'seed'], { env });
    expect(Number(state.stdout)).toBe(11);
  });

  it('/x402/… routes are paid like the x402 commands: confirmed (--yes), receipt on stderr, the body on stdout', async () => {
    const wallet = { ...env, TRX_RENT_X402_TRON_KEY: KEYS.tron };
    const refused = await runCliInProcess(['api', 'GET', '/x402/tron/network', '-f', 'format=summary'], { env: wallet, timeoutMs: 30_000 });
    expect(refused.code).toBe(2); // no terminal to confirm on, no --yes: nothing paid
    const r = await runCliInProcess(['api', 'GET', '/x402/tron/network', '-f', 'format=summary', '--yes', '--scheme', 'exact_permit'], {
      env: wallet,
      timeoutMs: 30_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(json(r)).toMatchObject({ block_height: expect.any(Number) });
    expect(r.stderr).toMatch(/paid 0\.01 USD in USDT on TRON \(exact_permit\)/);
    expect(r.stdout + r.stderr).not.toContain(KEYS.tron);
  });

  it('x402 commands print a readable summary at a terminal and JSON when piped', async () => {
    const wallet = { ...env, TRX_RENT_X402_TRON_KEY: KEYS.tron, TERM: 'xterm' };
    const args = ['x402', 'account', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '--yes', '--scheme', 'exact_permit', '--no-color'];
    const tty = await runCliInProcess(args, { env: wallet, isTTY: true, columns: 100, timeoutMs: 30_000 });
    expect(tty.code, tty.stderr).toBe(0);
    expect(tty.stdout).toMatch(/^address\s+TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t$/m);
    expect(tty.stdout).toMatch(/^bandwidth limit\s+\d+$/m);
    expect(tty.stdout).toMatch(/paid 0\.01 USD in USDT on TRON/);
    expect(tty.stdout).not.toContain('{');
    const prices = await runCliInProcess(['x402', 'prices', '--yes', '--scheme', 'exact_permit', '--no-color'], {
      env: wallet,
      isTTY: true,
      columns: 100,
      timeoutMs: 30_000,
    });
    expect(prices.stdout).toMatch(/^PROVIDER\s+RESOURCE\s+SUN\/UNIT\s+TRX\/UNIT\s+TIER\s+AVAILABLE/m);
    const piped = await runCliInProcess(args, { env: wallet, timeoutMs: 30_000 });
    expect(json(piped)).toMatchObject({ data: { address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }, payment: { amount_usd: '0.01' } });
  });
});
