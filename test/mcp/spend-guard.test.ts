/**
 * The MCP spend guard on its own (issue 29, item 3), one test per defect it had: jobs stand in
 * for the tools, so each rule is shown without a network. What the chain tools record and look
 * up against the mock is test/mcp/lookups.test.ts; the tools end to end, test/mcp/replays.test.ts.
 */
import { describe, expect, test } from 'vitest';
import type { TrxRent } from '../../src/client.js';
import { ConnectionError, TimeoutError, TrxRentError, ValidationError } from '../../src/errors/index.js';
import { Effects } from '../../src/mcp/effects.js';
import { resolveLimits } from '../../src/mcp/limits.js';
import { chainJob } from '../../src/mcp/lookups.js';
import { type Known, MAX_OPEN_SPENDS, SpendGuard, type SpendJob, SpendRefusedError, type SpendRequest } from '../../src/mcp/spend.js';

const TX = 'ab'.repeat(32);
const approve = async () => true;

function guard(options: { session?: string; lookupTimeoutMs?: number } = {}) {
  const logs: string[] = [];
  const g = new SpendGuard({
    allowSpend: true,
    limits: resolveLimits({ sessionLimit: options.session ?? '100', maxWithdrawal: '100', maxOrderTrx: '50' }),
    log: (l) => logs.push(l),
    lookupTimeoutMs: options.lookupTimeoutMs,
  });
  return { g, logs };
}

const trx = (atomic: bigint, tool = 'create_order'): SpendRequest => ({
  tool,
  lines: [{ currency: 'TRX', atomic, cap: { atomic: 50_000_000n, flag: '--max-order-trx', off: 'off' } }],
  summary: `spend ${atomic}`,
});

/** A job with counters; `run` and `lookup` as given. */
function job<T>(
  run: () => Promise<T>,
  lookup: (signal: AbortSignal) => Promise<Known> = async () => ({ outcomes: {}, what: 'still unknown' }),
  charged?: bigint,
) {
  const calls = { run: 0, lookup: 0 };
  const j: SpendJob<T> = {
    run: async () => {
      calls.run++;
      return run();
    },
    done: () => ({ outcomes: { TRX: { state: 'spent', atomic: charged } }, what: 'done' }),
    failed: () => ({ outcomes: {}, what: 'no answer' }),
    lookup: async (_key, signal) => {
      calls.lookup++;
      return lookup(signal);
    },
  };
  return { j, calls };
}

const lost = () => Promise.reject(new ConnectionError('connection reset'));

describe('an unknown outcome is looked up, never run again', () => {
  test('the next spend looks it up once; found, its charge counts; the tool is not re-run', async () => {
    const { g, logs } = guard();
    const first = job(lost, async () => ({ outcomes: { TRX: { state: 'spent', atomic: 7_000_000n } }, what: 'order X FILLED' }));
    const err = await g.spend(trx(10_000_000n), approve, first.j).catch((e: TrxRentError) => e);
    expect(err).toBeInstanceOf(TrxRentError);
    expect((err as TrxRentError).details).toMatchObject({ outcome: 'unknown' });
    expect(g.reserved('TRX')).toBe(10_000_000n);
    expect(g.unknownOutcomes).toBe(1);

    const second = job(async () => 'ok', undefined, 2_000_000n);
    await g.spend(trx(5_000_000n), approve, second.j);
    expect(first.calls).toEqual({ run: 1, lookup: 1 });
    expect(g.unknownOutcomes).toBe(0);
    // the charges (7 and 2), not the quotes (10 and 5)
    expect(g.spent('TRX')).toBe(9_000_000n);
    expect(g.reserved('TRX')).toBe(0n);
    expect(logs.some((l) => /^found create_order \(idempotency key [0-9a-f-]{36}\): order X FILLED/.test(l))).toBe(true);
  });

  test('a lookup that learns nothing keeps the reservation, and is not retried by running the job', async () => {
    const { g } = guard();
    const first = job(lost);
    await g.spend(trx(10_000_000n), approve, first.j).catch(() => undefined);
    for (let i = 0; i < 3; i++) await g.spend(trx(1_000_000n), approve, job(async () => 'ok').j);
    expect(first.calls).toEqual({ run: 1, lookup: 3 });
    expect(g.reserved('TRX')).toBe(10_000_000n);
  });
});

