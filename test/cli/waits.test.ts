/**
 * Interruptions and confirmations (in-process, a mock on 127.0.0.1): Ctrl+C during a wait says
 * which order, its last status and how to resume (exit 130); waits stop at once on any final
 * status; "no" to a confirmation is exit 0 with "Cancelled."; prompts re-ask after bad input.
 */
import input from '@inquirer/input';
import { render } from '@inquirer/testing';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/cli/facts.js';
import { amountQuestion, trxAmountQuestion } from '../../src/cli/prompts.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { ADDRESS, errorLine, json, runCliInProcess, startCliInProcess, tempDir } from './run.js';

let mock: MockServer;
let env: Record<string, string>;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, rateLimits: false, seed: 3, timings: { selectMs: 20, fillMs: 30, verifyMs: 40 } });
  env = { TRX_RENT_BASE_URL: mock.url, TRX_RENT_API_KEY: mock.apiKey, TERM: 'xterm' };
});
afterAll(async () => {
  await mock?.close();
});

// eslint-disable-next-line no-control-regex
const plain = (s: string) => s.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');

/** A LIMIT order far below the market: it stays PENDING (something to wait for). */
async function pendingOrder(): Promise<string> {
  const r = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--type', 'LIMIT', '--max-price', '1', '--yes', '--json'], { env });
  expect(r.code, r.stderr).toBe(0);
  return json(r).id;
}

describe('Ctrl+C during a wait', () => {
  it('buy --wait: prints the order id, its last status and the command that resumes; exit 130', async () => {
    const run = await startCliInProcess(
      ['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--type', 'LIMIT', '--max-price', '1', '--yes', '--wait', '--no-json', '--no-color'],
      /Waiting for order \S+ to fill… PENDING/,
      { env, isTTY: { stderr: true } },
    );
    const r = await run.stop('SIGINT');
    expect(r.code).toBe(130);
    const err = plain(r.stderr);
    const id = /Order (\S+) placed/.exec(err)?.[1];
    expect(id).toBeTruthy();
    expect(err).toMatch(new RegExp(`Interrupted \\(Ctrl\\+C\\) after \\S+: order ${id} is PENDING, seen \\d+ s ago\\. It goes on without this wait\\.`));
    expect(err).toContain(`resume with: trx-rent orders wait ${id}`);
    expect(err).not.toContain('error');
    expect(json(await runCliInProcess(['orders', 'get', id!, '--json'], { env })).status).toBe('PENDING'); // the order itself goes on
  });

  it('orders wait --json: the {error} line carries the id, the status and the resume command', async () => {
    const id = await pendingOrder();
    const run = await startCliInProcess(['orders', 'wait', id, '--json', '--base-url', mock.url], /(?:)/, { env });
    await new Promise((r) => setTimeout(r, 400));
    const r = await run.stop('SIGINT');
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    const e = JSON.parse(r.stderr.trim().split('\n').at(-1)!).error;
    expect(e).toMatchObject({
      code: 'INTERRUPTED',
      exit_code: 130,
      details: { order_id: id, status: 'PENDING', resume: `trx-rent orders wait ${id} --base-url ${mock.url}` },
    });
  });

  it('SIGTERM is 143', async () => {
    const id = await pendingOrder();
    const run = await startCliInProcess(['orders', 'wait', id, '--json'], /(?:)/, { env });
    await new Promise((r) => setTimeout(r, 300));
    expect((await run.stop('SIGTERM')).code).toBe(143);
  });
});

describe('waits stop at once on any final status, naming it', () => {
  /** A fetch that reports `status` for every order read (the live service also sends these). */
  const reporting =
    (status: string): typeof fetch =>
    async (url, init) => {
      const response = await fetch(url, init);
      if (!/\/api\/v1\/orders\/[0-9a-f-]{36}$/.test(String(url))) return response;
      const body = { ...(await response.json()), status };
      return new Response(JSON.stringify(body), { status: response.status, headers: { 'content-type': 'application/json' } });
    };

  for (const status of ['CANCELLED', 'PARTIALLY_FILLED', 'EXPIRED']) {
    it(`${status}: exit 1 at once, not at the timeout`, async () => {
      const id = await pendingOrder();
      const r = await runCliInProcess(['orders', 'wait', id, '--timeout', '1m', '--json'], { env, fetch: reporting(status) });
      expect(r.code).toBe(1);
      expect(errorLine(r)).toMatchObject({ code: 'ORDER_FAILED', message: `Order ${id} ended ${status}, not FILLED` });
    });
  }

  it('FAILED (every delegation fails): buy --wait stops at once', async () => {
    for (const p of ['tem', 'tronsave', 'netts', 'itrx', 'catfee', 'powersun']) mock.state.setProviderOverride(p, { fail_delegations: true });
    try {
      const r = await runCliInProcess(['buy', '65000', '--to', ADDRESS, '--duration', '1h', '--yes', '--wait', '--timeout', '1m', '--json'], { env });
      expect(r.code).toBe(1);
      const e = errorLine(r);
      expect(e).toMatchObject({ code: 'ORDER_FAILED' });
      expect(e.message).toMatch(/^Order \S+ failed$/);
      expect(e.hint).toMatch(/nothing was delivered; see `trx-rent orders get [0-9a-f-]{36}`/);
    } finally {
      for (const p of ['tem', 'tronsave', 'netts', 'itrx', 'catfee', 'powersun']) mock.state.setProviderOverride(p, null);
    }
  });
});

