/**
 * The core's schemas on zod/mini (issue 21, item 4: the browser bundle): money checks are native
 * (no refinement), and nothing changes in what is accepted or in the messages.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { looseNumber, sunAmount, sunPrice } from '../../src/schemas/common.js';

type Def = { type: string; checks?: { _zod?: unknown }[]; [key: string]: unknown };
const defOf = (schema: z.core.$ZodType) => (schema as unknown as { def: Def }).def;

/** Every schema inside `schema` (itself included), through the public `def`. */
function walk(schema: z.core.$ZodType, into = new Set<z.core.$ZodType>()): Set<z.core.$ZodType> {
  if (into.has(schema)) return into;
  into.add(schema);
  const def = defOf(schema);
  const next = [
    def.innerType,
    def.in,
    def.out,
    def.element,
    def.valueType,
    ...((def.options as unknown[]) ?? []),
    ...Object.values((def.shape as object) ?? {}),
  ];
  for (const child of next) if (child instanceof z.core.$ZodType) walk(child, into);
  return into;
}

describe('money checks are native, with the same messages', () => {
  it('sunAmount and sunPrice have no refinement (integer, minimum, maximum checks only)', () => {
    for (const schema of [sunAmount, sunPrice]) {
      const checks = [...walk(schema)].flatMap((s) => defOf(s).checks ?? []);
      expect(checks.length).toBeGreaterThan(0);
      for (const check of checks) expect((check as unknown as { _zod: { def: { check: string } } })._zod.def.check).not.toBe('custom');
    }
    expect(walk(looseNumber).size).toBeGreaterThan(1);
  });

  it('sunAmount: whole SUN from 0 to 2^53-1, digits strings too; anything else fails with one message', () => {
    for (const ok of [0, 1, 123_456_789, Number.MAX_SAFE_INTEGER, '42']) expect(sunAmount.safeParse(ok)).toMatchObject({ success: true, data: Number(ok) });
    for (const bad of [-1, 1.5, -0.5, Number.MAX_SAFE_INTEGER + 1, 2 ** 60, '1.5', '-3']) {
      const result = sunAmount.safeParse(bad);
      expect(result.success, String(bad)).toBe(false);
      expect(result.error!.issues[0]!.message).toBe('must be whole SUN: an integer from 0 to 2^53-1 (not fractional, negative or larger)');
    }
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, 'x', null]) expect(sunAmount.safeParse(bad).success, String(bad)).toBe(false);
  });

  it('sunPrice: a price from 0 to 2^53-1, fractions kept; anything else fails with one message', () => {
    for (const ok of [0, 0.5, 61.25, Number.MAX_SAFE_INTEGER, '72.5']) expect(sunPrice.safeParse(ok)).toMatchObject({ success: true, data: Number(ok) });
    for (const bad of [-0.01, -1, Number.MAX_SAFE_INTEGER + 2, 2 ** 60, '-1']) {
      const result = sunPrice.safeParse(bad);
      expect(result.success, String(bad)).toBe(false);
      expect(result.error!.issues[0]!.message).toBe('must be a price in SUN from 0 to 2^53-1');
    }
    for (const bad of [Number.NaN, Number.NEGATIVE_INFINITY, 'x', null]) expect(sunPrice.safeParse(bad).success, String(bad)).toBe(false);
  });
});
