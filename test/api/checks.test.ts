/**
 * The build-time fast checks (src/api/account-checks.gen.ts, compiled by scripts/checks.mjs from
 * the table's zod schemas) against zod itself, the implementation they stand in for:
 * - the file is what the compiler makes of today's schemas (fresh);
 * - the differential test: over thousands of values per schema (each field valid, each field
 *   swapped for edge values, missing, extra keys, wrong types), a check that says true means zod
 *   accepts the value AND returns it unchanged; and where zod returns a value unchanged the check
 *   says true (the fast path is taken, not just safe);
 * - the compiler fails closed: an unknown refinement, a transform, a default, a strip object in a
 *   union, a regex it cannot read all compile to "ask zod", never to a generous check.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';
import * as z from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { ACCOUNT_WIRE } from '../../src/api/account.js';
import { BODY_CHECKS, QUERY_CHECKS, RESPONSE_CHECKS } from '../../src/api/account-checks.gen.js';
import type { FastCheck } from '../../src/api/types.js';
import { isTronAddress } from '../../src/utils/address.js';
import { energyAmountIsEnough, limitOrderHasPrice } from '../../src/schemas/orders.js';
import { previewAmountIsEnough } from '../../src/schemas/prices.js';
// @ts-expect-error: a plain ESM script without types
import { renderAccountChecks } from '../../scripts/lib/compile-checks.mjs';

type Schema = z.core.$ZodType;
type Wire = Record<string, { response?: Schema; body?: Schema; query?: Schema }>;
const render = renderAccountChecks as (zod: typeof z, wire: Wire, predicates: Map<unknown, { name: string; from: string }>) => string;

const PREDICATES = new Map<unknown, { name: string; from: string }>([
  [isTronAddress, { name: 'isTronAddress', from: '../utils/address.js' }],
  [energyAmountIsEnough, { name: 'energyAmountIsEnough', from: '../schemas/orders.js' }],
  [limitOrderHasPrice, { name: 'limitOrderHasPrice', from: '../schemas/orders.js' }],
  [previewAmountIsEnough, { name: 'previewAmountIsEnough', from: '../schemas/prices.js' }],
]);

const ADDRESS = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW';
const BAD_ADDRESS = 'TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMX';

/** Edge values of a JSON scalar type (and a few of the others), to swap into a field. */
const SCALARS: unknown[] = [
  '',
  'a',
  'ENERGY',
  'BANDWIDTH',
  'MARKET',
  'LIMIT',
  'PENDING',
  'FILLED',
  'UNKNOWN_VALUE',
  '12',
  '-3',
  '1.5',
  'abc',
  ADDRESS,
  BAD_ADDRESS,
  'x'.repeat(101),
  '2026-11-20T00:00:00.000Z',
  0,
  -0,
  1,
  -1,
  1.5,
  0.000001,
  65_000,
  64_999,
  100,
  101,
  1_000_000,
  50_000_000,
  49_999_999,
  Number.MAX_SAFE_INTEGER,
  2 ** 53,
  1e21,
  true,
  false,
  null,
  [],
  {},
  [1],
  { a: 1 },
];

