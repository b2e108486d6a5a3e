/**
 * The exact-shape check: a response holds its schema with no extra keys. The response schemas
 * are lenient on purpose (the SDK keeps fields a newer service adds); what the mock sends, and
 * what tests hold responses to, is exact: every key the value carries must be one the schema
 * names, at every depth. Reads schemas through `def`, the definition zod's classic and mini APIs
 * both expose publicly (the core's schemas are mini since the browser budget; the x402 ones are
 * classic), never its internals.
 *
 * An object schema that names no key at all (`z.looseObject({})`, e.g. the x402 network result
 * whose fields the spec does not show) is open: any keys pass.
 * @module
 */
import * as z from 'zod/mini';

/** The outcome: ok, or the first problem (a parse failure or the extra keys, by path). */
export type ExactResult = { ok: true } | { ok: false; message: string; extraKeys: string[] };

/** Any zod schema, classic or mini. */
type Schema = z.core.$ZodType;

/** Check `value` against `schema` with no extra keys anywhere. */
export function exactShape(schema: Schema, value: unknown): ExactResult {
  const parsed = z.safeParse(schema, value);
  if (!parsed.success)
    return {
      ok: false,
      message: `does not parse: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`,
      extraKeys: [],
    };
  const extra = extraKeys(schema, value, '');
  return extra.length ? { ok: false, message: `extra keys: ${extra.join(', ')}`, extraKeys: extra } : { ok: true };
}

/** Throw (with the keys named) unless `value` has exactly `schema`'s shape; for tests and the mock. */
export function assertExactShape(schema: Schema, value: unknown, label = 'value'): void {
  const result = exactShape(schema, value);
  if (!result.ok) throw new Error(`${label} is not exactly its schema's shape: ${result.message}`);
}

/** The parts of a definition this check reads (zod's public `def`). */
type Def = {
  type: string;
  innerType?: Schema;
  in?: Schema;
  options?: readonly Schema[];
  element?: Schema;
  valueType?: Schema;
  shape?: Record<string, Schema>;
};

/** Keys of `value` that `schema` does not name, as paths (`orders[0].foo`). */
export function extraKeys(schema: Schema, value: unknown, path: string): string[] {
  if (value === null || typeof value !== 'object') return [];
  const def = (schema as unknown as { def: Def }).def;
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
      return extraKeys(def.innerType!, value, path);
    case 'pipe':
      return extraKeys(def.in!, value, path);
    case 'union': {
      const option = def.options!.find((o) => z.safeParse(o, value).success);
      return option ? extraKeys(option, value, path) : [];
    }
    case 'array':
      if (!Array.isArray(value)) return [];
      return value.flatMap((item, i) => extraKeys(def.element!, item, `${path}[${i}]`));
    case 'record':
      return Object.entries(value).flatMap(([k, v]) => extraKeys(def.valueType!, v, join(path, k)));
    case 'object': {
      const shape = def.shape!;
      const names = Object.keys(shape);
      if (names.length === 0) return [];
      const out: string[] = [];
      for (const [k, v] of Object.entries(value)) {
        if (!Object.hasOwn(shape, k)) out.push(join(path, k));
        else out.push(...extraKeys(shape[k]!, v, join(path, k)));
      }
      return out;
    }
    default:
      return [];
  }
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}