describe('confirmations', () => {
  /** Run on a pretend terminal, answering `answer` to the confirmation. */
  function atTerminal(args: string[], answer: string, configDir?: string) {
    const keyboard = new PassThrough();
    keyboard.write(answer);
    return runCliInProcess(args, { env, isTTY: true, columns: 200, keyboard, timeoutMs: 10_000, ...(configDir ? { configDir } : {}) });
  }

  it('keys revoke: "n" is exit 0 with "Cancelled." and the key still works; --yes revokes', async () => {
    const key = json(await runCliInProcess(['keys', 'create', '--name', 'ci', '--permissions', 'view_balance', '--json'], { env }));
    const no = await atTerminal(['keys', 'revoke', key.id], 'n\r');
    expect(no.code, no.stderr).toBe(0);
    expect(plain(no.stdout)).toMatch(/Revoke key \S+\? Anything using it stops working at once/);
    expect(plain(no.stderr)).toBe('Cancelled.\n');
    expect((await runCliInProcess(['balance', '--json'], { env: { ...env, TRX_RENT_API_KEY: key.key } })).code).toBe(0);
    const yes = await runCliInProcess(['keys', 'revoke', key.id, '--yes', '--json'], { env });
    expect(yes.code).toBe(0);
    expect((await runCliInProcess(['balance', '--json'], { env: { ...env, TRX_RENT_API_KEY: key.key } })).code).toBe(3);
  });

  it('profiles remove asks at a terminal: "n" keeps it, "y" removes it', async () => {
    const configDir = tempDir();
    await runCliInProcess(['login', '--profile', 'p1', '--base-url', mock.url], { configDir, env: { TRX_RENT_API_KEY: mock.apiKey } });
    const no = await atTerminal(['profiles', 'remove', 'p1'], 'n\r', configDir);
    expect(no.code).toBe(0);
    expect(plain(no.stdout)).toMatch(/Remove profile p1 \(http:\/\/127\.0\.0\.1:\d+\) and its saved API key\?/);
    expect(json(await runCliInProcess(['profiles', '--json'], { configDir })).map((p: { name: string }) => p.name)).toEqual(['p1']);
    const yes = await atTerminal(['profiles', 'remove', 'p1'], 'y\r', configDir);
    expect(yes.code, yes.stderr).toBe(0);
    expect(json(await runCliInProcess(['profiles', '--json'], { configDir }))).toEqual([]);
  });

  it('no prompt without a terminal: a destructive command without --yes is exit 2 and does nothing', async () => {
    const key = json(await runCliInProcess(['keys', 'create', '--name', 'ci2', '--permissions', 'view_balance', '--json'], { env }));
    const r = await runCliInProcess(['keys', 'revoke', key.id], { env });
    expect(r.code).toBe(2);
    expect(errorLine(r).code).toBe('CONFIRMATION_REQUIRED');
    expect((await runCliInProcess(['balance', '--json'], { env: { ...env, TRX_RENT_API_KEY: key.key } })).code).toBe(0);
  });
});

describe('prompts re-ask after invalid input', () => {
  it('the deposit amount: below 1 TRX is refused and asked again', async () => {
    const { answer, events, getScreen } = await render(input, trxAmountQuestion('How much TRX to deposit?', LIMITS.MIN_DEPOSIT_SUN));
    events.type('0.5');
    events.keypress('enter');
    await new Promise((r) => setTimeout(r, 20));
    expect(getScreen()).toContain('At least 1 (got 0.5)');
    for (let i = 0; i < 3; i++) events.keypress('backspace');
    events.type('2');
    events.keypress('enter');
    await expect(answer).resolves.toBe('2');
  });

  it('the withdrawal amount: below 50 is refused; a bandwidth amount below 1000 too', async () => {
    const w = await render(input, trxAmountQuestion('How much?', LIMITS.MIN_WITHDRAWAL_SUN));
    w.events.type('10');
    w.events.keypress('enter');
    await new Promise((r) => setTimeout(r, 20));
    expect(w.getScreen()).toContain('At least 50');
    const b = await render(input, amountQuestion('BANDWIDTH'));
    for (let i = 0; i < 4; i++) b.events.keypress('backspace');
    b.events.type('500');
    b.events.keypress('enter');
    await new Promise((r) => setTimeout(r, 20));
    expect(b.getScreen()).toContain('Bandwidth orders start at 1000 units');
    // Answer both, so no prompt is left open when the worker exits (inquirer then rejects it,
    // an unhandled rejection that fails the run).
    for (let i = 0; i < 2; i++) w.events.keypress('backspace');
    w.events.type('50');
    w.events.keypress('enter');
    await expect(w.answer).resolves.toBe('50');
    for (let i = 0; i < 3; i++) b.events.keypress('backspace');
    b.events.type('1000');
    b.events.keypress('enter');
    await expect(b.answer).resolves.toBe('1000');
  });
});
