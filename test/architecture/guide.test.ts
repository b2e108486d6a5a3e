/**
 * The guide stays true where a machine can tell: every `src/…` and `test/…` path that
 * ARCHITECTURE.md and DEVELOPERS.md name exists (a glob such as `test/mcp/*.test.ts` matches at
 * least one file), and every public folder the guide says has a README has one. A renamed or
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

/** Whether `path` (from the root; `*` matches within one segment) names something that exists. */
function pathExists(path: string, root = ROOT): boolean {
  if (!path.includes('*')) return existsSync(join(root, path));
  const parts = path.replace(/\/$/, '').split('/');
  let candidates = [root];
  for (const part of parts) {
    const re = new RegExp(`^${part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    candidates = candidates.flatMap((dir) => {
      try {
        return readdirSync(dir).filter((name) => re.test(name)).map((name) => join(dir, name));
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
  }

  it('the check can fail: a made-up path, a glob matching nothing', () => {
    expect(namedPaths('see `src/mock/account/withdrawals.ts` and (test/tron/).')).toEqual(['src/mock/account/withdrawals.ts', 'test/tron/']);
    expect(pathExists('src/mock/account/withdrawals.ts')).toBe(false);
    expect(pathExists('test/mcp/*.test.ts')).toBe(true);
    expect(pathExists('test/nowhere/*.test.ts')).toBe(false);
  });
});

/** Words that tell a decision's history rather than what the code is: such stories go to DECISIONS.md. */
const HISTORY = /\b(an earlier version|this replaced|it replaced|replaced the|used to be|no longer uses|was replaced by|before this change)\b/i;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : []));
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
