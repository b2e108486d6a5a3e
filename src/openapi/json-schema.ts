/**
 * From the shared zod schemas to JSON Schema 2020-12 (the dialect of OpenAPI 3.1), with zod 4's
 * own `z.toJSONSchema()`. Requests are converted with `io: 'input'` (what a caller sends),
 * responses and query parameters with `io: 'output'` (what the value is once parsed).
 *
 * The response schemas in `src/schemas` are lenient on purpose (unknown enum values, numbers
 * sent as strings, Unix timestamps); the document describes the spec's wire shape instead. That
 * is done here, by schema identity, in zod's `override` hook:
 *
 * - `looseNumber` -> `number` (or `integer` where the spec types a result as integer);
 * - `sunAmount` -> a non-negative `integer` up to 2^53-1, `sunPrice` -> a non-negative `number`
 *   up to 2^53-1 (the bounds the SDK enforces on the way in);
 * - `looseTimestamp` -> an ISO 8601 `date-time` string;
 * - `lenientEnum([...])` (a union of the enum and any string) -> the enum;
 * - `tronAddress` (a refinement JSON Schema cannot carry) -> its base58 pattern;
 * - any schema given in `replace` -> that JSON Schema, any schema in `augment` -> merged with it.
 *
 * Everything zod cannot represent (transforms) must sit inside a replaced schema: conversion
 * throws otherwise, so a new transform in a shared schema cannot silently become `{}`.
 *
 * @module
 */
import * as z from 'zod';
import { looseNumber, looseTimestamp, queryInt, sunAmount, sunPrice, tronAddress } from '../schemas/common.js';

/** A JSON Schema object, as plain data. */
export type JsonSchema = { [key: string]: unknown };

/** Base58check TRON address: `T` and 33 base58 characters (the x402 spec's pattern). */
export const TRON_ADDRESS_PATTERN = '^T[1-9A-HJ-NP-Za-km-z]{33}$';

/** Where components live in the document. */
export const COMPONENT_PREFIX = '#/components/schemas/';

/** Options of one conversion. */
export interface ConvertOptions {
  /** `input` for request bodies, `output` for responses and query/path parameters. */
  io: 'input' | 'output';
  /** What `looseNumber` becomes: the account API types amounts as number, the paid API as integer. */
  looseNumberAs?: 'number' | 'integer';
  /** Schemas (by identity) replaced by this JSON Schema. */
  replace?: ReadonlyMap<z.core.$ZodType, JsonSchema>;
  /** Schemas (by identity) whose JSON Schema gets these keywords added (descriptions, defaults). */
  augment?: ReadonlyMap<z.core.$ZodType, JsonSchema>;
}

/**
 * A schema as this module reads it: through `def`, the definition zod's classic and mini APIs
 * both expose publicly (never zod's internals).
 */
type AnyZod = z.core.$ZodType;
type Def = Record<string, unknown> & { type: string };

function isSchema(value: unknown): value is AnyZod {
  return value instanceof z.core.$ZodType || Boolean(value && typeof value === 'object' && 'def' in value && '~standard' in value);
}

/**
 * A schema's definition through zod's public `def` property (no internals). A `.describe()` or
 * `.meta()` copy shares its original's definition object, which is how a described field is
 * recognised as the schema it was made from.
 */
function defOf(schema: AnyZod): Def {
  return (schema as unknown as { def: Def }).def;
}

/** Child schemas of a zod schema, for the wrappers and containers the shared schemas use. */
function children(schema: AnyZod): AnyZod[] {
  const def = defOf(schema);
  const out: unknown[] = [];
  switch (def.type) {
    case 'union':
      out.push(...(def.options as unknown[]));
      break;
    case 'pipe':
      out.push(def.in, def.out);
      break;
    case 'optional':
    case 'nullable':
    case 'nonoptional':
    case 'readonly':
    case 'default':
    case 'prefault':
    case 'catch':
      out.push(def.innerType);
      break;
    case 'array':
      out.push(def.element);
      break;
    case 'object':
      out.push(...Object.values(def.shape as Record<string, unknown>));
      if (def.catchall) out.push(def.catchall);
      break;
    case 'record':
      out.push(def.keyType, def.valueType);
      break;
    default:
      break;
  }
  return out.filter(isSchema);
}

function descendants(schema: AnyZod, into: Set<AnyZod>): void {
  for (const child of children(schema)) {
    if (into.has(child)) continue;
    into.add(child);
    descendants(child, into);
  }
}

/** The values of a `lenientEnum(...)` (a union of an enum and a plain string), else undefined. */
export function lenientEnumValues(schema: AnyZod): string[] | undefined {
  const def = defOf(schema) as Def & { options?: AnyZod[] };
  if (def.type !== 'union' || def.options?.length !== 2) return undefined;
  const [first, second] = def.options as [AnyZod, AnyZod];
  const a = defOf(first) as Def & { entries?: Record<string, string> };
  const b = defOf(second) as Def & { checks?: unknown[] };
  if (a.type !== 'enum' || b.type !== 'string' || (b.checks?.length ?? 0) > 0) return undefined;
  return Object.values(a.entries ?? {});
}

/** The zod types `z.toJSONSchema` cannot represent (it throws on them unless told `unrepresentable: 'any'`). */
const UNREPRESENTABLE = new Set(['bigint', 'symbol', 'undefined', 'void', 'date', 'nan', 'custom', 'function', 'transform', 'map', 'set', 'promise']);

