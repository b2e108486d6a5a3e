/**
 * The one peer loader (src/peers): the install command a MissingPeerDependencyError names is a
 * version the package's own peer ranges accept and the one it was tested with (the pinned dev
 * dependency), and every optional peer the loader knows is declared optional. No peer is named
 * in a literal import() a bundler would follow, in the sources or the built chunks, whose one
 * computed import keeps webpack's and Vite's hints; an app's own importer (`providePeers`) is
 * used instead, and a browser's "cannot resolve" is the install-command error too.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MissingPeerDependencyError } from '../../src/errors/index.js';
import { PEER_MODULES, PEER_VERSIONS, loadTronWeb, loadViemAccounts, loadYaml, providePeers } from '../../src/peers/index.js';
import { IMPORT_HINTS } from '../../scripts/lib/bundler-hints.mjs';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  devDependencies: Record<string, string>;
};

describe('the peer loader', () => {
  it('names, for every peer, the version the package is tested with, inside its peer range, declared optional', () => {
    for (const [name, version] of Object.entries(PEER_VERSIONS)) {
      expect(pkg.peerDependencies[name], name).toBe(`^${version}`);
      expect(pkg.peerDependenciesMeta[name]?.optional, name).toBe(true);
      expect(pkg.devDependencies[name], name).toBe(version);
    }
  });

  it('loads an installed peer once and shares it', async () => {
    const [a, b] = await Promise.all([loadTronWeb(), loadTronWeb()]);
    expect(a).toBe(b);
    expect(typeof (a as { TronWeb?: unknown }).TronWeb).toBe('function');
  });
});

describe('bundlers never see a peer', () => {
  const root = new URL('../..', import.meta.url);
  /** Peer modules `code` imports by a literal specifier (type queries, `typeof import('viem')`, are no import). */
  const literal = (code: string) =>
    PEER_MODULES.filter((m) => new RegExp(`(?<!typeof\\s+)import\\(\\s*(/\\*[^*]*\\*/\\s*)*['"\`]${m.replace(/[/.]/g, '\\$&')}['"\`]`).test(code));
  const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

  it('no source names a peer module in a literal import()', () => {
    const files = (dir: string): string[] =>
      readdirSync(new URL(dir, root), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(`${dir}${e.name}/`) : e.name.endsWith('.ts') ? [`${dir}${e.name}`] : [],
      );
    const sources = files('src/');
    expect(sources.length).toBeGreaterThan(100);
    expect(sources.flatMap((f) => literal(withoutComments(readFileSync(new URL(f, root), 'utf8'))).map((m) => `${f} -> ${m}`))).toEqual([]);
    // the check is live
    expect(literal("x = () => import('viem/accounts')")).toEqual(['viem/accounts']);
    expect(literal("type V = typeof import('viem')")).toEqual([]);
  });

  it("the built chunks (ESM and CJS) name no peer in a literal import(), and runtimeImport keeps webpack's and Vite's hints", () => {
    const dist = new URL('dist/', root);
    const chunks = readdirSync(dist, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(c?js)$/.test(f));
    const texts = chunks.map((f) => [f, readFileSync(join(dist.pathname, f), 'utf8')] as const);
    expect(texts.flatMap(([f, text]) => literal(text).map((m) => `${f} -> ${m}`))).toEqual([]);
    for (const ext of ['.js', '.cjs']) {
      const hinted = texts.filter(([f, text]) => f.endsWith(ext) && text.includes(`import(${IMPORT_HINTS} specifier)`));
      expect(hinted.length, `dist/*${ext} with runtimeImport`).toBe(1);
    }
  });
});

describe('providePeers (a bundled app names the peers it bundles)', () => {
  it("uses the app's importer instead of the runtime's, on the next load", async () => {
    const fake = { parseAllDocuments: () => [] };
    providePeers({ yaml: () => Promise.resolve(fake) });
    expect(await loadYaml()).toBe(fake);
  });

  it('refuses a module the library does not import, and a value that is not an importer', () => {
    expect(() => providePeers({ 'viem/chains': () => Promise.resolve({}) } as never)).toThrow(/not a module the library imports/);
    expect(() => providePeers({ yaml: {} } as never)).toThrow(/needs a function/);
  });

  it("a browser's unresolvable bare specifier is a MissingPeerDependencyError naming the install command", async () => {
    for (const message of [
      'Failed to resolve module specifier "viem/accounts". Relative references must start with either "/", "./", or "../".',
      'The specifier “viem/accounts” was a bare specifier, but was not remapped to anything.',
      "Module name, 'viem/accounts' does not resolve to a valid URL.",
    ]) {
      providePeers({ 'viem/accounts': () => Promise.reject(new TypeError(message)) });
      const error = await loadViemAccounts().catch((e: unknown) => e);
      expect(error, message).toBeInstanceOf(MissingPeerDependencyError);
      // @x402/core and @x402/evm are installed here: only viem is named
      expect((error as MissingPeerDependencyError).packages).toEqual([`viem@${PEER_VERSIONS.viem}`]);
    }
  });
});
