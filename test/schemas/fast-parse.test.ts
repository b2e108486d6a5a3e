import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import { TrxRent } from '../../src/index.js';
import { startMockServer } from '../../src/mock/index.js';
import { fastParse, fastSource, fastVerdict, resetCodegen } from '../../src/schemas/fast-parse.js';
import * as schemas from '../../src/schemas/index.js';
import * as x402Schemas from '../../src/schemas/x402.js';
import { BUDGET } from '../props/budget.js';

/**
 * `fastParse` (src/schemas/fast-parse.ts) must give zod's own result, always. The oracle is zod:
 * for every schema the package exports, fast-check generates values from the schema's own
 * definition (valid ones, and ones broken at any depth: wrong types, missing and extra keys,
 * unknown enum values, numeric strings, NaN, `__proto__` keys), and for each:
 * - a PASS verdict means zod succeeds and returns a value deep-equal to the input;
 * - a FAIL verdict means zod refuses the value;
 * - `fastParse` returns what `safeParse` returns (success, data; the same issues on failure).
 */

const PASS = 0;
const FAIL = 1;

type AnySchema = z.ZodType & { _zod: { def: Record<string, any>; values?: Set<unknown> } };

const exported = Object.entries({ ...schemas, ...x402Schemas }).filter((entry) => entry[1] instanceof z.ZodType) as unknown as Array<[string, AnySchema]>;

/** Strings a schema may want: valid addresses, enum values, timestamps, digits, URLs. */
const STRINGS = [
  'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
  'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7',
  'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMX', // bad checksum
  '2026-11-20T00:00:00.000Z',
  '12',
  '-3.5',
  '0x41',
  'https://hooks.example.com/trx',
  'http://127.0.0.1:8080/x',
  'ENERGY',
  'BANDWIDTH',
  'MARKET',
  'LIMIT',
  'FILLED',
  'order.filled',
  'sk_live_' + '0'.repeat(64),
  '',
  ' padded ',
  'a'.repeat(80),
];
const NUMBERS = [0, 1, -1, 1.5, 35, 3600, 65_000, 1_000_000, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, Number.NaN, Number.POSITIVE_INFINITY, -0];

const anyString = fc.oneof(fc.constantFrom(...STRINGS), fc.string({ maxLength: 12 }));
const anyNumber = fc.oneof(fc.constantFrom(...NUMBERS), fc.integer(), fc.double());
const junk = fc.oneof(fc.constant(null), fc.constant(undefined), fc.boolean(), anyNumber, anyString, fc.constant([]), fc.constant({}), fc.constant([1, 'a']));

/** Values for `schema`, mostly shaped like it, sometimes not at all (at any depth). */
function arbitrary(schema: AnySchema, depth = 0): fc.Arbitrary<unknown> {
  const shaped = shapedArbitrary(schema, depth);
  return fc.oneof({ arbitrary: shaped, weight: 12 }, { arbitrary: junk, weight: 1 });
}

function shapedArbitrary(schema: AnySchema, depth: number): fc.Arbitrary<unknown> {
  const def = schema._zod.def;
  if (depth > 6) return junk;
  switch (def.type) {
    case 'string':
      return anyString;
    case 'number':
      return anyNumber;
    case 'boolean':
      return fc.boolean();
    case 'enum':
    case 'literal':
      return fc.oneof({ arbitrary: fc.constantFrom(...(schema._zod.values ?? new Set([null]))), weight: 5 }, { arbitrary: anyString, weight: 1 });
    case 'optional':
      return fc.oneof({ arbitrary: arbitrary(def.innerType, depth + 1), weight: 4 }, { arbitrary: fc.constant(undefined), weight: 1 });
    case 'nullable':
      return fc.oneof({ arbitrary: arbitrary(def.innerType, depth + 1), weight: 4 }, { arbitrary: fc.constant(null), weight: 1 });
    case 'union':
      return fc.oneof(...(def.options as AnySchema[]).map((o) => arbitrary(o, depth + 1)));
    case 'pipe':
      return arbitrary(def.in, depth + 1);
    case 'array':
      return fc.array(arbitrary(def.element, depth + 1), { maxLength: 3 });
    case 'record':
      return fc.dictionary(fc.constantFrom('a', 'b', 'order.filled'), arbitrary(def.valueType, depth + 1), { maxKeys: 3 });
    case 'object': {
      const shape = def.shape as Record<string, AnySchema>;
      const fields = Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, arbitrary(v, depth + 1)]));
      const keys = Object.keys(shape);
      // Mostly every key; sometimes some are left out (each with a small chance), sometimes extras.
      return fc
        .tuple(
          fc.record(fields, { requiredKeys: [] }),
          fc.record(fields),
          fc.integer({ min: 0, max: 9 }),
          fc.constantFrom('extra', 'toString', '__proto__', 'data'),
          junk,
        )
        .map(([some, all, roll, extraKey, extraValue]) => {
          const value: Record<string, unknown> = { ...(roll < 6 ? all : some) };
          if (roll >= 8) {
            // As JSON.parse makes it: an own property, even for `__proto__`.
            Object.defineProperty(value, extraKey, { value: extraValue, enumerable: true, configurable: true, writable: true });
          }
          return keys.length ? value : { ...value };
        });
    }
    default:
      return junk;
  }
}

