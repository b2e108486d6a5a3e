/**
 * The SDK's one clock: `new TrxRent({ clock })` reaches `orders.waitFor` (and every other wait),
 * so ten minutes of polling run on the mock's manual clock in milliseconds, and the mock sees
 * exactly that much time pass (its order engine moves on the same clock).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TimeoutError, TrxRent, pollUntil, virtualClock } from '../../src/index.js';
import { type MockServer, createManualClock, startMockServer } from '../../src/mock/index.js';

const MINUTE = 60_000;
let mock: MockServer;
const time = createManualClock(Date.UTC(2026, 10, 28));
beforeAll(async () => {
  // The order's fill takes 9 minutes of mock time: only a clock that moves gets there.
  mock = await startMockServer({ seed: 30, clock: time, rateLimits: false, timings: { selectMs: 1_000, fillMs: 9 * MINUTE, verifyMs: 1_000 } });
});
afterAll(() => mock.close());

function client() {
  return new TrxRent({ baseUrl: mock.url, apiKey: mock.state.demo.api_key, clock: virtualClock(time) });
}

describe('a client on a virtual clock', () => {
  // No wall-time assertion (a loaded machine would fail it): the test's own timeout, seconds, is
  // what a wait of ten real minutes would blow through.
  it('waits ten minutes for an order on the virtual clock', async () => {
    const sdk = client();
    const order = await sdk.orders.create({
      resource_type: 'ENERGY',
      amount: 65_000,
      duration_sec: 3600,
      target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
    });
    const startedMock = time.now();
    const filled = await sdk.orders.waitFor(order.id, { timeoutMs: 10 * MINUTE });
    expect(filled.status).toBe('FILLED');
    // The mock's own clock moved past the fill time, and not past the wait's deadline.
    expect(time.now() - startedMock).toBeGreaterThanOrEqual(9 * MINUTE);
    expect(time.now() - startedMock).toBeLessThanOrEqual(10 * MINUTE + 6_000);
  });

  it('times out after exactly the wait on the clock, not on the wall', async () => {
    const clock = virtualClock(createManualClock(0));
    let polls = 0;
    const failure = await pollUntil(async () => ({ done: false, last: `poll ${++polls}` }), {
      timeoutMs: 10 * MINUTE,
      clock,
      timeoutMessage: (last, elapsed) => `${String(last)} after ${elapsed} ms`,
    }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(TimeoutError);
    expect((failure as Error).message).toBe(`poll ${polls} after ${10 * MINUTE} ms`);
    expect(clock.now()).toBe(10 * MINUTE);
    expect(polls).toBeGreaterThan(100);
  });

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const clock = virtualClock(createManualClock(0));
    let polls = 0;
    const failure = await pollUntil(
      async () => {
        if (++polls === 3) controller.abort(new Error('stop'));
        return { done: false };
      },
      { timeoutMs: MINUTE, clock, signal: controller.signal },
    ).catch((e: unknown) => e);
    expect((failure as Error).message).toBe('stop');
    expect(polls).toBe(3);
  });
});
