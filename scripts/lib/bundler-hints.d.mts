// Types for scripts/lib/bundler-hints.mjs (imported by tsup.config.ts and tests).
export declare const IMPORT_HINTS: string;
export declare const RUNTIME_IMPORT_PARAMETER: string;
export declare function bundlerHints(): {
  name: string;
  renderChunk(code: string, info: { path: string }): { code: string } | undefined;
};
