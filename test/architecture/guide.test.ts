/**
 * The guide stays true where a machine can tell: every `src/…` and `test/…` path that
 * ARCHITECTURE.md and DEVELOPERS.md name exists (a glob such as `test/mcp/*.test.ts` matches at
 * least one file), and so does every file named from inside src/ (`http/client.ts`,
 * `mock/msw.ts`: a path whose first folder is one of src/'s), and every public folder the guide
 * says has a README has one. A renamed or
 * removed file fails here until the guide follows it.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GUIDES = ['ARCHITECTURE.md', 'DEVELOPERS.md'];

/** The `src/…` and `test/…` paths a text names (trailing punctuation dropped). */
function namedPaths(text: string): string[] {
  const paths = new Set<string>();
  for (const m of text.matchAll(/(?<![\w./-])((?:src|test)\/[\w.*/{}-]*[\w*/}])/g)) paths.add(m[1]!.replace(/\.$/, ''));
  return [...paths];
}

/** Files a text names from inside src/ (`http/client.ts`): a path whose first folder is one of `folders`. */
function srcRelativePaths(text: string, folders: readonly string[]): string[] {
  const paths = new Set<string>();
  for (const m of text.matchAll(/(?<![\w./-])((?:[a-z][\w-]*\/)+[\w.*-]*\.(?:ts|mts|mjs|json|md))\b/g)) {
    if (folders.includes(m[1]!.split('/')[0]!)) paths.add(`src/${m[1]}`);
  }
  return [...paths];
}

const SRC_FOLDERS = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

/** Whether `path` (from the root; `*` matches within one segment) names something that exists. */
function pathExists(path: string, root = ROOT): boolean {
  if (!path.includes('*')) return existsSync(join(root, path));
  const parts = path.replace(/\/$/, '').split('/');
  let candidates = [root];
  for (const part of parts) {
    const re = new RegExp(`^${part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    candidates = candidates.flatMap((dir) => {
      try {
        return readdirSync(dir)
          .filter((name) => re.test(name))
          .map((name) => join(dir, name));
      } catch {
        return [];
      }
    });
  }
  return candidates.length > 0;
}

describe('the guide names only what exists', () => {
  for (const guide of GUIDES) {
    it(`every src/ and test/ path ${guide} names exists`, () => {
      const named = namedPaths(readFileSync(join(ROOT, guide), 'utf8'));
      expect(named.length).toBeGreaterThan(10);
      expect(named.filter((p) => !pathExists(p))).toEqual([]);
    });

    it(`every file ${guide} names from inside src/ (http/client.ts) exists`, () => {
      const named = srcRelativePaths(readFileSync(join(ROOT, guide), 'utf8'), SRC_FOLDERS);
      expect(named.filter((p) => !pathExists(p))).toEqual([]);
    });
  }

  it('the check can fail: a made-up path, a glob matching nothing', () => {
    expect(namedPaths('see `src/mock/account/withdrawals.ts` and (test/tron/).')).toEqual(['src/mock/account/withdrawals.ts', 'test/tron/']);
    expect(pathExists('src/mock/account/withdrawals.ts')).toBe(false);
    expect(pathExists('test/mcp/*.test.ts')).toBe(true);
    expect(pathExists('test/nowhere/*.test.ts')).toBe(false);
    // A file named from inside src/ that moved (http/path.ts is api/path.ts): found, and missing.
    expect(srcRelativePaths('the table encodes segments with `http/path.ts`; see bench/run.mjs', SRC_FOLDERS)).toEqual(['src/http/path.ts']);
    expect(pathExists('src/http/path.ts')).toBe(false);
  });
});

/** Words that tell a decision's history rather than what the code is: such stories go to DECISIONS.md. */
const HISTORY = /\b(an earlier version|this replaced|it replaced|replaced the|used to be|no longer uses|was replaced by|before this change)\b/i;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );
}

describe('module comments say what is, not how it came to be', () => {
  it('no src/ module comment tells a history (DECISIONS.md holds those)', () => {
    const told = sources('src').filter((file) => {
      const head = /^\/\*\*[\s\S]*?\*\//.exec(readFileSync(join(ROOT, file), 'utf8'))?.[0] ?? '';
      return HISTORY.test(head);
    });
    expect(told).toEqual([]);
    expect(existsSync(join(ROOT, 'DECISIONS.md'))).toBe(true);
  });
});