/** Candidate values for a schema: good ones first (built from its definition), then edge values. */
function candidates(schema: Schema, depth = 0): unknown[] {
  const def = (schema as unknown as { def: Record<string, unknown> & { type: string } }).def;
  const out: unknown[] = [];
  switch (def.type) {
    case 'object': {
      const shape = def.shape as Record<string, Schema>;
      const base = goodObject(shape, depth);
      out.push(base);
      if (depth < 3) {
        for (const [key, field] of Object.entries(shape)) {
          for (const v of [...candidates(field, depth + 1), ...SCALARS]) out.push({ ...base, [key]: v });
          const without = { ...base };
          delete without[key];
          out.push(without);
        }
      }
      out.push({ ...base, extra_field: 'kept' }, null, [], 'object');
      break;
    }
    case 'array': {
      const items = depth < 3 ? candidates(def.element as Schema, depth + 1) : [];
      out.push([], ...items.slice(0, 12).map((v) => [v]), items.slice(0, 2), 'not-an-array', {});
      break;
    }
    case 'enum':
      out.push(...Object.values(def.entries as object), 'NOT_IN_ENUM');
      break;
    case 'literal':
      out.push(...(def.values as unknown[]));
      break;
    case 'optional':
    case 'nullable':
    case 'nonoptional':
    case 'default':
    case 'prefault':
      out.push(...candidates(def.innerType as Schema, depth), undefined, null);
      break;
    case 'union':
      for (const o of def.options as Schema[]) out.push(...candidates(o, depth));
      break;
    case 'pipe':
      out.push(...candidates(def.in as Schema, depth), ...candidates(def.out as Schema, depth));
      break;
    default:
      break;
  }
  return [...out, ...SCALARS];
}

/** An object whose every field holds the first candidate zod accepts unchanged. */
function goodObject(shape: Record<string, Schema>, depth: number): Record<string, unknown> {
  const obj: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    const good = depth < 4 ? candidates(field, depth + 1).find((v) => v !== undefined && unchanged(field, v)) : undefined;
    if (good !== undefined) obj[key] = good;
  }
  return obj;
}

/** zod accepts `v` and returns it unchanged. */
function unchanged(schema: Schema, v: unknown): boolean {
  const r = z.safeParse(schema, v);
  return r.success && isDeepStrictEqual(r.data, v);
}

/** What the wire can carry: JSON, as a response is parsed. */
function viaJson(v: unknown): unknown {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v));
}

interface Tally {
  samples: number;
  fast: number;
  zodUnchanged: number;
}

/** Every candidate through the check and through zod: the check may say true only when zod returns the value unchanged. */
function differential(label: string, schema: Schema, check: FastCheck, wire: boolean): Tally {
  const tally: Tally = { samples: 0, fast: 0, zodUnchanged: 0 };
  const seen = new Set<string>();
  for (const raw of candidates(schema)) {
    const v = wire ? viaJson(raw) : raw;
    const key = v === undefined ? 'undefined' : JSON.stringify(v);
    if (seen.has(key)) continue;
    seen.add(key);
    tally.samples++;
    const fast = check(v);
    const same = unchanged(schema, v);
    if (same) tally.zodUnchanged++;
    if (fast) tally.fast++;
    // Safe: true only where zod accepts and returns the value as is.
    if (fast && !same) throw new Error(`${label}: the check accepts ${key}, zod ${z.safeParse(schema, v).success ? 'changes it' : 'refuses it'}`);
    // Taken: where zod returns a value as is, the check says so too.
    if (same && !fast) throw new Error(`${label}: zod returns ${key} unchanged but the check says false`);
  }
  return tally;
}

