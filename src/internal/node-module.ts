/**
 * A Node builtin loaded on first use, for the few features of the library that only make sense
 * in Node (a transfer store on disk, a payout journal). The name is a variable so that a browser
 * bundle of the core, which reaches those modules through lazy chunks, never tries to resolve
 * `fs` or `path`: the import happens only when the feature is used, in Node.
 * @module
 */

/** `node:fs`, `node:fs/promises`, `node:path`, `node:crypto` or `node:os`, imported when first asked for. */
export function nodeModule<T>(name: 'node:fs' | 'node:fs/promises' | 'node:path' | 'node:crypto' | 'node:os'): Promise<T> {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ name as string) as Promise<T>;
}
