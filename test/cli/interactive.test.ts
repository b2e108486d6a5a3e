/**
 * People at a terminal: missing arguments are asked for and spending is confirmed. Driven two
 * ways: the built CLI in a pseudo-terminal (util-linux `script`), and the CLI's questions through
 * @inquirer/testing.
 */
import { spawnSync } from 'node:child_process';
import input from '@inquirer/input';
import select from '@inquirer/select';
import { render } from '@inquirer/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { addressQuestion, amountQuestion, durationQuestion } from '../../src/cli/prompts.js';
import { PassThrough } from 'node:stream';
import { ADDRESS, fold, inPty, plain } from './helpers.js';
import { runCliInProcess } from './run.js';

const hasScript = spawnSync('script', ['--version']).status === 0;

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 21 });
});
afterAll(async () => {
  await mock?.close();
});

const demoBalance = () => mock.state.balance(mock.state.demo.account_id);

describe.skipIf(!hasScript)('in a pseudo-terminal', { timeout: 30_000 }, () => {
  it('buy with nothing given asks for resource, amount, address (validated), duration, confirms, and waits', async () => {
    const before = demoBalance().trx;
    const r = await inPty(
      ['buy', '--wait'],
      [
        { expect: /Which resource\?/, send: '\r' }, // Energy (default)
        { expect: /How much energy/, send: '\r' }, // 65000 (default)
        { expect: /Deliver to which TRON address\?/, send: 'Tnot-an-address\r' },
        { expect: /Not a TRON address/, send: `${'\x7f'.repeat(20)}${ADDRESS}\r` },
        { expect: /For how long\?/, send: '\r' }, // 1h (default)
        { expect: /Rent 65,000 energy for 1h to T\w+ for about [\d,]+ SUN/, send: 'y\r' },
      ],
      { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey },
    );
    expect(r.unmatched, r.output).toEqual([]);
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(/Preview 65,000 energy for 1h/);
    expect(r.output).toMatch(/Order \S+ placed \(PENDING\)/);
    expect(r.output).toMatch(/Waiting for order \S+ to fill/); // the spinner, on a terminal
    expect(r.output).toMatch(/Order \S+ FILLED after [\d.]+ s/);
    expect(r.output).toMatch(/status\s+FILLED/); // human output on a terminal, not JSON
    expect(r.output).toContain('https://tronscan.org/');
    expect(demoBalance().trx).toBeLessThan(before);
  });

  it('withdraw: answering no to the confirmation exits 0 with "Cancelled." and moves no money', async () => {
    const before = demoBalance();
    const r = await inPty(
      ['withdraw', '75', '--to', ADDRESS],
      [{ expect: /Withdraw 75 TRX \(75,000,000 SUN\) to T\w+ \(available: [\d.]+ TRX/, send: 'n\r' }],
      { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey },
    );
    expect(r.unmatched, r.output).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.output).toContain('Cancelled.');
    expect(r.output).not.toContain('error');
    expect(demoBalance()).toEqual(before);
  });

  it('--yes on a terminal never prompts: missing arguments are a usage error', async () => {
    const r = await inPty(['buy', '65000', '--yes'], [], { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey }, 10_000);
    expect(r.code).toBe(2);
    expect(r.output).toMatch(/error MISSING_ARGUMENT: missing --to ADDRESS, --duration/);
  });

  it('Ctrl+C typed at the terminal during buy --wait: the order id, its last status, the resume command; exit 130', async () => {
    const r = await inPty(
      ['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--type', 'LIMIT', '--max-price', '1', '--yes', '--wait'],
      // ^C goes through the terminal's line discipline: SIGINT to the foreground process, as for a person.
      [{ expect: /Waiting for order \S+ to fill/, send: '\x03' }],
      { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey },
    );
    expect(r.unmatched, r.output).toEqual([]);
    expect(r.code, r.output).toBe(130);
    const id = /Order (\S+) placed/.exec(r.output)?.[1];
    expect(id, r.output).toBeTruthy();
    expect(fold(r.output)).toMatch(new RegExp(`order ${id} is PENDING`));
    expect(fold(r.output)).toContain(`resume with: trx-rent orders wait ${id}`);
    expect(mock.state.orders.get(mock.state.demo.account_id, id!)?.status).toBe('PENDING'); // the order goes on
  });

  it('orders list and history fit an 80-column terminal with whole ids and distinct times; --wide prints every column', async () => {
    const env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey };
    // Three filled orders a little over a second apart, so their times differ only in seconds.
    const placed: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--yes', '--wait', '--json'], { env, timeoutMs: 15_000 });
      expect(r.code, r.stderr).toBe(0);
      placed.push((JSON.parse(r.stdout) as { id: string }).id);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
    }
    const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
    const width = (out: string) => Math.max(...out.split('\n').map((l) => [...l].length));
    const rowsOf = (out: string, id: string) => out.split('\n').filter((l) => l.includes(id));
    for (const [args, timeColumn] of [
      [['orders', 'list'], 'CREATED (UTC)'],
      [['history'], 'TIME (UTC)'],
    ] as const) {
      const narrow = await inPty([...args], [], env, 15_000, 80);
      expect(narrow.code, narrow.output).toBe(0);
      expect(width(narrow.output), narrow.output).toBeLessThanOrEqual(80);
      expect(narrow.output).not.toContain('…');
      expect(narrow.output).toContain(timeColumn);
      const times = placed.map((id) => {
        const [row] = rowsOf(narrow.output, id); // the whole id is on the row
        expect(row, `${args.join(' ')}: ${id}\n${narrow.output}`).toBeDefined();
        return /\b(\d{2}:\d{2}:\d{2})\b/.exec(row!)?.[1];
      });
      expect(new Set(times).size, `${args.join(' ')} times ${times.join(' ')}`).toBe(3);
      expect(narrow.output).toMatch(/left out to fit 80 columns: --wide shows all/);
      const wide = await inPty([...args, '--wide'], [], env, 15_000, 80);
      expect(wide.code, wide.output).toBe(0);
      expect(wide.output).not.toMatch(/left out/);
      expect(wide.output).toContain(args[0] === 'orders' ? ADDRESS : 'SUN/UNIT');
      expect(wide.output).toMatch(UUID);
    }
    // A prefix of the id, as `git show <short hash>`: the order, at the terminal.
    const got = await inPty(['orders', 'get', placed[1]!.slice(0, 8)], [], env, 15_000, 80);
    expect(got.code, got.output).toBe(0);
    expect(got.output).toMatch(new RegExp(`order\\s+${placed[1]}`));
    expect(got.output).toMatch(/status\s+FILLED/);
  }, 60_000);

  it('login asks for the key without echoing it', async () => {
    const r = await inPty(['login', '--base-url', mock.url], [{ expect: /API key \(sk_live_…, input hidden\)\?/, send: `${mock.apiKey}\r` }], {});
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain('Logged in to');
    expect(r.output).not.toContain(mock.apiKey);
  });
});

