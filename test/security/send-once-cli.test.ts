/**
 * A transfer is sent once (CLI): the built `trx-rent send usdt` is interrupted at each stage
 * (order request, delegation wait, broadcast request, receipt poll) by Ctrl+C (SIGINT) or
 * SIGKILL, sent the moment a hostile proxy in front of the mock sees that stage's request (the
 * request then goes on to the mock: its effect happens). Then the command the run printed is
 * run as printed (the same command with `--idempotency-key`), and the mock's chain and order
 * list judge: the recipient is paid exactly once and no second order is placed. On Ctrl+C the
 * message names the stage and the ids, and never says "not sent" once the broadcast left.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trxToSun } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/mock/index.js';
import { BIN, ROOT, cleanEnv, collect, runCli, tempDir } from '../cli/helpers.js';
import { SEND_STAGES, hostileProxy } from '../helpers/hostile-proxy.js';
import { orderCount, walletMaker } from '../helpers/wallets.js';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, seed: 292, rateLimits: false, timings: { selectMs: 20, fillMs: 40, verifyMs: 60 } });
});
afterAll(async () => {
  await mock?.close();
});

const wallet = walletMaker(() => mock, 0x60);

const orders = (apiKey: string) => orderCount(mock, apiKey);

const STAGES = Object.keys(SEND_STAGES) as Array<keyof typeof SEND_STAGES>;

/** `trx-rent send …` as printed, split into argv (the tests' values hold no spaces or quotes). */
function argvOf(command: string): string[] {
  const words = command.trim().split(/\s+/);
  expect(words[0]).toBe('trx-rent');
  return words.slice(1);
}

async function runCase(stage: keyof typeof SEND_STAGES, signal: 'SIGINT' | 'SIGKILL') {
  const account = mock.state.createAccount({ trx_sun: trxToSun('1000') });
  const sender = wallet(20n);
  const recipient = wallet(1n);
  const configDir = tempDir();
  const proxy = await hostileProxy(mock.url);
  const env = { TRX_RENT_BASE_URL: proxy.url, TRX_RENT_TRON_NODE: proxy.url, TRX_RENT_API_KEY: account.api_key, TRX_RENT_PRIVATE_KEY: sender.privateKey };
  const child = spawn(process.execPath, [BIN, 'send', 'usdt', '--to', recipient.address, '--amount', '2', '--yes', '--json'], {
    cwd: ROOT,
    env: cleanEnv(env, configDir),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let sent = false;
  // The signal lands while the stage's request is held at the proxy; the request then reaches the mock.
  proxy.setRules([
    {
      match: SEND_STAGES[stage],
      fault: 'pass',
      holdMs: 400,
      onMatch: () => {
        if (!sent) child.kill(signal);
        sent = true;
      },
    },
  ]);
  const first = await collect(child, { timeoutMs: 30_000 });
  proxy.setRules([]);
  const printed = first.stderr.match(/finish it with: (trx-rent send [^\n]+)/)?.[1];
  let finish = printed;
  let error: { code: string; message: string; hint?: string; details?: Record<string, unknown> } | undefined;
  if (signal === 'SIGINT') {
    const line = first.stderr.split('\n').find((l) => l.startsWith('{"error"'));
    error = line ? JSON.parse(line).error : undefined;
    finish = error?.hint?.match(/finish with: (trx-rent send [^(;]+?)(?: \(|;|$)/)?.[1] ?? undefined;
  }
  const again = finish ? await runCli(argvOf(finish), { env, configDir, timeoutMs: 30_000 }) : undefined;
  await proxy.close();
  return {
    stage,
    signal,
    met: sent,
    first,
    error,
    printed,
    finish,
    again,
    paid: mock.state.chain.tokenBalance(recipient.address, USDT) - 1_000_000n,
    orders: await orders(account.api_key),
    landed: [...mock.state.chain.transactions.values()].filter((t) => t.owner === sender.address && t.contractType === 'TriggerSmartContract').length,
  };
}

describe('trx-rent send stopped at every stage, then the printed command', () => {
  for (const signal of ['SIGINT', 'SIGKILL'] as const) {
    it(`${signal === 'SIGINT' ? 'Ctrl+C' : 'SIGKILL'} at each stage: the printed command finishes it, paid exactly once, one order`, {
      timeout: 90_000,
    }, async () => {
      const outcomes = await Promise.all(STAGES.map((stage) => runCase(stage, signal)));
      for (const o of outcomes) {
        const name = `${o.stage} x ${signal}`;
        const log = `${name}\nfirst: ${o.first.stderr}\nagain: ${o.again?.stderr ?? ''}`;
        expect(o.met, log).toBe(true);
        expect(o.printed, log).toMatch(/--idempotency-key [0-9a-f-]{36}/);
        expect(o.finish, log).toBeDefined();
        if (process.env.SEND_ONCE_REPORT) console.log(`${name}: ${o.error ? `${o.error.message}\n  hint: ${o.error.hint}` : o.printed}`);
        if (signal === 'SIGINT') {
          expect(o.first.code, log).toBe(130);
          const e = o.error!;
          expect(e.code, log).toBe('INTERRUPTED');
          expect(e.message, log).toMatch(/stage (order|delegation|sign|broadcast|receipt)/);
          expect(e.details, log).toMatchObject({ stage: expect.any(String), idempotency_key: expect.any(String) });
          if (o.stage === 'broadcast' || o.stage === 'receipt') {
            expect(e.details!.transfer_sent, log).toBe('unknown');
            expect(e.message, log).toContain(String(e.details!.tx_id));
            expect(e.message, log).not.toMatch(/not sent/);
            expect(e.hint, log).toContain(`trx-rent tx ${String(e.details!.tx_id)}`);
          } else {
            expect(e.details!.transfer_sent, log).toBe(false);
          }
          if (o.stage === 'delegation') expect(e.message, log).toContain(String(e.details!.order_id));
          // The printed command is the same one, with the key this run used.
          expect(o.finish, log).toContain(`--idempotency-key ${String(e.details!.idempotency_key)}`);
        } else {
          expect(o.first.signal, log).toBe('SIGKILL');
        }
        expect(o.again?.code, log).toBe(0);
        const result = JSON.parse(o.again!.stdout);
        expect(result.receipt.result, log).toBe('SUCCESS');
        if (o.stage === 'receipt') expect(result.resumed, log).toBe(true);
        // The judge: the chain and the order list.
        expect(o.paid, log).toBe(2_000_000n);
        expect(o.landed, log).toBe(1);
        expect(o.orders, log).toBe(1);
      }
    });
  }
});