describe('fast checks (src/api/account-checks.gen.ts)', () => {
  it('the committed file is what scripts/checks.mjs compiles from the table (run `npm run checks` after changing a schema)', () => {
    const file = readFileSync(new URL('../../src/api/account-checks.gen.ts', import.meta.url), 'utf8');
    expect(file).toBe(render(z, ACCOUNT_WIRE as unknown as Wire, PREDICATES));
  });

  it('checks are named by entry id and by what they check: adding an entry renames nothing', () => {
    const wire = ACCOUNT_WIRE as unknown as Wire;
    const before = render(z, wire, PREDICATES);
    expect(before).not.toMatch(/\b(response|request)\d+\b/); // no counter names
    expect(before).toMatch(/^const createOrderBody: FastCheck = request_[0-9a-f]{8};$/m);
    // A new entry placed first (the worst place for a counter) with a new shape and a shared one.
    const added = { getPayout: { response: z.looseObject({ payout_id: z.string(), amount_sun: z.number() }), query: wire.listOrders!.query }, ...wire };
    const after = render(z, added, PREDICATES);
    const lines = (text: string) => new Set(text.split('\n').filter((l) => /^(function|const) /.test(l)));
    const missing = [...lines(before)].filter((l) => !lines(after).has(l));
    expect(missing).toEqual([]);
    expect(after).toMatch(/^const getPayoutResponse: FastCheck = response_[0-9a-f]{8};$/m);
    expect(after).toMatch(
      new RegExp(`^const getPayoutQuery: FastCheck = ${/const listOrdersQuery: FastCheck = (request_[0-9a-f]{8});/.exec(before)![1]};$`, 'm'),
    );
  });

  it('every response, body and query of the account table has a check, except those that need zod', () => {
    const missing: string[] = [];
    for (const [id, entry] of Object.entries(ACCOUNT_WIRE) as unknown as [keyof typeof ACCOUNT_WIRE, Wire[string]][]) {
      if (!RESPONSE_CHECKS[id]) missing.push(`${id} response`);
      if (entry.body && !BODY_CHECKS[id]) missing.push(`${id} body`);
      if (entry.query && !QUERY_CHECKS[id]) missing.push(`${id} query`);
    }
    // createKey's name is trimmed (a transform): zod must make the copy. The others hold a regex
    // (a signed transaction's hex, a URL pattern): JSON Schema gives a pattern without its flags,
    // so the compiler leaves them to zod.
    expect(missing).toEqual(['createKey body', 'submitDeposit body', 'createWebhook body', 'broadcastTransaction body']);
  });

  it('agrees with zod on every schema of the table (differential, thousands of values)', () => {
    let samples = 0;
    let fast = 0;
    for (const [id, entry] of Object.entries(ACCOUNT_WIRE) as unknown as [keyof typeof ACCOUNT_WIRE, Wire[string]][]) {
      const parts: [string, Schema | undefined, FastCheck | null, boolean][] = [
        ['response', entry.response, RESPONSE_CHECKS[id], true],
        ['body', entry.body, BODY_CHECKS[id], false],
        ['query', entry.query, QUERY_CHECKS[id], false],
      ];
      for (const [part, schema, check, wire] of parts) {
        if (!schema || !check) continue;
        const t = differential(`${id} ${part}`, schema, check, wire);
        // Not a check that cannot fail: each one accepts some values and refuses others.
        expect(t.fast, `${id} ${part}`).toBeGreaterThan(0);
        expect(t.fast, `${id} ${part}`).toBeLessThan(t.samples);
        samples += t.samples;
        fast += t.fast;
      }
    }
    expect(samples).toBeGreaterThan(5000);
    expect(fast).toBeGreaterThan(500);
  });

  it('the differential test is live: a generous or a stingy check fails it', () => {
    const schema = ACCOUNT_WIRE.createOrder.response;
    expect(() => differential('always true', schema as Schema, () => true, true)).toThrow(/zod (refuses|changes) it/);
    expect(() => differential('always false', schema as Schema, () => false, true)).toThrow(/says false/);
    // One bound dropped (whole SUN no longer checked): caught.
    const check = RESPONSE_CHECKS.getOrder!;
    const loose: FastCheck = (v) => check(v) || check(JSON.parse(JSON.stringify(v, (k, x) => (k === 'total_cost_sun' ? 0 : x))));
    expect(() => differential('no whole-SUN bound', ACCOUNT_WIRE.getOrder.response as Schema, loose, true)).toThrow(/accepts/);
  });

  it('takes the fast path on the answers and bodies the bench sends', () => {
    const order = {
      id: 'o1',
      status: 'PENDING',
      resource_type: 'ENERGY',
      order_type: 'MARKET',
      amount: 65_000,
      duration_sec: 3600,
      target_address: ADDRESS,
      max_price_sun: null,
      created_at: '2026-11-20T00:00:00.000Z',
    };
    expect(RESPONSE_CHECKS.createOrder!(order)).toBe(true);
    expect(RESPONSE_CHECKS.createOrder!({ ...order, amount: '65000' })).toBe(false); // a string number: zod converts it
    expect(RESPONSE_CHECKS.createOrder!({ ...order, total_cost_sun: 1.5 })).toBe(false); // not whole SUN: zod refuses
    const body = { resource_type: 'ENERGY', amount: 65_000, duration_sec: 3600, target_address: ADDRESS };
    expect(BODY_CHECKS.createOrder!(body)).toBe(true);
    expect(BODY_CHECKS.createOrder!({ ...body, target_address: BAD_ADDRESS })).toBe(false);
    expect(BODY_CHECKS.createOrder!({ ...body, amount: 64_999 })).toBe(false);
    expect(BODY_CHECKS.createOrder!({ ...body, order_type: 'LIMIT' })).toBe(false);
    expect(BODY_CHECKS.createOrder!(Object.assign(Object.create({ inherited: 1 }), body))).toBe(false); // not plain: zod copies
  });
});

