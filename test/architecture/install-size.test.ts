/**
 * A clone's `npm ci` stays small: fewer than 500 packages (it was 1,119, most of them interop
 * stacks one test or script used; those now install on demand, scripts/lib/tools.mjs). Counted
 * from package-lock.json, which is exactly what `npm ci` installs (.ci/run also counts the real
 * node_modules right after its `npm ci`).
 */
import { existsSync, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toolNames } from '../../scripts/lib/tools.mjs';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const LIMIT = 500;
type Lock = { packages: Record<string, { version?: string; dev?: boolean; optional?: boolean; os?: string[]; cpu?: string[] }> };
const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/** Entries `npm ci` installs on this machine: every lockfile package but the root and other platforms' binaries. */
function installed(lock: Lock): string[] {
  const fits = (list: string[] | undefined, value: string) => !list || list.some((v) => (v.startsWith('!') ? v.slice(1) !== value : v === value));
  return Object.entries(lock.packages)
    .filter(([path, p]) => path !== '' && fits(p.os, process.platform) && fits(p.cpu, process.arch))
    .map(([path]) => path);
}

describe('install size of a clone', () => {
  const lock = readJson<Lock>(join(ROOT, 'package-lock.json'));
  const pkg = readJson<{ devDependencies: Record<string, string>; dependencies: Record<string, string> }>(join(ROOT, 'package.json'));

  it(`npm ci installs fewer than ${LIMIT} packages`, () => {
    const count = installed(lock).length;
    expect(count, `package-lock.json installs ${count} packages`).toBeLessThan(LIMIT);
  });

  it('the count is live: the lockfile as it was before the on-demand tools (x402-fetch@1.2.0 alone) would fail it', () => {
    const tool = readJson<Lock>(join(ROOT, 'scripts/tools/x402-v1/package-lock.json'));
    const merged: Lock = { packages: { ...lock.packages } };
    for (const [path, p] of Object.entries(tool.packages)) if (path) merged.packages[`x402-v1/${path}`] = p;
    expect(installed(merged).length).toBeGreaterThanOrEqual(LIMIT);
  });

  it('the on-demand tools are not devDependencies too, and each tool folder pins what its lockfile holds', () => {
    expect(toolNames().length).toBe(readdirSync(join(ROOT, 'scripts/tools')).length);
    for (const name of toolNames()) {
      const manifest = readJson<{ dependencies: Record<string, string> }>(join(ROOT, 'scripts/tools', name, 'package.json'));
      const toolLock = readJson<Lock>(join(ROOT, 'scripts/tools', name, 'package-lock.json'));
      for (const [dep, version] of Object.entries(manifest.dependencies)) {
        expect(pkg.devDependencies[dep], `${dep} is installed on demand (scripts/tools/${name})`).toBeUndefined();
        expect(toolLock.packages[`node_modules/${dep}`]?.version, `scripts/tools/${name}/package-lock.json`).toBe(version);
      }
    }
  });

  it('a real node_modules (not a link to another checkout) holds no more than the lockfile says', () => {
    const nm = join(ROOT, 'node_modules');
    if (!existsSync(join(nm, '.package-lock.json')) || lstatSync(nm).isSymbolicLink()) return;
    const hidden = readJson<Lock>(join(nm, '.package-lock.json'));
    expect(Object.keys(hidden.packages).length).toBeLessThan(LIMIT);
  });
});
