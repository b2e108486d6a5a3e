/**
 * A first-in-first-out queue with O(1) push and shift (an array and a head index, compacted
 * once the consumed part is the larger half). Retention uses one beside each Map: finding a Map's
 * oldest entry by iterating it (`map.keys().next()`) walks over every entry deleted since the
 * Map last rehashed, which made each eviction cost thousands of steps.
 *
 * @module
 */
export class Fifo<T> {
  #items: Array<T | undefined> = [];
  #head = 0;

  push(item: T): void {
    this.#items.push(item);
  }

  /** The oldest item, or undefined when empty. */
  peek(): T | undefined {
    return this.#head < this.#items.length ? this.#items[this.#head] : undefined;
  }

  /** Remove and return the oldest item. */
  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined;
    if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  /** The items, oldest first (a copy). */
  toArray(): T[] {
    return this.#items.slice(this.#head) as T[];
  }

  get size(): number {
    return this.#items.length - this.#head;
  }

  clear(): void {
    this.#items = [];
    this.#head = 0;
  }
}
