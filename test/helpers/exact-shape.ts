/**
 * Exact response shapes (issue 21, item 3): a response must be what its schema accepts *and*
 * carry no key its schema does not declare, at any depth. The SDK's schemas are lenient on
 * purpose (unknown keys kept); this check is the strict reading of the same schemas, for tests.
 *
 * Only zod's public API is used (`instanceof`, `.shape`, `.element`, `.options`, `.def`).
 * Rules of the strict reading:
 * - an object accepts only its declared keys (plus `extras`, below); an object that declares no
 *   key at all stands for "fields not shown by the spec" and accepts any (x402 network info);
 * - a record, `z.unknown()` or `z.any()` accepts anything (the spec does not show those fields);
 * - a union is exact when one of its options both accepts the value and finds no extra key.
 *
 * `exactShapeIssues` returns the problems (empty when exact); `expectExactShape` throws them.
 */
import * as z from 'zod';

/** Keys allowed beyond a schema's own, by schema (e.g. the production notes' `expires_at` on orders). */
export type Extras = ReadonlyMap<z.ZodType, readonly string[]>;

/** Problems of `value` against `schema`'s strict reading, as `path: message` lines (empty when exact). */
export function exactShapeIssues(schema: z.ZodType, value: unknown, extras: Extras = new Map()): string[] {
  const parsed = schema.safeParse(value);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  const out: string[] = [];
  extraKeys(schema, value, '', extras, out);
  return out;
}

/** Throws when `value` is not exactly of `schema`'s shape (`label` names the response). */
export function expectExactShape(schema: z.ZodType, value: unknown, label: string, extras?: Extras): void {
  const issues = exactShapeIssues(schema, value, extras);
  if (issues.length) throw new Error(`${label}: not the exact shape:\n  ${issues.join('\n  ')}`);
}

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; getter?: () => z.ZodType; valueType?: z.ZodType; element?: z.ZodType };

function defOf(schema: z.ZodType): Def {
  return schema.def as unknown as Def;
}

/** Adds to `out` every key of `value` its schema does not declare (the value is already known to parse). */
function extraKeys(schema: z.ZodType, value: unknown, at: string, extras: Extras, out: string[]): void {
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
    case 'catch':
      if (value === undefined || value === null) return;
      return extraKeys(def.innerType!, value, at, extras, out);
    case 'pipe':
      return extraKeys(def.in!, value, at, extras, out);
    case 'lazy':
      return extraKeys(def.getter!(), value, at, extras, out);
    case 'array':
      if (Array.isArray(value)) value.forEach((item, i) => extraKeys((schema as z.ZodArray).element as z.ZodType, item, `${at}[${i}]`, extras, out));
      return;
    case 'union': {
      const options = (schema as z.ZodUnion).options as readonly z.ZodType[];
      let best: string[] | undefined;
      for (const option of options) {
        if (!option.safeParse(value).success) continue;
        const found: string[] = [];
        extraKeys(option, value, at, extras, found);
        if (found.length === 0) return;
        if (!best || found.length < best.length) best = found;
      }
      if (best) out.push(...best);
      return;
    }
    case 'object': {
      if (!value || typeof value !== 'object' || Array.isArray(value)) return;
      const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType>;
      const declared = Object.keys(shape);
      if (declared.length === 0) return; // fields not shown: any object
      const allowed = new Set([...declared, ...(extras.get(schema) ?? [])]);
      for (const [key, item] of Object.entries(value)) {
        const where = at ? `${at}.${key}` : key;
        if (!allowed.has(key)) out.push(`${where}: key not in the schema`);
        else if (shape[key]) extraKeys(shape[key], item, where, extras, out);
      }
      return;
    }
    default:
      // Records, unknown/any, and leaves (strings, numbers, enums, literals): nothing to add.
      return;
  }
}