function isUnrepresentable(schema: AnyZod): boolean {
  const def = defOf(schema) as Def & { values?: unknown[] };
  if (UNREPRESENTABLE.has(def.type)) return true;
  return def.type === 'literal' && (def.values ?? []).some((v) => v === undefined || typeof v === 'bigint');
}

/** Keywords a replacement keeps: those the schema's own metadata (`.describe()`, `.meta()`) set. */
const KEPT = ['description', 'default', 'title', 'examples', 'deprecated'];

function assign(target: JsonSchema, replacement: JsonSchema): void {
  const kept = Object.fromEntries(KEPT.filter((k) => k in target).map((k) => [k, target[k]]));
  for (const key of Object.keys(target)) delete target[key];
  Object.assign(target, structuredClone(replacement), kept);
}

/** A lookup by schema that also finds a `.describe()`/`.meta()` copy (same definition). */
class BySchema<V> {
  readonly #byDef = new Map<unknown, V>();
  constructor(entries: Iterable<readonly [AnyZod, V]> = []) {
    for (const [schema, value] of entries) this.set(schema, value);
  }
  set(schema: AnyZod, value: V): void {
    this.#byDef.set(defOf(schema), value);
  }
  get(schema: AnyZod): V | undefined {
    return this.#byDef.get(defOf(schema));
  }
  has(schema: AnyZod): boolean {
    return this.#byDef.has(defOf(schema));
  }
}

/**
 * Convert named zod schemas into component schemas. Schemas given here become `$ref`s wherever
 * another one of the same call uses them; anything else is inlined.
 */
export function convertComponents(named: ReadonlyArray<readonly [string, z.core.$ZodType]>, options: ConvertOptions): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  const ids = new Set<string>();
  for (const [id, schema] of named) {
    if (ids.has(id)) throw new Error(`OpenAPI component ${id} is defined twice`);
    if (registry.has(schema)) throw new Error(`OpenAPI component ${id} is the same zod schema as ${registry.get(schema)?.id}`);
    ids.add(id);
    registry.add(schema, { id });
  }
  const result = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: options.io,
    cycles: 'ref',
    reused: 'inline',
    uri: (id) => `${COMPONENT_PREFIX}${id}`,
    ...hooks(
      named.map(([, s]) => s),
      options,
    ),
  });
  const out: Record<string, JsonSchema> = {};
  for (const [id] of named) {
    const schema = { ...(result.schemas[id] as JsonSchema) };
    delete schema.$schema;
    delete schema.$id;
    out[id] = schema;
  }
  return out;
}

/** Convert one schema with no components (a query or path object, say); `$ref`s are not produced. */
export function convertSchema(schema: z.core.$ZodType, options: ConvertOptions): JsonSchema {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', io: options.io, cycles: 'throw', reused: 'inline', ...hooks([schema], options) }) as JsonSchema;
  delete out.$schema;
  return out;
}

function hooks(roots: readonly z.core.$ZodType[], options: ConvertOptions) {
  const replace = new BySchema<JsonSchema>([
    [looseNumber, { type: options.looseNumberAs ?? 'number' }],
    [sunAmount, { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }],
    [sunPrice, { type: 'number', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }],
    [looseTimestamp, { type: 'string', format: 'date-time' }],
    [queryInt, { type: 'integer', minimum: 0 }],
    [tronAddress, { type: 'string', pattern: TRON_ADDRESS_PATTERN }],
  ]);
  for (const [schema, json] of options.replace ?? []) replace.set(schema, json);
  // Every schema inside a replaced one: the only places an unrepresentable schema may sit.
  const covered = new Set<AnyZod>();
  const lenient = new BySchema<string[]>();
  const visit = (schema: AnyZod, seen: Set<AnyZod>): void => {
    if (seen.has(schema)) return;
    seen.add(schema);
    const values = lenientEnumValues(schema);
    if (replace.has(schema) || values) {
      if (values && !replace.has(schema)) lenient.set(schema, values);
      descendants(schema, covered);
      return;
    }
    for (const child of children(schema)) visit(child, seen);
  };
  const seen = new Set<AnyZod>();
  for (const root of roots) visit(root, seen);
  return {
    // zod turns what it cannot represent into `{}`; the override below refuses it outside a
    // replaced schema. (A function here needs zod >= 4.5; package.json's range starts at 4.4.3.)
    unrepresentable: 'any' as const,
    override: (ctx: { zodSchema: AnyZod; jsonSchema: JsonSchema; path: (string | number)[] }) => {
      if (!covered.has(ctx.zodSchema) && isUnrepresentable(ctx.zodSchema)) {
        const type = defOf(ctx.zodSchema).type;
        throw new Error(`OpenAPI: a schema JSON Schema cannot represent at ${ctx.path.join('.') || '(root)'}: ${type}`);
      }
      const replacement = replace.get(ctx.zodSchema);
      if (replacement) assign(ctx.jsonSchema, replacement);
      else {
        const values = lenient.get(ctx.zodSchema);
        if (values) assign(ctx.jsonSchema, { type: 'string', enum: values });
      }
      const extra = options.augment?.get(ctx.zodSchema as z.core.$ZodType);
      if (extra) Object.assign(ctx.jsonSchema, structuredClone(extra));
    },
  };
}
