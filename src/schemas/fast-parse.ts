/**
 * A fast path in front of zod's `safeParse`, compiled from the same schema objects.
 *
 * Most values the client checks already are exactly what their schema returns: an API answer
 * in spec shape, a request body with no defaults or transforms to apply. For those, zod's work
 * is a copy equal to its input, built through a payload object, an issues array and a generic
 * `run` call per field. Measured in place (right after a network wait, with the caches cold,
 * not in a hot loop), that was 4-21 µs per parse on the CI machine (21 µs for the body of
 * POST /orders), more than everything else the client does around `fetch` together.
 *
 * `fastParse` first runs a checker generated once per schema from zod's own definitions
 * (`schema._zod.def`): one straight function of type tests, bounds and enum comparisons, which
 * calls the schema's own refinement functions and, for checks it does not model, zod's own
 * check code. The checker answers:
 * - PASS: zod would succeed *and* return a copy identical to the input (same keys, values and
 *   key order), so the input is the result;
 * - FAIL or UNKNOWN (zod would refuse it, or could return something else: a transform, a
 *   default, a stripped key, keys in another order, a coercion, a schema kind the checker does
 *   not model): zod's `safeParse` decides, with its full output and its issues.
 *
 * An answer in the spec's field order (the schemas follow the spec's tables, as the reference
 * mock does) takes the fast path; one in another order costs what zod's copy costs.
 *
 * So the result is always zod's; only the time differs. `test/schemas/fast-parse.test.ts` holds
 * the checker to that against zod itself, on every exported schema with generated valid and
 * broken values; it reads zod's internal definitions, which is why zod is pinned to one version
 * and a zod upgrade must pass that test. The generated source holds only the schema's own keys
 * and literals (escaped with JSON.stringify), never anything of the input. Where code
 * generation is not allowed (a CSP without 'unsafe-eval', some edge runtimes), every value goes
 * to zod, as zod's own JIT does.
 * @module
 */
import type { z } from 'zod';

/** The checker's verdicts. */
const PASS = 0;
const FAIL = 1;
const UNKNOWN = 2;
type Verdict = typeof PASS | typeof FAIL | typeof UNKNOWN;
type Checker = (value: unknown) => Verdict;

/** What the compiler reads of zod's internals (`schema._zod`), loosely typed on purpose. */
interface Internals {
  def: Record<string, any> & { type: string; checks?: Array<{ _zod: Internals }> };
  traits?: Set<string>;
  optin?: 'optional';
  optout?: 'optional';
  values?: Set<unknown>;
  check?: (payload: { value: unknown; issues: unknown[] }) => unknown;
}
type Schema = { _zod: Internals };

const compiled = new WeakMap<object, Checker>();

/**
 * `schema.safeParse(input)`, with the input itself as the data when it already is what zod
 * would return (see the module notes). Same result type as `safeParse`.
 */
export function fastParse<S extends z.ZodType>(schema: S, input: unknown): z.ZodSafeParseResult<z.output<S>> {
  if (checkerOf(schema as unknown as Schema)(input) === PASS) return { success: true, data: input as z.output<S> };
  return schema.safeParse(input);
}

/** @internal For the tests: the checker's verdict alone (0 PASS, 1 FAIL, 2 UNKNOWN). */
export function fastVerdict(schema: z.ZodType, input: unknown): Verdict {
  return checkerOf(schema as unknown as Schema)(input);
}

/** @internal For the tests: the source the checker of `schema` was generated from. */
export function fastSource(schema: z.ZodType): string {
  return generate(schema as unknown as Schema).source;
}

const undecided: Checker = () => UNKNOWN;

/**
 * False once code generation has been refused (a CSP, an edge runtime): later schemas do not
 * try again, so a browser reports one violation, not one per schema.
 */
let codegen = true;

function checkerOf(schema: Schema): Checker {
  let checker = compiled.get(schema);
  if (!checker) {
    checker = undecided; // zod decides
    if (codegen) {
      const { source, constants } = generate(schema);
      try {
        checker = new Function('c', `"use strict"; return function check(x0) {\n${source}\nreturn 0;\n}`)(constants) as Checker;
      } catch {
        codegen = false;
      }
    }
    compiled.set(schema, checker);
  }
  return checker;
}

/** @internal For the tests: allow code generation again after a test refused it. */
export function resetCodegen(): void {
  codegen = true;
}

/** Generated source is capped; a schema that large goes to zod. */
const MAX_SOURCE = 64 * 1024;

interface Gen {
  constants: unknown[];
  names: number;
  /** Schemas being emitted, to stop at a schema that contains itself. */
  open: Set<Schema>;
}

function generate(schema: Schema): { source: string; constants: unknown[] } {
  const gen: Gen = { constants: [], names: 1, open: new Set() };
  const source = emit(gen, schema, 'x0', 'return 1;');
  return source.length > MAX_SOURCE ? { source: 'return 2;', constants: [] } : { source, constants: gen.constants };
}

