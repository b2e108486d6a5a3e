// Compiles zod schemas into standalone "fast checks", at build time, from zod's public API only
// (never `_zod`): the schema's `def` (its type, shape, options, inner schemas), `instanceof` on
// zod's exported core check classes, the bounds `z.toJSONSchema` states, and a refinement's `def.fn`.
// The output is plain TypeScript with no zod in it, committed as src/api/account-checks.gen.ts
// and checked for freshness by test/api/checks.test.ts, which also holds every check to zod
// itself (the differential test).
//
// What a check promises: `check(v) === true` only when `schema.safeParse(v)` succeeds AND its
// output deep-equals `v` (no transform ran, no default was filled in, no key was stripped), so
// the client may return `v` itself and skip zod's copy. `false` promises nothing: the client then
// asks zod, which gives the real result or the real error. So a check may be conservative, never
// generous, and the compiler is built to fail closed:
//  - every schema type and check kind it does not know compiles to an "opaque" node, which never
//    answers true (a check over it is `false`: zod decides);
//  - a refinement (`.refine(fn)`) is compiled only when `fn` is one of the named predicates it is
//    given (matched by identity) and is called as such; any other function is opaque;
//  - a union answers true through an option only when no earlier option could have taken the
//    value (zod returns the first option that succeeds, maybe with another output).
// Nothing is generated at run time: the output is ordinary source, CSP-safe.

import { createHash } from 'node:crypto';

/** A compiled node: `check` (identity when true: expr over a variable) or `opaque` (maybe transforms; `guard` over-approximates what it accepts). */
class Compiler {
  #functions = [];
  #names = new Set();
  #bodies = new Map();
  #cache = new Map();
  #predicates;
  #usedPredicates = new Set();
  /** Why nodes compiled opaque: listed at the top of the generated file. */
  #opaqueReasons = new Set();

  #z;
  /** Check classes whose values JSON Schema states exactly (zod's public core classes). */
  #boundClasses;

  #prefix;
  #plain;

  /**
   * @param prefix names of the generated functions
   * @param plain objects must be plain (their prototype Object.prototype or null): for values a
   *   caller built, where an inherited or accessor property would make zod's copy differ
   */
  constructor(z, predicates, { prefix = 'check', plain = false } = {}) {
    this.#z = z;
    this.#prefix = prefix;
    this.#plain = plain;
    this.#predicates = predicates; // Map(fn -> { name, from })
    const core = z.core;
    this.#boundClasses = [core.$ZodCheckGreaterThan, core.$ZodCheckLessThan, core.$ZodCheckNumberFormat, core.$ZodCheckMinLength, core.$ZodCheckMaxLength];
  }

  /** A check function name for `schema`, or null when its root is opaque. */
  root(schema) {
    const node = this.node(schema);
    if (node.kind !== 'check') return null;
    return this.#asFunction(schema, node);
  }

  #asFunction(schema, node) {
    const key = this.#cache.get(schema);
    if (key?.fn) return key.fn;
    const body = node.statements ?? `return ${node.expr('v')};`;
    // Schemas built the same way (two uses of one helper) share one function.
    const same = this.#bodies.get(body);
    if (same) {
      this.#cache.set(schema, { ...key, node, fn: same });
      return same;
    }
    // Named by what they check (a hash of the body), not by a counter: adding an entry renames
    // nothing, so the generated file's diff is the new entry's checks alone.
    const name = `${this.#prefix}_${createHash('sha256').update(body).digest('hex').slice(0, 8)}`;
    if (this.#names.has(name)) throw new Error(`compile-checks: two check bodies hash to ${name}`);
    this.#names.add(name);
    this.#bodies.set(body, name);
    this.#functions.push(`function ${name}(v: any): boolean {\n  ${body}\n}`);
    this.#cache.set(schema, { ...key, node, fn: name });
    return name;
  }

