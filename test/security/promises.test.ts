/**
 * SECURITY.md's promises cite their tests by name. This keeps the citations honest: every
 * numbered promise cites at least one test, and every cited test exists in the cited file
 * (a bare file name is under test/security/, anything with a slash is a path from the root).
 * A renamed or deleted test fails here, so a promise cannot silently lose its proof.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

interface Promise_ {
  number: string;
  /** file as written in SECURITY.md -> titles cited for it */
  cited: Array<{ file: string; title: string }>;
}

/** The numbered rows of SECURITY.md's tables, with the tests each one cites in its last cell. */
function citedTests(markdown: string): Promise_[] {
  const rows: Promise_[] = [];
  for (const line of markdown.split('\n')) {
    const row = /^\|\s*(\d+)\s*\|(.*)\|\s*$/.exec(line);
    if (!row) continue;
    const cells = row[2]!.split(' | ');
    const testCell = cells[cells.length - 1]!;
    const cited: Promise_['cited'] = [];
    let file: string | undefined;
    // `file`: "title", "title"; `other`: "title" — a title belongs to the file named before it.
    for (const token of testCell.matchAll(/`([^`]+)`|"([^"]+)"/g)) {
      if (token[1] !== undefined) file = token[1];
      else if (file) cited.push({ file, title: token[2]! });
    }
    rows.push({ number: row[1]!, cited });
  }
  return rows;
}

/** The titles of `it(...)` / `test(...)` calls in a test file; a template's `${…}` matches anything. */
function testTitles(source: string): Array<string | RegExp> {
  const titles: Array<string | RegExp> = [];
  const call = /\b(?:it|test)(?:\.(?:only|skip|concurrent|fails))?\(\s*('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`)/g;
  for (const match of source.matchAll(call)) {
    const literal = match[1]!;
    const body = literal.slice(1, -1);
    if (literal.startsWith('`') && body.includes('${')) {
      const parts = body.split(/\$\{[^}]*\}/).map((p) => p.replace(/\\(.)/g, '$1').replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      titles.push(new RegExp(`^${parts.join('.+')}$`));
    } else titles.push(body.replace(/\\(.)/g, '$1'));
  }
  return titles;
}

function resolve(file: string): string {
  return file.includes('/') ? join(ROOT, file) : join(ROOT, 'test', 'security', file);
}

function exists(title: string, titles: Array<string | RegExp>): boolean {
  return titles.some((t) => (typeof t === 'string' ? t === title : t.test(title)));
}

const promises = citedTests(readFileSync(join(ROOT, 'SECURITY.md'), 'utf8'));

describe('SECURITY.md cites tests that exist', () => {
  it('finds the numbered promises 1 to 13, each citing at least one named test', () => {
    expect(promises.map((p) => p.number)).toEqual(Array.from({ length: 13 }, (_, i) => String(i + 1)));
    for (const p of promises) expect(p.cited.length, `promise ${p.number}`).toBeGreaterThan(0);
  });

  it('every cited test exists, by its exact title, in the cited file', () => {
    const missing: string[] = [];
    for (const p of promises) {
      for (const { file, title } of p.cited) {
        const path = resolve(file);
        if (!existsSync(path)) {
          missing.push(`promise ${p.number}: ${file} does not exist`);
          continue;
        }
        if (!exists(title, testTitles(readFileSync(path, 'utf8')))) missing.push(`promise ${p.number}: ${file} has no test "${title}"`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('the check can fail: a made-up title, a renamed one and a missing file are caught', () => {
    const source = "it('a real title', () => {});\nit(`${name}: templated`, () => {});\ntest(\"it\\'s quoted\", () => {});";
    const titles = testTitles(source);
    expect(exists('a real title', titles)).toBe(true);
    expect(exists('402 after payment: templated', titles)).toBe(true);
    expect(exists("it's quoted", titles)).toBe(true);
    expect(exists('a real title, renamed', titles)).toBe(false);
    expect(exists('templated', titles)).toBe(false);
    const rows = citedTests('| 1 | **x** | on | `a.test.ts`: "one", "two"; `test/b/c.test.ts`: "three" |');
    expect(rows).toEqual([
      {
        number: '1',
        cited: [
          { file: 'a.test.ts', title: 'one' },
          { file: 'a.test.ts', title: 'two' },
          { file: 'test/b/c.test.ts', title: 'three' },
        ],
      },
    ]);
    expect(existsSync(resolve('no-such.test.ts'))).toBe(false);
  });
});
