/**
 * The core's schemas on zod/mini (issue 21, item 4: the browser bundle): objects keep the parser
 * of zod's classic objects, money checks are native (no refinement), and nothing changes in what
 * is accepted or in the messages.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { ACCOUNT_WIRE } from '../../src/api/account.js';
import type { EndpointWire } from '../../src/api/types.js';
import { looseNumber, sunAmount, sunPrice } from '../../src/schemas/common.js';
import { looseObject, strictObject } from '../../src/schemas/object.js';

type Def = { type: string; checks?: { _zod?: unknown }[]; [key: string]: unknown };
const defOf = (schema: z.core.$ZodType) => (schema as unknown as { def: Def }).def;

/** Every schema inside `schema` (itself included), through the public `def`. */
function walk(schema: z.core.$ZodType, into = new Set<z.core.$ZodType>()): Set<z.core.$ZodType> {
  if (into.has(schema)) return into;
  into.add(schema);
  const def = defOf(schema);
  const next = [def.innerType, def.in, def.out, def.element, def.valueType, ...((def.options as unknown[]) ?? []), ...Object.values((def.shape as object) ?? {})];
  for (const child of next) if (child instanceof z.core.$ZodType) walk(child, into);
  return into;
}

describe('fast objects (src/schemas/object.ts)', () => {
  it('are zod/mini objects parsed by the classic objects’ parser; z.extend, z.required and .check keep it', () => {
    const o = looseObject({ a: z.number() });
    expect(o).toBeInstanceOf(z.ZodMiniObject);
    expect(o).toBeInstanceOf(z.core.$ZodObjectJIT);
    expect(z.looseObject({ a: z.number() })).not.toBeInstanceOf(z.core.$ZodObjectJIT); // the check is live
    expect(z.extend(o, { b: z.string() })).toBeInstanceOf(z.core.$ZodObjectJIT);
    expect(z.required(looseObject({ a: z.optional(z.number()) }))).toBeInstanceOf(z.core.$ZodObjectJIT);
    expect(strictObject({ a: z.number() }).check(z.refine(() => true))).toBeInstanceOf(z.core.$ZodObjectJIT);
  });

  it('every object schema of the account API’s table is one', () => {
    const objects = new Set<z.core.$ZodType>();
    for (const entry of Object.values(ACCOUNT_WIRE) as EndpointWire[]) {
      for (const root of [entry.params, entry.query, entry.body, entry.response]) {
        if (root) for (const s of walk(root)) if (defOf(s).type === 'object') objects.add(s);
      }
    }
    expect(objects.size).toBeGreaterThan(30);
    const slow = [...objects].filter((s) => !(s instanceof z.core.$ZodObjectJIT)).map((s) => Object.keys(defOf(s).shape as object).join(','));
    expect(slow).toEqual([]);
  });

  it('accept, refuse, copy and report exactly as zod/mini’s own objects (random inputs)', () => {
    const shape = { a: z.number(), b: z.optional(z.string()), c: z.nullable(z.boolean()), n: z.optional(looseObject({ x: sunAmount })) };
    const pairs = [
      [looseObject(shape), z.looseObject(shape)],
      [strictObject(shape), z.strictObject(shape)],
    ] as const;
    const value = fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.double());
    const input = fc.oneof(
      fc.record({ a: value, b: value, c: value, n: fc.oneof(value, fc.record({ x: value }, { requiredKeys: [] })) }, { requiredKeys: [] }),
      fc.dictionary(fc.constantFrom('a', 'b', 'c', 'n', 'extra', '__proto__', 'constructor'), value),
      value,
      fc.array(value),
    );
    fc.assert(
      fc.property(input, (i) => {
        for (const [fast, plain] of pairs) {
          const f = fast.safeParse(i);
          const p = plain.safeParse(i);
          expect(f.success).toBe(p.success);
          if (f.success && p.success) expect(f.data).toStrictEqual(p.data);
          else expect(f.error!.issues).toEqual(p.error!.issues);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

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
