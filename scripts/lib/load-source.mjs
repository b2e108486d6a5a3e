// Import one module of src/ from a script, compiled fresh with tsup's API (no config file, one
// ESM bundle under .tmp/, packages left external so they resolve from node_modules): the scripts
// that generate files from the sources (openapi.mjs, api-md.mjs) never read a stale dist/.
import { rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The module `entry` (a path under `root`, e.g. 'src/api/endpoints.ts'), compiled and imported. */
export async function loadSource(root, entry) {
  const name = basename(entry).replace(/\.ts$/, '');
  const buildDir = join(root, '.tmp', `${name}-build-${process.pid}`);
  try {
    const { build } = await import('tsup');
    await build({
      config: false,
      entry: { [name]: join(root, entry) },
      format: ['esm'],
      outDir: buildDir,
      target: 'node20',
      platform: 'node',
      dts: false,
      splitting: false,
      sourcemap: false,
      clean: false,
      silent: true,
      skipNodeModulesBundle: true,
      outExtension: () => ({ js: '.mjs' }),
    });
    // Loaded once imported: the bundle can go.
    return await import(pathToFileURL(join(buildDir, `${name}.mjs`)).href);
  } finally {
    rmSync(buildDir, { recursive: true, force: true });
  }
}
