/**
 * The retention queue (src/mock/shared/fifo.ts), a ring that doubles when full and halves when
 * mostly empty: against a plain array, under random pushes, shifts and clears, it keeps the same
 * items in the same order (size, peek, shift, toArray) across every resize.
 */
import { describe, expect, it } from 'vitest';
import { Fifo } from '../../src/mock/shared/fifo.js';

describe('Fifo', () => {
  it('behaves as an array used as a queue, through growth and shrinking', () => {
    let seed = 1;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    for (let round = 0; round < 100; round++) {
      const fifo = new Fifo<number>();
      const model: number[] = [];
      const pushShare = random(); // some rounds mostly grow, others mostly drain
      for (let i = 0, n = 0; i < 3_000; i++) {
        const r = random();
        if (r < pushShare) {
          fifo.push(n);
          model.push(n++);
        } else if (r < 0.99) expect(fifo.shift()).toBe(model.shift());
        else {
          fifo.clear();
          model.length = 0;
        }
        expect(fifo.size).toBe(model.length);
        expect(fifo.peek()).toBe(model[0]);
        if (i % 300 === 0) expect(fifo.toArray()).toEqual(model);
      }
      expect(fifo.toArray()).toEqual(model);
    }
  });
});
