/**
 * The ids of the mock's own transactions (SyntheticIds, src/mock/chain/labels.ts): 64 lower-case
 * hex digits, the same for a seed on every run, another seed's differ, and no two counters give
 * the same id (near 0, across the 2^32 boundary, and near 2^53).
 */
import { describe, expect, it } from 'vitest';
import { SyntheticIds } from '../../src/mock/chain/labels.js';

describe('SyntheticIds', () => {
  it('is 64 hex digits, deterministic per seed, distinct per counter', () => {
    const ids = new SyntheticIds(1);
    const again = new SyntheticIds(1);
    const other = new SyntheticIds(2);
    const seen = new Set<string>();
    const counters = [
      ...Array.from({ length: 50_000 }, (_, i) => i),
      ...Array.from({ length: 2_000 }, (_, i) => 2 ** 32 - 1_000 + i),
      ...Array.from({ length: 2_000 }, (_, i) => Number.MAX_SAFE_INTEGER - i),
    ];
    for (const n of counters) {
      const id = ids.id(n);
      expect(id).toMatch(/^[0-9a-f]{64}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(counters.length);
    expect(again.id(12_345)).toBe(ids.id(12_345));
    expect(other.id(12_345)).not.toBe(ids.id(12_345));
    // Counters equal in their low 32 bits still differ (the high half has its own word).
    expect(ids.id(7)).not.toBe(ids.id(7 + 2 ** 32));
  });
});