/** zod's result for the input, and fastParse's, compared; returns the verdict. */
function agree(schema: AnySchema, input: unknown): number {
  const verdict = fastVerdict(schema, input);
  const zod = schema.safeParse(input);
  if (verdict === PASS) {
    expect(zod.success, 'PASS but zod refuses').toBe(true);
    expect(isDeepStrictEqual(zod.data, input), 'PASS but zod returns another value').toBe(true);
    expect(JSON.stringify(zod.data), 'PASS but zod orders the keys otherwise').toBe(JSON.stringify(input));
  }
  if (verdict === FAIL) expect(zod.success, 'FAIL but zod accepts').toBe(false);
  const fast = fastParse(schema, input);
  expect(fast.success).toBe(zod.success);
  if (zod.success) {
    expect(isDeepStrictEqual(fast.data, zod.data)).toBe(true);
    expect(JSON.stringify(fast.data)).toBe(JSON.stringify(zod.data));
  }
  else expect(fast.error?.issues).toEqual(zod.error.issues);
  return verdict;
}

describe('fastParse agrees with zod', () => {
  it('covers every exported schema (and compiles each)', () => {
    expect(exported.length).toBeGreaterThan(40);
    for (const [, schema] of exported) expect(typeof fastSource(schema)).toBe('string');
  });

  it(
    'on generated values for every exported schema: PASS means zod returns the input, FAIL means zod refuses',
    () => {
      const counts = { pass: 0, fail: 0, unknown: 0 };
      const perSchema = Math.max(50, Math.round(BUDGET.runs(300)));
      const started = Date.now();
      for (const [name, schema] of exported) {
        if (Date.now() - started > BUDGET.timeMs) break;
        fc.assert(
          fc.property(arbitrary(schema), (input) => {
            const verdict = agree(schema, input);
            if (verdict === PASS) counts.pass++;
            else if (verdict === FAIL) counts.fail++;
            else counts.unknown++;
          }),
          { numRuns: perSchema, interruptAfterTimeLimit: BUDGET.timeMs, examples: [], endOnFailure: true, reporter: (out) => {
            if (out.failed) throw new Error(`${name}: ${String((out as { errorInstance?: unknown }).errorInstance ?? 'failed')}\ninput: ${fc.stringify(out.counterexample)}`);
          } },
        );
      }
      console.log(`fast-parse verdicts over ${exported.length} schemas: ${JSON.stringify(counts)}`);
      // Not vacuous: the generated values reach all three verdicts.
      expect(counts.pass).toBeGreaterThan(1000);
      expect(counts.fail).toBeGreaterThan(1000);
      expect(counts.unknown).toBeGreaterThan(50);
    },
    BUDGET.testTimeoutMs,
  );

  it('hands zod every case it does not model (transforms, defaults, stripped keys, coercion, overwrites)', () => {
    const cases: Array<[AnySchema, unknown]> = [
      [z.object({ a: z.string() }) as AnySchema, { a: 'x', b: 1 }], // z.object strips b
      [z.object({ a: z.string().default('d') }) as AnySchema, {}],
      [z.object({ a: z.string().optional().default('d') }) as AnySchema, {}],
      [z.string().transform((s) => s.length) as AnySchema, 'abc'],
      [z.coerce.number() as AnySchema, '5'],
      [z.string().trim() as AnySchema, ' a '],
      [z.looseObject({ a: z.number() }) as AnySchema, JSON.parse('{"a":1,"__proto__":{"x":1}}')],
      [schemas.Order as AnySchema, { ...orderSample(), amount: '65000' }], // looseNumber turns it into a number
      // Not a plain object or array: zod's copy is one, and the input could serialise otherwise.
      [z.looseObject({ a: z.number() }) as AnySchema, new (class Box {
        a = 1;
        toJSON() {
          return { a: 2 };
        }
      })()],
      [z.looseObject({ a: z.number() }) as AnySchema, Object.assign(Object.create(null), { a: 1 })],
      [z.array(z.number()) as AnySchema, new (class Numbers extends Array<number> {})(1, 2)],
    ];
    for (const [schema, input] of cases) {
      expect(fastVerdict(schema, input), fc.stringify(input)).toBe(2);
      agree(schema, input);
      // What would be sent or printed is zod's plain copy.
      expect(JSON.stringify(fastParse(schema, input).data)).toBe(JSON.stringify(schema.safeParse(input).data));
    }
    // The same schemas take the fast path when there is nothing to change.
    expect(fastVerdict(z.object({ a: z.string() }) as AnySchema, { a: 'x' })).toBe(PASS);
    expect(fastVerdict(z.string().trim() as AnySchema, 'a')).toBe(PASS);
  });

  it('runs refinements and object-level rules (superRefine) with their own code', () => {
    const order = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW' };
    expect(agree(schemas.CreateOrderRequest as AnySchema, order)).toBe(PASS);
    expect(agree(schemas.CreateOrderRequest as AnySchema, { ...order, amount: 64_999 })).toBe(FAIL);
    const limit = { resource_type: 'ENERGY', order_type: 'LIMIT', amount: 65_000, duration_sec: 3600, target_address: order.target_address };
    expect(agree(schemas.CreateOrderRequest as AnySchema, limit)).toBe(FAIL);
    expect(agree(schemas.CreateOrderRequest as AnySchema, { ...limit, max_price_sun: 40 })).toBe(PASS);
    // Keys in another order than the schema's: zod's copy would order them otherwise, so zod decides.
    expect(agree(schemas.CreateOrderRequest as AnySchema, { ...order, order_type: 'MARKET' })).toBe(2);
    expect(agree(schemas.CreateOrderRequest as AnySchema, { ...order, target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMX' })).toBe(FAIL);
    expect(agree(schemas.CreateOrderRequest as AnySchema, { ...order, surprise: 1 })).toBe(FAIL);
    // An async refinement is zod's to run (and to refuse in a sync parse).
    const asyncRule = z.string().refine(async () => true) as AnySchema;
    expect(fastVerdict(asyncRule, 'a')).toBe(2);
  });

  it('stops at a schema that contains itself and leaves it to zod', () => {
    const Node: z.ZodType = z.looseObject({
      name: z.string(),
      get children() {
        return z.array(Node);
      },
    });
    const tree = { name: 'a', children: [{ name: 'b', children: [] }] };
    expect(fastVerdict(Node, tree)).toBe(2);
    agree(Node as AnySchema, tree);
  });

  it('without code generation (a strict CSP), every value goes to zod and the result is the same; it is tried once, not per schema', () => {
    let attempts = 0;
    vi.stubGlobal('Function', function NoEval() {
      attempts++;
      throw new EvalError('Code generation from strings disallowed for this context');
    });
    const fresh = z.looseObject({ a: z.number() });
    const other = z.looseObject({ b: z.string() });
    try {
      expect(fastVerdict(fresh, { a: 1 })).toBe(2); // compiled (and cached) while eval is refused
      expect(fastVerdict(other, { b: 'x' })).toBe(2);
      expect(attempts).toBe(1); // a browser reports one CSP violation, not one per schema
    } finally {
      vi.unstubAllGlobals();
      resetCodegen();
    }
    expect(fastVerdict(fresh, { a: 1 })).toBe(2); // its checker stays the undecided one
    expect(fastParse(fresh, { a: 1, b: 2 })).toEqual({ success: true, data: { a: 1, b: 2 } });
    expect(fastParse(fresh, { a: '1' }).success).toBe(false);
    expect(fastVerdict(z.looseObject({ c: z.boolean() }), { c: true })).toBe(PASS);
  });
});

describe('the client takes the fast path on real answers', () => {
  it("every request the client sends and every answer of the mock is a PASS (no copy by zod)", async () => {
    const mock = await startMockServer({ port: 0 });
    const seen: Array<{ method: string; path: string; body: unknown; answer: unknown }> = [];
    try {
      const recording: typeof fetch = async (input, init) => {
        const response = await fetch(input, init);
        const url = new URL(String(input));
        const text = await response.clone().text();
        seen.push({ method: init?.method ?? 'GET', path: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined, answer: JSON.parse(text) });
        return response;
      };
      const client = new TrxRent({ baseUrl: mock.url, apiKey: mock.apiKey, fetch: recording });
      await client.prices.list();
      await client.balance.get();
      await client.orders.preview({ resource: 'ENERGY', amount: 65_000, duration: 3600 });
      const order = await client.orders.create({ resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW' });
      await client.orders.get(order.id);
      await client.orders.list();
    } finally {
      await mock.close();
    }
    const schemaOf = (method: string, path: string): AnySchema => {
      if (path === '/api/v1/prices') return schemas.PriceList as AnySchema;
      if (path === '/api/v1/balance') return schemas.Balance as AnySchema;
      if (path === '/api/v1/orders/preview') return schemas.Preview as AnySchema;
      if (path === '/api/v1/orders') return (method === 'POST' ? schemas.Order : schemas.OrderList) as AnySchema;
      if (path.startsWith('/api/v1/orders/')) return schemas.Order as AnySchema;
      throw new Error(`no schema for ${method} ${path}`);
    };
    expect(seen).toHaveLength(6);
    for (const { method, path, body, answer } of seen) {
      expect(agree(schemaOf(method, path), schemas.unwrapEnvelope(answer)), `${method} ${path} answer`).toBe(PASS);
      if (body !== undefined) expect(agree(schemas.CreateOrderRequest as AnySchema, body), `${method} ${path} body`).toBe(PASS);
    }
  });
});

function orderSample() {
  return {
    id: 'ord_1',
    status: 'PENDING',
    resource_type: 'ENERGY',
    order_type: 'MARKET',
    amount: 65_000,
    duration_sec: 3600,
    target_address: 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW',
    created_at: '2026-11-20T00:00:00.000Z',
  };
}