describe('reconciliation cannot wait on itself or hang later spends', () => {
  test('a lookup that itself spends and reconciles finishes (no re-entrancy deadlock)', async () => {
    const { g } = guard();
    let inner: unknown;
    const first = job(lost, async () => {
      await g.reconcile(); // returns at once from inside a lookup
      inner = await g.spend(trx(1_000_000n, 'inner'), approve, job(async () => 'inner done').j);
      return { outcomes: { TRX: { state: 'none' } }, what: 'nothing' };
    });
    await g.spend(trx(10_000_000n), approve, first.j).catch(() => undefined);
    const started = Date.now();
    await g.spend(trx(1_000_000n), approve, job(async () => 'ok').j);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(inner).toBe('inner done');
    expect(g.unknownOutcomes).toBe(0);
    expect(g.spent('TRX')).toBe(2_000_000n);
  });

  test('a lookup that never answers is cut at the lookup timeout; the spends after it go on', async () => {
    const { g } = guard({ lookupTimeoutMs: 50 });
    let aborted = false;
    const first = job(lost, (signal) => {
      signal.addEventListener('abort', () => (aborted = true));
      return new Promise<Known>(() => undefined); // ignores its signal too
    });
    await g.spend(trx(10_000_000n), approve, first.j).catch(() => undefined);
    const started = Date.now();
    await Promise.all([0, 1, 2].map(() => g.spend(trx(1_000_000n), approve, job(async () => 'ok').j)));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(aborted).toBe(true);
    expect(first.calls.lookup).toBe(1); // three spends shared one reconciliation
    expect(g.reserved('TRX')).toBe(10_000_000n);
  });
});

describe("the guard's refusals are refusals", () => {
  test('a SpendRefusedError from inside the run releases everything (not "outcome unknown")', async () => {
    const { g, logs } = guard();
    const refusal = new SpendRefusedError('SESSION_LIMIT', 'over the cap');
    const j = job(() => Promise.reject(refusal));
    expect(await g.spend(trx(10_000_000n), approve, j.j).catch((e) => e)).toBe(refusal);
    expect(g.reserved('TRX')).toBe(0n);
    expect(g.unknownOutcomes).toBe(0);
    expect(logs.some((l) => l.startsWith('not spent create_order'))).toBe(true);
    expect(logs.some((l) => l.includes('outcome unknown'))).toBe(false);
  });

  test('a two-currency spend over the TRX cap reserves neither currency', async () => {
    const { g } = guard({ session: '1' });
    const request: SpendRequest = {
      tool: 'send_token',
      lines: [
        { currency: 'USDT', atomic: 500_000n, cap: { atomic: 100_000_000n, flag: '--max-withdrawal', off: 'off' } },
        { currency: 'TRX', atomic: 5_000_000n, cap: { atomic: 50_000_000n, flag: '--max-order-trx', off: 'off' } },
      ],
      summary: 'send',
    };
    const j = job(async () => 'never');
    const err = (await g.spend(request, approve, j.j).catch((e) => e)) as TrxRentError;
    expect(err.code).toBe('SESSION_LIMIT');
    expect(j.calls.run).toBe(0);
    expect(g.reserved('USDT') + g.reserved('TRX')).toBe(0n);
  });

  test('a declined confirmation releases every line', async () => {
    const { g } = guard();
    const err = (await g.spend(trx(1_000_000n), async () => false, job(async () => 'never').j).catch((e) => e)) as TrxRentError;
    expect(err.code).toBe('DECLINED');
    expect(g.reserved('TRX')).toBe(0n);
  });
});

describe('concurrent calls: bounded work and memory', () => {
  test(`at most ${MAX_OPEN_SPENDS} spends are open (in flight or unknown); past that, spends are refused at once; each is looked up once per reconciliation`, async () => {
    const { g } = guard({ session: '1000' });
    const jobs = Array.from({ length: 40 }, () => job(lost));
    // in waves (each spend reconciles the earlier unknowns first)
    for (let wave = 0; wave < 4; wave++) {
      await Promise.all(jobs.slice(wave * 10, wave * 10 + 10).map((x) => g.spend(trx(1_000_000n), approve, x.j).catch((e: TrxRentError) => e.code)));
    }
    expect(g.unknownOutcomes).toBe(MAX_OPEN_SPENDS);
    expect(g.reserved('TRX')).toBe(BigInt(MAX_OPEN_SPENDS) * 1_000_000n);
    const ran = jobs.filter((x) => x.calls.run > 0);
    expect(ran).toHaveLength(MAX_OPEN_SPENDS);
    // lookups: at most one per unknown outcome per wave
    const lookups = jobs.reduce((sum, x) => sum + x.calls.lookup, 0);
    expect(lookups).toBeLessThanOrEqual(MAX_OPEN_SPENDS * 4);
    const refused = (await g.spend(trx(1_000_000n), approve, job(async () => 'never').j).catch((e) => e)) as TrxRentError;
    expect(refused.code).toBe('SESSION_LIMIT');
    expect(refused.details).toMatchObject({ limit: 'open spends', unknown: MAX_OPEN_SPENDS });
  });

  test('in-flight spends count too: a burst of 50 runs at most the bound at once', async () => {
    const { g } = guard({ session: '1000' });
    let running = 0;
    let most = 0;
    const slow = () =>
      job(async () => {
        most = Math.max(most, ++running);
        await new Promise((r) => setTimeout(r, 20));
        running--;
        return 'ok';
      }).j;
    const codes = await Promise.all(
      Array.from({ length: 50 }, () =>
        g.spend(trx(1_000_000n), approve, slow()).then(
          () => 'ok',
          (e: TrxRentError) => e.code,
        ),
      ),
    );
    expect(most).toBeLessThanOrEqual(MAX_OPEN_SPENDS);
    expect(codes.filter((c) => c === 'ok')).toHaveLength(MAX_OPEN_SPENDS);
    expect(codes.filter((c) => c === 'SESSION_LIMIT')).toHaveLength(50 - MAX_OPEN_SPENDS);
    expect(g.reserved('TRX')).toBe(0n);
  });
});

