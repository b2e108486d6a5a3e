import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { bundlerHints } from './scripts/lib/bundler-hints.mjs';

// The package version, put into the bundles at build time (src/openapi/version.ts).
const define = { __TRX_RENT_VERSION__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) };

// The library's entries (ESM + CJS), and the CLI (ESM only; bin/trx-rent.js imports it). Their
// type declarations are built apart, once for both formats, by the declarations step of scripts/build.mjs
// (tsc, then tsup.types.config.ts bundles what tsc wrote).
export const library = {
  index: 'src/index.ts',
  'schemas/index': 'src/schemas/index.ts',
  'mock/index': 'src/mock/index.ts',
  'mock/msw': 'src/mock/msw.ts',
  'x402/index': 'src/x402/index.ts',
  // Standing rules (`trx-rent/rules`): never reached from the core entry.
  'rules/index': 'src/workflows/rules/index.ts',
  // Signers (`trx-rent/signers`): local key, TronWeb, function, AWS KMS; secp256k1 loads with it, not with the core.
  'signers/index': 'src/protocol/signers/index.ts',
};

// Library entries ship ESM + CJS (types: see above). Heavy optional packages (tronweb, viem, @x402/*,
// @inquirer/prompts) stay external and are only reached through dynamic import().
export default defineConfig([
  {
    // ESM: the library and the CLI in one build, so they share chunks. Built apart, the CLI
    // carried its own copy of the mock, the clients and the schemas (about 0.6 MB of the
    // tarball).
    entry: { ...library, 'cli/index': 'src/cli/index.ts' },
    format: ['esm'],
    splitting: true,
    sourcemap: false,
    clean: false, // npm run build empties dist first: parallel configs must not wipe each other
    target: 'node20',
    treeshake: true,
    // Whitespace and syntax only (identifiers and names kept: stack traces name every function
    // and error class): 13.42 -> under 13 MB installed, the package's goal.
    minifyWhitespace: true,
    minifySyntax: true,
    define,
    // The comments that keep webpack and Vite off the computed import() of the optional peers.
    plugins: [bundlerHints()],
  },
  {
    entry: library,
    format: ['cjs'],
    splitting: true,
    sourcemap: false,
    clean: false,
    target: 'node20',
    treeshake: true,
    // Whitespace and syntax only (identifiers and names kept: stack traces name every function
    // and error class): 13.42 -> under 13 MB installed, the package's goal.
    minifyWhitespace: true,
    minifySyntax: true,
    define,
    // The comments that keep webpack and Vite off the computed import() of the optional peers.
    plugins: [bundlerHints()],
  },
  {
    // The webhook verifier is built alone, without code splitting: its output must be one
    // self-contained file with no imports, for browsers and edge runtimes.
    entry: { 'webhooks/index': 'src/webhooks/index.ts' },
    format: ['esm', 'cjs'],
    splitting: false,
    clean: false, // npm run build empties dist first: parallel configs must not wipe each other
    target: 'node20',
    treeshake: true,
    // Whitespace and syntax only (identifiers and names kept: stack traces name every function
    // and error class): 13.42 -> under 13 MB installed, the package's goal.
    minifyWhitespace: true,
    minifySyntax: true,
    define,
    // The comments that keep webpack and Vite off the computed import() of the optional peers.
    plugins: [bundlerHints()],
  },
]);
