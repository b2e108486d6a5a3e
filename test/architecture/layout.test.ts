/**
 * The layout's figures, held: `test/` mirrors `src/` (every source folder has its test folder;
 * every test folder is a source folder's or one of the named suites that cross them all), and
 * no source file grows past the size a room can hold (400 lines; generated files aside).
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dirs = (path: string) => readdirSync(join(ROOT, path)).filter((n) => statSync(join(ROOT, path, n)).isDirectory());

/** Test folders that are not a source folder's: suites that cross every folder. */
const CROSSING_SUITES = ['architecture', 'security', 'chaos', 'props', 'secrets', 'docs', 'types', 'helpers'];

/** The most lines a source file may have. */
const MAX_LINES = 400;

/**
 * Files allowed over MAX_LINES, with the most lines each may have: none since 2026-11-28, when
 * the last twenty were split. A file put here may not grow; once under MAX_LINES it must leave.
 */
const OVER: Record<string, number> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = `${dir}/${name}`;
    if (statSync(join(ROOT, path)).isDirectory()) return sourceFiles(path);
    return /\.ts$/.test(name) && !/\.gen\.ts$/.test(name) ? [path] : [];
  });
}

describe('the layout', () => {
  it('test/ mirrors src/: a test folder per source folder, and no other folders but the crossing suites', () => {
    const src = dirs('src');
    const test = dirs('test');
    expect(src.filter((d) => !test.includes(d))).toEqual([]);
    expect(test.filter((d) => !src.includes(d) && !CROSSING_SUITES.includes(d))).toEqual([]);
  });

  it(`no source file over ${MAX_LINES} lines but the listed ones, none of which grows`, () => {
    const sizes = Object.fromEntries(sourceFiles('src').map((f) => [f, (readFileSync(join(ROOT, f), 'utf8').match(/\n/g) ?? []).length]));
    const over = Object.entries(sizes).filter(([f, n]) => n > MAX_LINES && !(f in OVER));
    expect(over).toEqual([]);
    const grown = Object.entries(OVER)
      .filter(([f, max]) => (sizes[f] ?? 0) > max)
      .map(([f, max]) => `${f}: ${sizes[f]} > ${max}`);
    expect(grown).toEqual([]);
    const shrunk = Object.keys(OVER).filter((f) => (sizes[f] ?? 0) <= MAX_LINES);
    expect(shrunk, 'under the limit now: take them off the list').toEqual([]);
  });
});