describe("in-process, on a pretend terminal (the run's own streams, not the process's)", () => {
  it('withdraw asks on the run\'s stdout and reads the answer from its stdin: "n" cancels (exit 0, "Cancelled."), nothing moves', async () => {
    const before = demoBalance();
    const keyboard = new PassThrough();
    keyboard.write('n\r');
    const r = await runCliInProcess(['withdraw', '75', '--to', ADDRESS], {
      env: { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey, TERM: 'xterm' },
      isTTY: true,
      columns: 200,
      keyboard,
      timeoutMs: 10_000,
    });
    expect(fold(r.stdout)).toMatch(/Withdraw 75 TRX \(75,000,000 SUN\) to T\w+ \(available: [\d.]+ TRX/);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(plain(r.stderr)).toBe('Cancelled.\n');
    expect(demoBalance()).toEqual(before);
  });
});

describe("the CLI's questions (@inquirer/testing)", () => {
  it('the address question rejects a bad checksum and accepts a valid address', async () => {
    const { answer, events, getScreen } = await render(input, addressQuestion());
    events.type('TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMX');
    events.keypress('enter');
    await new Promise((r) => setTimeout(r, 20));
    expect(getScreen()).toContain('Not a TRON address');
    for (let i = 0; i < 34; i++) events.keypress('backspace');
    events.type(ADDRESS);
    events.keypress('enter');
    await expect(answer).resolves.toBe(ADDRESS);
  });

  it('the amount question enforces the energy minimum and takes 65k', async () => {
    const { answer, events, getScreen } = await render(input, amountQuestion('ENERGY'));
    for (let i = 0; i < 5; i++) events.keypress('backspace');
    events.type('1000');
    events.keypress('enter');
    await new Promise((r) => setTimeout(r, 20));
    expect(getScreen()).toContain('Energy orders start at 65000 units');
    for (let i = 0; i < 4; i++) events.keypress('backspace');
    events.type('130k');
    events.keypress('enter');
    await expect(answer).resolves.toBe('130k');
  });

  it("the duration select offers the providers' tiers with 1h preselected", async () => {
    const { answer, events, getScreen } = await render(select, durationQuestion([86_400, 3_600, 10_800, 3_600]));
    const screen = getScreen();
    expect(screen).toMatch(/❯ 1h \(most common\)/);
    expect(screen).toContain('3h');
    expect(screen).toContain('1d');
    events.keypress('down');
    events.keypress('enter');
    await expect(answer).resolves.toBe(10_800);
  });
});
