/**
 * `import()` of a module named at run time, which no bundler follows: the library's optional
 * peers (viem, @x402/*, tronweb, the MCP SDK, yaml; `src/peers`) and the few Node builtins of
 * features that only make sense in Node (a transfer store on disk, a payout journal). A literal
 * `import('viem')` makes esbuild, Rollup, webpack and Vite resolve the package when an app bundles
 * the library, and fail when it is not installed; with the name in a variable they leave the
 * import as it is, and it happens only when the feature is used. The two comments tell webpack
 * and Vite to leave it alone without a warning; tsup's whitespace minification removes them, so
 * `scripts/bundler-hints.mjs` writes them back into `dist/` after the build (and fails the
 * build when it finds no such import, or another computed one).
 * @module
 */

/**
 * `import(specifier)`, hidden from bundlers: resolved by the runtime when called (Node, Deno,
 * Bun; in a browser, an import map), never at bundle time.
 */
export function runtimeImport<T>(specifier: string): Promise<T> {
  return import(/* webpackIgnore: true */ /* @vite-ignore */ specifier) as Promise<T>;
}

/** `node:fs`, `node:fs/promises`, `node:path`, `node:crypto` or `node:os`, imported when first asked for. */
export function nodeModule<T>(name: 'node:fs' | 'node:fs/promises' | 'node:path' | 'node:crypto' | 'node:os'): Promise<T> {
  return runtimeImport<T>(name);
}