describe('an error after the broadcast keeps the money counted', () => {
  const sendRequest: SpendRequest = {
    tool: 'send_token',
    lines: [
      { currency: 'USDT', atomic: 1_000_000n, cap: { atomic: 100_000_000n, flag: '--max-withdrawal', off: 'off' } },
      { currency: 'TRX', atomic: 5_000_000n, cap: { atomic: 50_000_000n, flag: '--max-order-trx', off: 'off' } },
    ],
    summary: 'send 1 USDT',
  };
  const api = {} as TrxRent; // failed() reads the journal only
  const token = { currency: 'USDT' as const, atomic: 1_000_000n, label: 'sent 1 USDT' };

  test('VALIDATION_ERROR after the signature: the tokens and the rental stay reserved (outcome unknown)', async () => {
    const { g } = guard();
    const fx = new Effects();
    const j = chainJob(
      api,
      fx,
      async () => {
        fx.onProgress({ step: 'ordered', order: { id: 'o1', status: 'PENDING', resource_type: 'ENERGY' } as never });
        fx.onProgress({ step: 'filled', order: { id: 'o1', status: 'FILLED', resource_type: 'ENERGY', total_cost_sun: 4_200_000 } as never });
        fx.onProgress({ step: 'signed', tx_id: TX, expiration: Date.now() + 60_000 });
        throw new ValidationError({ code: 'VALIDATION_ERROR', message: 'the service refused the broadcast answer', status: 400 });
      },
      () => ({ outcomes: {}, what: '' }),
      token,
    );
    const err = (await g.spend(sendRequest, approve, j).catch((e) => e)) as TrxRentError;
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.details).toMatchObject({ outcome: 'unknown' });
    expect(g.reserved('USDT')).toBe(1_000_000n);
    expect(g.reserved('TRX')).toBe(5_000_000n);
    expect(g.unknownOutcomes).toBe(1);
  });

  test('the same error before anything was signed or ordered: released', async () => {
    const { g } = guard();
    const fx = new Effects();
    const j = chainJob(
      api,
      fx,
      async () => Promise.reject(new ValidationError({ code: 'VALIDATION_ERROR', message: 'bad' })),
      () => ({ outcomes: {}, what: '' }),
      token,
    );
    await g.spend(sendRequest, approve, j).catch(() => undefined);
    expect(g.reserved('USDT') + g.reserved('TRX')).toBe(0n);
    expect(g.unknownOutcomes).toBe(0);
  });

  test('the rental FILLED, then the delegation wait timed out (nothing signed): its charge counts at once, the tokens are released', async () => {
    const { g, logs } = guard();
    const fx = new Effects();
    const j = chainJob(
      api,
      fx,
      async () => {
        fx.onProgress({ step: 'ordered', order: { id: 'o2', status: 'PENDING', resource_type: 'ENERGY' } as never });
        fx.onProgress({ step: 'filled', order: { id: 'o2', status: 'FILLED', resource_type: 'ENERGY', total_cost_sun: 4_200_000 } as never });
        throw new TimeoutError('the delegation did not show');
      },
      () => ({ outcomes: {}, what: '' }),
      token,
    );
    await g.spend(sendRequest, approve, j).catch(() => undefined);
    expect(g.unknownOutcomes).toBe(0);
    expect(g.reserved('USDT') + g.reserved('TRX')).toBe(0n);
    expect(g.spent('TRX')).toBe(4_200_000n); // the charge, not the 5 TRX quote
    expect(g.spent('USDT')).toBe(0n);
    expect(logs.some((l) => /^spent send_token: order o2 FILLED for 4\.2 TRX; the transfer was not sent/.test(l))).toBe(true);
  });
});
