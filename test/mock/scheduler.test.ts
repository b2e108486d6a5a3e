/**
 * The scheduler's heap: whatever the order tasks are scheduled and cancelled in, they run by due
 * time, ties in insertion order, each once; tasks scheduled while running are picked up when due.
 */
import { describe, expect, it } from 'vitest';
import { Scheduler } from '../../src/mock/shared/scheduler.js';
import { createRng } from '../../src/mock/state/rng.js';

describe('Scheduler', () => {
  it('runs thousands of shuffled tasks by (due time, insertion), skipping cancelled ones', () => {
    const rng = createRng(42);
    const scheduler = new Scheduler();
    const expected: Array<{ at: number; seq: number }> = [];
    const ran: number[] = [];
    for (let seq = 0; seq < 5_000; seq++) {
      const at = Math.floor(rng.next() * 300); // many ties
      const task = scheduler.schedule(at, `t${seq}`, () => ran.push(seq));
      if (rng.next() < 0.2) task.cancelled = true;
      else expected.push({ at, seq });
    }
    // Drain in steps, as the state does on each request.
    for (let now = 0; now < 300 + 7; now += 7) scheduler.runDue(now);
    expected.sort((a, b) => a.at - b.at || a.seq - b.seq);
    expect(ran).toEqual(expected.map((e) => e.seq));
    expect(scheduler.peek()).toBeUndefined();
  });

  it('picks up a task scheduled by a running task when it is already due', () => {
    const scheduler = new Scheduler();
    const ran: string[] = [];
    scheduler.schedule(10, 'a', () => {
      ran.push('a');
      scheduler.schedule(5, 'b', () => ran.push('b'));
      scheduler.schedule(20, 'c', () => ran.push('c'));
    });
    expect(scheduler.runDue(10)).toBe(2);
    expect(ran).toEqual(['a', 'b']);
    expect(scheduler.peek()).toBe(20);
  });
});
