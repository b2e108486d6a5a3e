/**
 * Journals in this process's memory: every instance opened on the same name of one
 * {@link memoryStore} shares its records (each reads from its own position) and its lock, so
 * views behave as they do on a file, without durability.
 * @module
 */
import type { Journal, JournalRecord, Store } from './types.js';
import { lockedError } from './errors.js';

interface Shared {
  records: JournalRecord[];
  /** The holder's turn: a chain of promises, one per exclusive section or hold. */
  tail: Promise<void>;
  held: boolean;
}

function shared(records: readonly JournalRecord[] = []): Shared {
  return { records: records.map((r) => structuredClone(r)), tail: Promise.resolve(), held: false };
}

/** One journal in memory; alone (`new MemoryJournal(name, records)`) or shared by name in a {@link memoryStore}. */
export class MemoryJournal<R extends JournalRecord = JournalRecord> implements Journal<R> {
  readonly name: string;
  readonly #shared: Shared;
  #offset = 0;
  #holding = false;

  /** A journal named `name` holding `initial` (copied), or sharing `initial`'s records when it is another journal's. */
  constructor(name = 'memory', initial: readonly R[] | Shared = []) {
    this.name = name;
    this.#shared = Array.isArray(initial) ? shared(initial) : (initial as Shared);
  }

  async read(): Promise<R[]> {
    const out = this.#shared.records.slice(this.#offset) as R[];
    this.#offset = this.#shared.records.length;
    return out.map((r) => structuredClone(r));
  }

  async append(records: readonly R[]): Promise<void> {
    for (const r of records) this.#shared.records.push(structuredClone(r));
  }

  async exclusive<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#holding) return fn();
    const before = this.#shared.tail;
    let release!: () => void;
    this.#shared.tail = before.then(() => new Promise<void>((resolve) => (release = resolve)));
    await before;
    try {
      return await fn();
    } finally {
      release();
    }
  }

  async hold(): Promise<void> {
    if (this.#holding) return;
    if (this.#shared.held) throw lockedError(this.name, { pid: typeof process === 'undefined' ? undefined : process.pid }, `memory:${this.name}`);
    this.#shared.held = true;
    this.#holding = true;
  }

  size(): number {
    return this.#shared.records.length;
  }

  async close(): Promise<void> {
    if (this.#holding) this.#shared.held = false;
    this.#holding = false;
  }
}

/** A store in memory: for tests, plans and anything that need not survive the process. */
export function memoryStore(): Store {
  const journals = new Map<string, Shared>();
  return {
    kind: 'memory',
    where: 'memory',
    async journal<R extends JournalRecord>(name: string): Promise<Journal<R>> {
      let one = journals.get(name);
      if (!one) journals.set(name, (one = shared()));
      return new MemoryJournal<R>(name, one);
    },
    async close() {},
  };
}
