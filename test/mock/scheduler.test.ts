/**
 * The scheduler's heap: whatever the order tasks are scheduled and cancelled in, they run by due
 * time, ties in insertion order, each once; tasks scheduled while running are picked up when due.
 * Order steps sharing a task (OrderSteps) run in exactly the order one task per step gave.
 */
import { describe, expect, it } from 'vitest';
import { Scheduler } from '../../src/mock/shared/scheduler.js';
import { createRng } from '../../src/mock/state/rng.js';
import { OrderSteps } from '../../src/mock/state/order-timers.js';
import type { OrderRecord } from '../../src/mock/state/order-record.js';

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

describe('OrderSteps (order steps sharing a task)', () => {
  const order = (id: string) => ({ id }) as OrderRecord;

  it('runs every step in the order one task per step gave, over thousands of shuffled schedules', () => {
    // The same schedule twice: once with a task per step and per other task, once with the steps
    // through OrderSteps. Steps and other tasks interleave, with many ties, and steps schedule more.
    const rng = createRng(7);
    const plan: Array<{ kind: 'step' | 'other'; at: number; id: string }> = [];
    for (let i = 0; i < 3_000; i++) plan.push({ kind: rng.next() < 0.7 ? 'step' : 'other', at: Math.floor(rng.next() * 40), id: `o${i}` });
    const replay = (batched: boolean) => {
      const scheduler = new Scheduler();
      const ran: string[] = [];
      const steps = new OrderSteps(scheduler, 'step', (o) => {
        ran.push(`step ${o.id}`);
        // A step schedules a follow-up step, as a selection schedules its fill.
        if (!o.id.endsWith("'")) later(o.id.length % 3, order(`${o.id}'`));
      });
      const later = (delay: number, o: OrderRecord) => {
        if (batched) steps.at(now + delay, o);
        else
          scheduler.schedule(now + delay, 'step', () => {
            ran.push(`step ${o.id}`);
            if (!o.id.endsWith("'")) later(o.id.length % 3, order(`${o.id}'`));
          });
      };
      let now = 0;
      for (const [i, p] of plan.entries()) {
        if (p.kind === 'step') later(p.at, order(p.id));
        else scheduler.schedule(now + p.at, 'other', () => ran.push(`other ${p.id}`));
        if (i % 50 === 49) scheduler.runDue(++now);
      }
      // The clock goes on: what a step schedules is never due before the step itself (as in the engine).
      for (const end = now + 100; now < end; now++) scheduler.runDue(now);
      return { ran, tasks: scheduler.size };
    };
    const single = replay(false);
    const shared = replay(true);
    expect(shared.ran).toEqual(single.ran);
    expect(shared.ran.length).toBeGreaterThan(4_000);
  });

  it('shares a task only between steps scheduled one right after another for the same moment', () => {
    const scheduler = new Scheduler();
    const ran: string[] = [];
    const steps = new OrderSteps(scheduler, 'step', (o) => ran.push(o.id));
    steps.at(10, order('a'));
    steps.at(10, order('b')); // joins a's task
    steps.at(11, order('c')); // another moment: its own task
    scheduler.schedule(10, 'other', () => ran.push('other'));
    steps.at(10, order('d')); // something was scheduled in between: its own task, after 'other'
    expect(scheduler.size).toBe(4);
    scheduler.runDue(11);
    expect(ran).toEqual(['a', 'b', 'other', 'd', 'c']);
  });

  it('never adds a step to a task that already ran, and a throwing step stops no other', () => {
    const scheduler = new Scheduler();
    const ran: string[] = [];
    const errors: unknown[] = [];
    scheduler.onError = (error) => errors.push(error);
    const steps = new OrderSteps(scheduler, 'step', (o) => {
      if (o.id === 'bad') throw new Error('boom');
      ran.push(o.id);
    });
    steps.at(5, order('a'));
    steps.at(5, order('bad'));
    steps.at(5, order('b'));
    scheduler.runDue(5);
    steps.at(5, order('late')); // the task for 5 ran: a new one, run at the next tick
    expect(ran).toEqual(['a', 'b']);
    scheduler.runDue(5);
    expect(ran).toEqual(['a', 'b', 'late']);
    expect(errors).toHaveLength(1);
  });
});