function constant(gen: Gen, value: unknown): string {
  gen.constants.push(value);
  return `c[${gen.constants.length - 1}]`;
}

function name(gen: Gen, prefix: string): string {
  return `${prefix}${gen.names++}`;
}

/** A JS literal for a number or string of a schema definition. */
function literal(value: unknown): string | undefined {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value)) return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'boolean' || value === null) return String(value);
  return undefined;
}

/**
 * Statements that test the value in variable `x` against `schema`: they fall through when it
 * passes, run `fail` (a `return 1;` or a `break` to the next union option) when zod would refuse
 * it, and `return 2;` when zod could return something other than the input.
 */
function emit(gen: Gen, schema: Schema, x: string, fail: string): string {
  const internals = schema._zod;
  const def = internals.def;
  if (def.coerce || gen.open.has(schema)) return 'return 2;';
  gen.open.add(schema);
  let code = emitKind(gen, schema, x, fail);
  // As zod's $ZodType.init: a schema that is itself a check (string formats) runs first.
  const checks = [...(def.checks ?? [])];
  if (internals.traits?.has('$ZodCheck')) checks.unshift(schema);
  for (const check of checks) code += emitCheck(gen, check, x, fail);
  gen.open.delete(schema);
  return code;
}

function emitKind(gen: Gen, schema: Schema, x: string, fail: string): string {
  const def = schema._zod.def;
  switch (def.type) {
    case 'string':
      return `if (typeof ${x} !== "string") ${fail}\n`;
    case 'number':
      return `if (typeof ${x} !== "number" || !Number.isFinite(${x})) ${fail}\n`;
    case 'boolean':
      return `if (typeof ${x} !== "boolean") ${fail}\n`;
    case 'null':
      return `if (${x} !== null) ${fail}\n`;
    case 'unknown':
    case 'any':
    case 'custom': // z.custom/z.instanceof: no type of its own; its check follows
      return '';
    case 'never':
      return `${fail}\n`;
    case 'enum':
    case 'literal': {
      const values = schema._zod.values;
      if (!values) return 'return 2;';
      const literals = [...values].map(literal);
      if (literals.length <= 8 && literals.every((l) => l !== undefined)) {
        return `if (${literals.map((l) => `${x} !== ${l}`).join(' && ')}) ${fail}\n`;
      }
      return `if (!${constant(gen, values)}.has(${x})) ${fail}\n`;
    }
    case 'optional': {
      const inner = def.innerType as Schema;
      if (schema._zod.traits?.has('$ZodExactOptional') || inner._zod.optin === 'optional') return emit(gen, inner, x, fail);
      return `if (${x} !== undefined) {\n${emit(gen, inner, x, fail)}}\n`;
    }
    case 'nullable':
      return `if (${x} !== null) {\n${emit(gen, def.innerType as Schema, x, fail)}}\n`;
    case 'pipe':
      // The second stage sees the first's output: the input itself when the first passes.
      return emit(gen, def.in as Schema, x, fail) + emit(gen, def.out as Schema, x, fail);
    case 'union': {
      if (def.inclusive === false) return 'return 2;'; // z.xor: exactly one option may match
      // zod returns the first option that succeeds; an option that might succeed differently decides.
      const done = name(gen, 'u');
      let code = `${done}: {\n`;
      for (const option of def.options as Schema[]) {
        const next = name(gen, 'o');
        code += `${next}: {\n${emit(gen, option, x, `break ${next};`)}break ${done};\n}\n`;
      }
      return `${code}${fail}\n}\n`;
    }
    case 'array': {
      const i = name(gen, 'i');
      const element = name(gen, 'x');
      return (
        `if (!Array.isArray(${x})) ${fail}\nif (Object.getPrototypeOf(${x}) !== Array.prototype) return 2;\n` +
        `for (let ${i} = 0; ${i} < ${x}.length; ${i}++) {\nconst ${element} = ${x}[${i}];\n${emit(gen, def.element as Schema, element, fail)}}\n`
      );
    }
    case 'object':
      return emitObject(gen, def, x, fail);
    default:
      // transform, default, catch, record, tuple, lazy, readonly…: zod decides.
      return 'return 2;';
  }
}

