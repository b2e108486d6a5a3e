/**
 * The exact-shape check: a response holds its schema with no extra keys. The response schemas
 * are lenient on purpose (the SDK keeps fields a newer service adds); what the mock sends, and
 * what tests hold responses to, is exact: every key the value carries must be one the schema
 * names, at every depth. Uses zod's public classes only (`shape`, `element`, `options`,
 * `unwrap()`, `in`), never its internals.
 *
 * An object schema that names no key at all (`z.looseObject({})`, e.g. the x402 network result
 * whose fields the spec does not show) is open: any keys pass.
 * @module
 */
import * as z from 'zod';

/** The outcome: ok, or the first problem (a parse failure or the extra keys, by path). */
export type ExactResult = { ok: true } | { ok: false; message: string; extraKeys: string[] };

/** Check `value` against `schema` with no extra keys anywhere. */
export function exactShape(schema: z.ZodType, value: unknown): ExactResult {
  const parsed = schema.safeParse(value);
  if (!parsed.success) return { ok: false, message: `does not parse: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`, extraKeys: [] };
  const extra = extraKeys(schema, value, '');
  return extra.length ? { ok: false, message: `extra keys: ${extra.join(', ')}`, extraKeys: extra } : { ok: true };
}

/** Throw (with the keys named) unless `value` has exactly `schema`'s shape; for tests and the mock. */
export function assertExactShape(schema: z.ZodType, value: unknown, label = 'value'): void {
  const result = exactShape(schema, value);
  if (!result.ok) throw new Error(`${label} is not exactly its schema's shape: ${result.message}`);
}

/** Keys of `value` that `schema` does not name, as paths (`orders[0].foo`). */
export function extraKeys(schema: z.ZodType, value: unknown, path: string): string[] {
  if (value === null || typeof value !== 'object') return [];
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault || schema instanceof z.ZodReadonly) {
    return extraKeys(schema.unwrap() as z.ZodType, value, path);
  }
  if (schema instanceof z.ZodPipe) return extraKeys(schema.in as z.ZodType, value, path);
  if (schema instanceof z.ZodUnion) {
    const option = (schema.options as z.ZodType[]).find((o) => o.safeParse(value).success);
    return option ? extraKeys(option, value, path) : [];
  }
  if (schema instanceof z.ZodArray) {
    if (!Array.isArray(value)) return [];
    return value.flatMap((item, i) => extraKeys(schema.element as z.ZodType, item, `${path}[${i}]`));
  }
  if (schema instanceof z.ZodRecord) {
    return Object.entries(value).flatMap(([k, v]) => extraKeys(schema.valueType as z.ZodType, v, join(path, k)));
  }
  if (schema instanceof z.ZodObject) {
    const shape = schema.shape as Record<string, z.ZodType>;
    const names = Object.keys(shape);
    if (names.length === 0) return [];
    const out: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      if (!Object.hasOwn(shape, k)) out.push(join(path, k));
      else out.push(...extraKeys(shape[k]!, v, join(path, k)));
    }
    return out;
  }
  return [];
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}
