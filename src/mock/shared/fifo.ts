/**
 * A first-in-first-out queue with O(1) push and shift: a ring of slots whose size is a power of
 * two, doubled when full and halved when three quarters stand empty. Retention uses one beside
 * each Map: finding a Map's oldest entry by iterating it (`map.keys().next()`) walks over every
 * entry deleted since the Map last rehashed, which made each eviction cost thousands of steps.
 * (An array with a head index, compacted with `slice` once half consumed, copied its live half
 * and then grew it again: for the chain's 50,000 transactions, arrays of half a megabyte
 * allocated in the large-object space again and again.)
 *
 * @module
 */
const MIN_SLOTS = 16;

export class Fifo<T> {
  #slots: Array<T | undefined> = new Array<T | undefined>(MIN_SLOTS);
  /** Index of the oldest item; the size is a power of two, so positions wrap with `& mask`. */
  #head = 0;
  #size = 0;

  push(item: T): void {
    if (this.#size === this.#slots.length) this.#resize(this.#slots.length * 2);
    this.#slots[(this.#head + this.#size) & (this.#slots.length - 1)] = item;
    this.#size++;
  }

  /** The oldest item, or undefined when empty. */
  peek(): T | undefined {
    return this.#size > 0 ? this.#slots[this.#head] : undefined;
  }

  /** Remove and return the oldest item. */
  shift(): T | undefined {
    if (this.#size === 0) return undefined;
    const slots = this.#slots;
    const item = slots[this.#head];
    slots[this.#head] = undefined;
    this.#head = (this.#head + 1) & (slots.length - 1);
    this.#size--;
    if (slots.length > MIN_SLOTS && this.#size * 4 <= slots.length) this.#resize(slots.length / 2);
    return item;
  }

  /** The items, oldest first (a copy). */
  toArray(): T[] {
    const out = new Array<T>(this.#size);
    const slots = this.#slots;
    const mask = slots.length - 1;
    for (let i = 0; i < this.#size; i++) out[i] = slots[(this.#head + i) & mask] as T;
    return out;
  }

  get size(): number {
    return this.#size;
  }

  clear(): void {
    this.#slots = new Array<T | undefined>(MIN_SLOTS);
    this.#head = 0;
    this.#size = 0;
  }

  /** Move the items, oldest first, into `slots` new slots (a power of two, at least the size). */
  #resize(slots: number): void {
    const next = new Array<T | undefined>(slots);
    const old = this.#slots;
    const mask = old.length - 1;
    for (let i = 0; i < this.#size; i++) next[i] = old[(this.#head + i) & mask];
    this.#slots = next;
    this.#head = 0;
  }
}
