/**
 * No fail-open cleverness (issue 21, item 4): nothing under `src/` reads zod's internals
 * (`_zod`) or generates code at run time (`new Function(`, `eval(`). Validation is zod's own
 * public API, so a zod release cannot make it accept what zod refuses, and the package runs
 * under a CSP without 'unsafe-eval'.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');

/** What may not appear in any source file, with the reason a reader gets on failure. */
const FORBIDDEN: ReadonlyArray<readonly [RegExp, string]> = [
  [/_zod\b/, "reads zod's internals (`_zod`): use the public API (`schema.def`, `safeParse`, `z.toJSONSchema`)"],
  [/\bnew\s+Function\s*\(/, 'generates code at run time (`new Function(`)'],
  [/(?<![\w.$])Function\s*\(\s*['"`]/, 'generates code at run time (`Function("...")`)'],
  [/(?<![\w$])eval\s*\(/, 'evaluates code at run time (`eval(`)'],
];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.(c|m)?(t|j)sx?$/.test(name) ? [path] : [];
  });
}

/** Every forbidden use in `text`, as `line: reason`. */
function offences(text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const [pattern, reason] of FORBIDDEN) if (pattern.test(line)) out.push(`${i + 1}: ${reason}`);
  });
  return out;
}

describe('no zod internals, no run-time code generation under src/', () => {
  it('the check finds each forbidden form (so it can fail)', () => {
    expect(offences('const d = schema._zod.def;')).not.toEqual([]);
    expect(offences('const f = new Function("v", src);')).not.toEqual([]);
    expect(offences("const f = Function('return 1');")).not.toEqual([]);
    expect(offences('globalThis.eval(code); eval (x);')).not.toEqual([]);
    expect(offences('const retrieval = medieval(x); type F = Function; schema.def.type')).toEqual([]);
  });

  it('no file under src/ contains `_zod`, `new Function(` or `eval(`', () => {
    const all = files(SRC);
    expect(all.length).toBeGreaterThan(50);
    const found = all.flatMap((path) => offences(readFileSync(path, 'utf8')).map((o) => `${relative(ROOT, path)}:${o}`));
    expect(found).toEqual([]);
  });
});