  #opaque(reason, guard = () => 'true') {
    this.#opaqueReasons.add(reason);
    return { kind: 'opaque', guard };
  }

  node(schema) {
    const hit = this.#cache.get(schema);
    if (hit?.node) return hit.node;
    const node = this.#compile(schema);
    // Objects and arrays become functions of their own (shared by every schema that holds them).
    const def = schema.def;
    if (node.kind === 'check' && (def.type === 'object' || def.type === 'array' || def.type === 'union' || def.type === 'pipe')) {
      this.#cache.set(schema, { node });
      const fn = this.#asFunction(schema, node);
      const wrapped = { kind: 'check', expr: (v) => `${fn}(${v})`, guard: node.guard };
      this.#cache.set(schema, { node: wrapped, fn });
      return wrapped;
    }
    this.#cache.set(schema, { node });
    return node;
  }

  #compile(schema) {
    const def = schema.def;
    if (!def || typeof def.type !== 'string') return this.#opaque('a schema without a public def');
    const checks = def.checks ?? [];
    // `guard` over-approximates what the node accepts (its type alone), for unions; `base` is the
    // exact test before the node's own checks.
    const leaf = (guard, base = guard) => this.#withChecks(def.type, base, guard, checks, schema);
    switch (def.type) {
      case 'string':
        return leaf((v) => `typeof ${v} === 'string'`);
      case 'number':
        // zod's number refuses NaN and the infinities.
        return leaf(
          (v) => `typeof ${v} === 'number'`,
          (v) => `typeof ${v} === 'number' && Number.isFinite(${v})`,
        );
      case 'boolean':
        return leaf((v) => `typeof ${v} === 'boolean'`);
      case 'null':
        return leaf((v) => `${v} === null`);
      case 'unknown':
      case 'any':
        return leaf(() => 'true');
      case 'literal': {
        const values = def.values;
        if (!values.every((x) => x === null || ['string', 'number', 'boolean'].includes(typeof x))) return this.#opaque('a literal that is not a JSON scalar');
        return leaf((v) => `(${values.map((x) => `${v} === ${JSON.stringify(x)}`).join(' || ')})`);
      }
      case 'enum': {
        const values = Object.values(def.entries);
        if (!values.every((x) => typeof x === 'string' || typeof x === 'number')) return this.#opaque('an enum of non-scalars');
        return leaf((v) => `(${values.map((x) => `${v} === ${JSON.stringify(x)}`).join(' || ')})`);
      }
      case 'optional':
      case 'nullable':
      case 'nonoptional': {
        const inner = this.node(def.innerType);
        const [op, join] = { optional: ['=== undefined', '||'], nullable: ['=== null', '||'], nonoptional: ['!== undefined', '&&'] }[def.type];
        const guard = (v) => `(${v} ${op} ${join} ${inner.guard(v)})`;
        if (inner.kind !== 'check') return this.#opaque(`${def.type} over an opaque schema`, guard);
        return leaf(guard, (v) => `(${v} ${op} ${join} ${inner.expr(v)})`);
      }
      case 'default':
      case 'prefault': {
        // A value that is there is parsed by the inner schema as is; a missing one is filled in
        // (not identity), so undefined answers false.
        const inner = this.node(def.innerType);
        const guard = (v) => `(${v} === undefined || ${inner.guard(v)})`;
        if (inner.kind !== 'check') return this.#opaque(`${def.type} over an opaque schema`, guard);
        return leaf(guard, (v) => `(${v} !== undefined && ${inner.expr(v)})`);
      }
      case 'pipe': {
        const input = this.node(def.in);
        const output = this.node(def.out);
        if (input.kind === 'check' && output.kind === 'check') return leaf(input.guard, (v) => `(${input.expr(v)} && ${output.expr(v)})`);
        return this.#opaque(output.kind === 'check' ? 'pipe from an opaque schema' : 'pipe into a transform', input.guard);
      }
      case 'transform':
        return this.#opaque('transform');
      case 'array': {
        const guard = (v) => `Array.isArray(${v})`;
        const element = this.node(def.element);
        if (element.kind !== 'check') return this.#opaque('array of an opaque schema', guard);
        const node = leaf(guard, (v) => `Array.isArray(${v}) && ${v}.every((x: any) => ${element.expr('x')})`);
        // As a function of its own: a plain loop (no closure per call).
        if (node.kind === 'check' && !checks.length) {
          node.statements = `if (!Array.isArray(v)) return false;\n  for (let i = 0; i < v.length; i++) if (!${element.expr('v[i]')}) return false;\n  return true;`;
        }
        return node;
      }
      case 'object':
        return this.#object(schema, def, checks);
      case 'union':
        return this.#union(schema, def, checks);
      default:
        return this.#opaque(`schema type ${def.type}`);
    }
  }

  #object(schema, def, checks) {
    const shape = def.shape;
    const catchall = def.catchall?.def?.type;
    // loose: unknown keys kept as they are; strict: refused; strip (no catchall): dropped, so an
    // extra key means zod's output differs; any other catchall is not compiled.
    let extra;
    if (catchall === 'unknown' || catchall === 'any') extra = 'keep';
    else if (catchall === 'never' || catchall === undefined) extra = 'refuse';
    else return this.#opaque(`object with a ${catchall} catchall`, isObject);
    const parts = [];
    for (const [key, field] of Object.entries(shape)) {
      const node = this.node(field);
      if (node.kind !== 'check') return this.#opaque(`object field over an opaque schema`, isObject);
      parts.push((v) => node.expr(prop(v, key)));
    }
    const keys = Object.keys(shape);
    const body = (v) => {
      const lines = [`${isObject(v)}`];
      if (this.#plain) lines.push(`isPlain(${v})`);
      if (extra === 'refuse')
        lines.push(`Object.keys(${v}).every((k) => ${keys.length ? keys.map((k) => `k === ${JSON.stringify(k)}`).join(' || ') : 'false'})`);
      lines.push(...parts.map((p) => p(v)));
      return lines.join('\n    && ');
    };
    return this.#withChecks('object', body, isObject, checks, schema);
  }

  #union(schema, def, checks) {
    // zod returns the first option that succeeds: answer true through an option only if no
    // earlier option could have taken the value (with another output).
    const options = def.options.map((o) => this.node(o));
    const guard = (v) => `(${options.map((o) => o.guard(v)).join(' || ')})`;
    if (!options.some((o) => o.kind === 'check')) return this.#opaque('union of opaque options', guard);
    const body = (v) => {
      let out = 'false';
      for (let i = options.length - 1; i >= 0; i--) {
        const o = options[i];
        // An option's test can be stricter than zod (a strip object refuses an extra key that
        // zod would drop), so a value it refuses goes on only if zod could not take it either.
        if (o.kind === 'check') {
          const expr = o.expr(v);
          const guard = o.guard(v);
          if (out === 'false') out = expr;
          else out = expr === guard ? `(${expr} || ${out})` : `(${expr} || (!(${guard}) && ${out}))`;
        } else if (out !== 'false') out = `(!(${o.guard(v)}) && ${out})`;
      }
      return out;
    };
    return this.#withChecks('union', body, guard, checks, schema);
  }

  /**
   * The base test plus the node's checks. Each check must be of a kind zod's JSON Schema output
   * states exactly (bounds, lengths: read from `toJSONSchema`, a public API), or a refinement
   * whose function is a known predicate; anything else makes the node opaque.
   */
  #withChecks(type, base, guard, checks, schema) {
    if (!checks.length) return { kind: 'check', expr: base, guard };
    const tests = [];
    let bounds = false;
    for (const check of checks) {
      if (check?.def?.check === 'custom') {
        const known = this.#predicates.get(check.def.fn);
        if (!known || check.def.when) return this.#opaque(`${type} refinement by an unknown function`, guard);
        this.#usedPredicates.add(known);
        tests.push((v) => `${known.name}(${v}) === true`);
      } else if (this.#boundClasses.some((C) => check instanceof C)) bounds = true;
      else return this.#opaque(`${type} check ${check?.constructor?.name ?? '?'}`, guard);
    }
    if (bounds) {
      const read = this.#bounds(type, schema);
      if (!read) return this.#opaque(`${type} checks that JSON Schema does not state exactly`, guard);
      tests.unshift(...read);
    }
    return { kind: 'check', expr: (v) => `(${base(v)} && ${tests.map((t) => t(v)).join(' && ')})`, guard };
  }

  /** Bound and length tests for a number or a string (or an array), from its JSON Schema. */
  #bounds(type, schema) {
    let json;
    try {
      json = this.#z.toJSONSchema(schema, { io: 'output', unrepresentable: 'throw' });
    } catch {
      return null;
    }
    const tests = [];
    for (const [key, value] of Object.entries(json)) {
      if (IGNORED_KEYWORDS.has(key)) continue;
      if (type === 'number') {
        if (key === 'type') {
          if (value === 'integer') tests.push((v) => `Number.isInteger(${v})`);
          else if (value !== 'number') return null;
        } else if (key === 'minimum') tests.push((v) => `${v} >= ${num(value)}`);
        else if (key === 'maximum') tests.push((v) => `${v} <= ${num(value)}`);
        else if (key === 'exclusiveMinimum') tests.push((v) => `${v} > ${num(value)}`);
        else if (key === 'exclusiveMaximum') tests.push((v) => `${v} < ${num(value)}`);
        else return null;
      } else if (type === 'string') {
        if (key === 'type') {
          if (value !== 'string') return null;
        } else if (key === 'minLength') tests.push((v) => `${v}.length >= ${num(value)}`);
        else if (key === 'maxLength') tests.push((v) => `${v}.length <= ${num(value)}`);
        else return null;
      } else return null;
    }
    return tests;
  }

  /** Predicates used, functions and why some nodes are left to zod, for the module text. */
  parts() {
    return { predicates: [...this.#usedPredicates], functions: this.#functions, opaque: [...this.#opaqueReasons] };
  }
}

/** Keywords that say nothing about what is accepted. */
const IGNORED_KEYWORDS = new Set(['$schema', 'description', 'title', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

function isObject(v) {
  return `isObject(${v})`;
}

/** A key as a property access: `v.key` where it is an identifier, else `v["key"]`. */
function prop(v, key) {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${v}.${key}` : `${v}[${JSON.stringify(key)}]`;
}

function num(n) {
  if (typeof n === 'bigint') n = Number(n);
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new Error(`compile-checks: not a finite number: ${String(n)}`);
  return Object.is(n, -0) ? '0' : String(n);
}

/**
 * The source of src/api/account-checks.gen.ts: for each entry of the account table, a check of
 * its response, of its body and of its query (null where there is none, or where the schema
 * compiles opaque).
 * @param z the zod the schemas were built with (its public `toJSONSchema` and `core` classes)
 * @param wire ACCOUNT_WIRE
 * @param predicates Map(fn -> { name, from }): the refinement functions a check may call
 */
export function renderAccountChecks(z, wire, predicates) {
  // Responses come from JSON.parse: plain objects. Bodies and queries are the caller's values.
  const received = new Compiler(z, predicates, { prefix: 'response' });
  const sent = new Compiler(z, predicates, { prefix: 'request', plain: true });
  // Each entry's check is a function named by its id (`createOrderBody`), over the shared shape
  // checks (named by a hash of what they check): adding an entry renumbers nothing.
  const roots = [];
  const table = (name, doc, compiler, pick, suffix) => {
    const rows = Object.entries(wire).map(([id, entry]) => {
      const inner = pick(entry) && compiler.root(pick(entry));
      if (!inner) return `  ${id}: null,`;
      // An alias, not a wrapper: the client's call goes straight to the shape check.
      roots.push(`const ${id}${suffix}: FastCheck = ${inner};`);
      return `  ${id}: ${id}${suffix},`;
    });
    return [`/** ${doc} */`, `export const ${name}: { readonly [K in AccountEndpointId]: FastCheck | null } = {`, ...rows, '};'].join('\n');
  };
  const tables = [
    table('RESPONSE_CHECKS', "Each operation's response check (null: zod only).", received, (e) => e.response, 'Response'),
    table('BODY_CHECKS', "Each operation's request body check (null: no body, or zod only).", sent, (e) => e.body, 'Body'),
    table('QUERY_CHECKS', "Each operation's query check (null: no query, or zod only).", sent, (e) => e.query, 'Query'),
  ];
  const header = [
    '/**',
    ' * Generated by `npm run checks` (scripts/checks.mjs) from the account table (`./account.ts`); do not',
    ' * edit: test/api/checks.test.ts fails when this file is stale, and holds every check to zod.',
    ' *',
    " * Fast checks of the operations' schemas: `true` only when zod would accept the value and return",
    ' * it unchanged (no transform, no default, no key dropped), so the client uses the value itself and',
    ' * skips zod\'s copy; `false` means "ask zod", which gives the result or the error. `null`: nothing',
    ' * faster than zod (see scripts/lib/compile-checks.mjs).',
    ' *',
    ` * Left to zod (some part of a schema): ${[...new Set([...received.parts().opaque, ...sent.parts().opaque])].sort().join('; ') || 'nothing'}.`,
    ' * @module',
    ' * @internal',
    ' */',
    '/* eslint-disable */',
  ].join('\n');
  const lines = [header, ''];
  const imports = new Map();
  for (const p of [...received.parts().predicates, ...sent.parts().predicates]) imports.set(p.from, new Set([...(imports.get(p.from) ?? []), p.name]));
  for (const [from, names] of [...imports].sort(([a], [b]) => a.localeCompare(b))) lines.push(`import { ${[...names].sort().join(', ')} } from '${from}';`);
  lines.push("import type { AccountEndpointId } from './account.js';", "import type { FastCheck } from './types.js';", '');
  lines.push('/** A JSON object: not null, not an array. */');
  lines.push('function isObject(v: any): boolean {', "  return typeof v === 'object' && v !== null && !Array.isArray(v);", '}', '');
  lines.push('/** A value a caller built is checked only when plain (no class, no inherited keys). */');
  lines.push(
    'function isPlain(v: object): boolean {',
    '  const proto = Object.getPrototypeOf(v);',
    '  return proto === Object.prototype || proto === null;',
    '}',
    '',
  );
  for (const compiler of [received, sent]) {
    const { functions } = compiler.parts();
    if (functions.length) lines.push(functions.join('\n\n'), '');
  }
  lines.push("/* The entries' checks, by id. */", roots.join('\n'), '');
  lines.push(tables.join('\n\n'), '');
  return lines.join('\n');
}
