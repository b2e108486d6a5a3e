/**
 * The one spending-cap primitive (src/utils/spending-cap.ts) that the x402 budget and the MCP
 * guard stand on: per call, total and rolling period; reserved before sending, committed at the
 * charge, released when nothing was done, kept while unknown.
 */
import { describe, expect, it } from 'vitest';
import { SpendingCap } from '../../src/utils/spending-cap.js';
import { virtualClock } from '../../src/utils/clock.js';
import { createManualClock } from '../../src/mock/state/clock.js';

describe('SpendingCap', () => {
  it('refuses a call over the per-call limit and a spend over what is left of the total', () => {
    const cap = new SpendingCap({ perCall: 50n, total: 100n });
    expect(cap.refusal(51n)).toBe('per_call');
    const a = cap.reserve(50n)!;
    const b = cap.reserve(40n)!;
    expect(cap.reserve(20n)).toBeUndefined(); // 50 + 40 reserved: 10 left
    expect(cap.refusal(20n)).toBe('total');
    expect(cap.remaining).toBe(10n);
    a.commit(30n); // charged less than reserved
    b.release(); // nothing done
    expect([cap.spent, cap.reserved, cap.remaining]).toEqual([30n, 0n, 70n]);
  });

  it('a reservation settles once; an unknown outcome stays reserved until settled', () => {
    const cap = new SpendingCap({ total: 10n });
    const r = cap.reserve(6n)!;
    expect(r.grow(5n)).toBe(false); // 6 + 5 > 10
    expect(r.grow(4n)).toBe(true);
    expect(cap.remaining).toBe(0n);
    r.commit();
    r.release(); // too late: committed
    r.commit(1n);
    expect([cap.spent, cap.reserved, r.open]).toEqual([10n, 0n, false]);
  });

  it('concurrent reservations never pass the total together', () => {
    const cap = new SpendingCap({ total: 1_000n });
    const held = Array.from({ length: 50 }, () => cap.reserve(37n)).filter(Boolean);
    expect(held.length).toBe(27); // 27 x 37 = 999
    expect(cap.reserved).toBe(999n);
  });

  it('a rolling period counts what was committed within it, on the given clock', () => {
    const time = createManualClock(0);
    const cap = new SpendingCap({ perPeriod: { amount: 100n, ms: 86_400_000 }, clock: virtualClock(time) });
    cap.reserve(60n)!.commit();
    time.advance(12 * 3_600_000);
    expect(cap.refusal(50n)).toBe('period');
    cap.reserve(40n)!.commit();
    time.advance(12 * 3_600_000 + 1); // the first 60 left the window
    expect(cap.remaining).toBe(60n);
    expect(cap.spent).toBe(100n);
  });

  it('a charge nobody reserved (a fee burnt) still counts', () => {
    const cap = new SpendingCap({ total: 5n });
    cap.record(7n);
    expect([cap.spent, cap.remaining]).toEqual([7n, 0n]);
    expect(() => cap.refusal(-1n)).toThrow(RangeError);
  });
});