describe('the compiler fails closed', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trx-rent-checks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;

  /** Compile `schemas` as a table's responses (and bodies), and load the module. */
  async function compile(schemas: Record<string, Schema>): Promise<{ response: Record<string, FastCheck | null>; body: Record<string, FastCheck | null> }> {
    const wire = Object.fromEntries(Object.entries(schemas).map(([k, s]) => [k, { response: s, body: s }]));
    const predicates = new Map([[isTronAddress, { name: 'isTronAddress', from: pathToFileURL(join(process.cwd(), 'src/utils/address.ts')).href }]]);
    const ts = render(z, wire, predicates).replace(/^import type .*$/gm, '');
    const { code } = await transform(ts, { loader: 'ts', format: 'esm' });
    const file = join(dir, `checks-${n++}.mjs`);
    writeFileSync(file, code);
    const mod = (await import(pathToFileURL(file).href)) as Record<string, Record<string, FastCheck | null>>;
    return { response: mod.RESPONSE_CHECKS!, body: mod.BODY_CHECKS! };
  }

  it('leaves to zod what it cannot state: an unknown refinement, a transform, a regex, a catchall', async () => {
    const { response } = await compile({
      refined: z.number().refine((v) => v % 7 === 0),
      superRefined: z.looseObject({ a: z.number() }).superRefine(() => undefined),
      transformed: z.string().transform((s) => s.toUpperCase()),
      trimmed: z.string().trim(),
      regex: z.string().regex(/^a.$/u),
      catchall: z.object({ a: z.number() }).catchall(z.string()),
      multipleOf: z.number().multipleOf(0.1),
      known: z.string().refine(isTronAddress),
    });
    for (const name of ['refined', 'superRefined', 'transformed', 'trimmed', 'regex', 'catchall', 'multipleOf']) expect(response[name], name).toBeNull();
    expect(response.known!(ADDRESS)).toBe(true);
    expect(response.known!(BAD_ADDRESS)).toBe(false);
  });

  it('a default, a strip object and a union whose first option transforms: never the generous answer', async () => {
    const strip = z.object({ a: z.number() });
    const schemas: Record<string, Schema> = {
      withDefault: z.looseObject({ a: z.number().default(1) }),
      strip,
      stripFirst: z.union([strip, z.looseObject({ a: z.number() })]),
      transformFirst: z.union([z.string().transform(Number), z.string()]),
      numberFirst: z.union([z.number(), z.string().transform(Number)]),
    };
    const { response } = await compile(schemas);
    const cases: [string, unknown][] = [
      ['withDefault', {}],
      ['withDefault', { a: 2 }],
      ['strip', { a: 1 }],
      ['strip', { a: 1, b: 2 }],
      ['stripFirst', { a: 1 }],
      ['stripFirst', { a: 1, b: 2 }],
      ['transformFirst', '1'],
      ['numberFirst', 1],
      ['numberFirst', '1'],
    ];
    for (const [name, v] of cases) {
      const check = response[name];
      const fast = check ? check(v) : false;
      expect(fast, `${name} ${JSON.stringify(v)}`).toBe(unchanged(schemas[name]!, v));
    }
  });
});
