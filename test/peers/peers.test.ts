/**
 * The one peer loader (src/peers): the install command a MissingPeerDependencyError names is a
 * version the package's own peer ranges accept and the one it was tested with (the pinned dev
 * dependency), and every optional peer the loader knows is declared optional.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PEER_VERSIONS, loadTronWeb } from '../../src/peers/index.js';

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
