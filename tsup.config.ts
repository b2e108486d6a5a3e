import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

// The package version, put into the bundles at build time (src/openapi/version.ts).
const define = { __TRX_RENT_VERSION__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) };

// Library entries ship ESM + CJS + types. Heavy optional packages (tronweb, viem, @x402/*,
// @inquirer/prompts) stay external and are only reached through dynamic import().
export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      'schemas/index': 'src/schemas/index.ts',
      'mock/index': 'src/mock/index.ts',
      'mock/msw': 'src/mock/msw.ts',
      'x402/index': 'src/x402/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    splitting: true,
    sourcemap: false,
    clean: false, // npm run build empties dist first: parallel configs must not wipe each other
    target: 'node20',
    treeshake: true,
    define,
  },
  {
    // The webhook verifier is built alone, without code splitting: its output must be one
    // self-contained file with no imports, for browsers and edge runtimes.
    entry: { 'webhooks/index': 'src/webhooks/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    splitting: false,
    clean: false, // npm run build empties dist first: parallel configs must not wipe each other
    target: 'node20',
    treeshake: true,
    define,
  },
  {
    // The CLI is ESM only; bin/trx-rent.js imports it. Commands are split into lazy chunks.
    entry: { 'cli/index': 'src/cli/index.ts' },
    format: ['esm'],
    dts: false,
    splitting: true,
    clean: false, // npm run build empties dist first: parallel configs must not wipe each other
    target: 'node20',
    define,
  },
]);