function emitObject(gen: Gen, def: Internals['def'], x: string, fail: string): string {
  const shape = def.shape as Record<string, Schema>;
  const keys = Object.keys(shape);
  const present = name(gen, 'n');
  // zod's copy is a plain object: the input is that copy only if it is one too (a class instance
  // may serialise otherwise, through an inherited toJSON).
  let code =
    `if (typeof ${x} !== "object" || ${x} === null || Array.isArray(${x})) ${fail}\n` +
    `if (Object.getPrototypeOf(${x}) !== Object.prototype) return 2;\nlet ${present} = 0;\n`;
  for (const key of keys) {
    const child = shape[key]!;
    const field = name(gen, 'x');
    const k = JSON.stringify(key);
    const optin = child._zod.optin === 'optional';
    const optout = child._zod.optout === 'optional';
    // An absent key: zod refuses it unless the field is optional, and then sets nothing unless
    // the field makes a value of undefined (a default).
    const absent = !optin ? fail : optout && undefinedPasses(child) ? '' : 'return 2;';
    code += `const ${field} = ${x}[${k}];\nif (${field} === undefined && !(${k} in ${x})) {${absent}} else {\n${present}++;\n${emit(gen, child, field, fail)}}\n`;
  }
  // zod's copy has the shape's keys first, in the shape's order, then the other keys in the
  // input's order; it copies own and inherited fields alike, never a `__proto__` key. The input
  // is that copy only if its own keys already come that way.
  const catchall = def.catchall as Schema | undefined;
  const type = catchall?._zod.def.type;
  const [own, i, key, last, extra, seen] = [name(gen, 'ks'), name(gen, 'i'), name(gen, 'k'), name(gen, 'l'), name(gen, 'e'), name(gen, 's')];
  // z.looseObject keeps other keys as they are, z.object strips them (another output),
  // z.strictObject refuses them, a catchall schema parses them.
  let other: string;
  if (type === 'unknown' || type === 'any') other = '';
  else if (catchall === undefined) other = 'return 2;';
  else if (type === 'never') other = fail;
  else {
    const value = name(gen, 'x');
    other = `const ${value} = ${x}[${key}];\n${emit(gen, catchall, value, fail)}`;
  }
  const cases = keys.map((k, index) => `case ${JSON.stringify(k)}: if (${extra} || ${last} >= ${index}) return 2; ${last} = ${index}; ${seen}++; break;\n`).join('');
  return (
    `${code}const ${own} = Object.keys(${x});\nlet ${last} = -1, ${extra} = false, ${seen} = 0;\n` +
    `for (let ${i} = 0; ${i} < ${own}.length; ${i}++) {\nconst ${key} = ${own}[${i}];\nswitch (${key}) {\n${cases}default:\n` +
    `if (${key} === "__proto__") return 2;\n${extra} = true;\n${other}\n}\n}\nif (${seen} !== ${present}) return 2;\n`
  );
}

/** Whether zod returns undefined, unchanged and without issues, for undefined (statically known). */
function undefinedPasses(schema: Schema): boolean {
  const def = schema._zod.def;
  if (def.checks?.length) return false;
  switch (def.type) {
    case 'optional':
      return schema._zod.traits?.has('$ZodExactOptional') || def.innerType._zod.optin === 'optional' ? undefinedPasses(def.innerType) : true;
    case 'nullable':
      return undefinedPasses(def.innerType);
    case 'unknown':
    case 'any':
    case 'undefined':
      return true;
    default:
      return false;
  }
}

/**
 * One of zod's checks. The common ones (bounds, safe integers, regexes, refinements) are read
 * from their definitions and tested inline; a refinement calls its own function. Any other
 * check runs zod's own code on a payload of ours.
 */
function emitCheck(gen: Gen, check: { _zod: Internals }, x: string, fail: string): string {
  const internals = check._zod;
  const def = internals.def;
  const is = (trait: string) => internals.traits?.has(trait) === true;
  if (def.when === undefined) {
    const bound = literal(def.value);
    if (is('$ZodCheckGreaterThan') && typeof def.value === 'number' && bound) return `if (!(${x} ${def.inclusive ? '>=' : '>'} ${bound})) ${fail}\n`;
    if (is('$ZodCheckLessThan') && typeof def.value === 'number' && bound) return `if (!(${x} ${def.inclusive ? '<=' : '<'} ${bound})) ${fail}\n`;
    if (is('$ZodCheckNumberFormat') && def.format === 'safeint') return `if (!Number.isSafeInteger(${x})) ${fail}\n`;
    if (is('$ZodCheckRegex') && def.pattern instanceof RegExp) {
      const pattern = constant(gen, def.pattern);
      return `${pattern}.lastIndex = 0;\nif (!${pattern}.test(${x})) ${fail}\n`;
    }
    if (is('$ZodCustom') && def.type === 'custom' && typeof def.fn === 'function') {
      const result = name(gen, 'r');
      return `const ${result} = ${constant(gen, def.fn)}(${x});\nif (${result} instanceof Promise) return 2;\nif (!${result}) ${fail}\n`;
    }
  }
  const result = name(gen, 'r');
  return `const ${result} = ${constant(gen, zodCheck(internals))}(${x});\nif (${result} === 2) return 2;\nif (${result} === 1) ${fail}\n`;
}

/** A check the compiler does not model, run by zod's own code. */
function zodCheck(internals: Internals): Checker {
  const def = internals.def;
  return (value) => {
    const payload = { value, issues: [] as unknown[] };
    const when = def.when as ((p: typeof payload) => boolean) | undefined;
    if (when && !when(payload)) return PASS;
    const result = internals.check?.(payload);
    if (result instanceof Promise) return UNKNOWN;
    if (payload.issues.length > 0) return FAIL;
    return payload.value === value ? PASS : UNKNOWN; // an overwrite (trim, toLowerCase…) changed it
  };
}
