import { existsSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { library } from './tsup.config.js';

/** Where `tsc -p tsconfig.types.json` writes the declarations of src/ (the declarations step of scripts/build.mjs). */
export const TYPES_DIR = '.tmp/types';

// src/x.ts -> .tmp/types/x.d.ts, which tsc must have written: an entry missing from
// tsconfig.types.json's files has none, and is named here rather than by rollup.
const declared = (entries: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(entries).map(([name, file]) => {
      const types = file.replace(/^src\//, `${TYPES_DIR}/`).replace(/\.ts$/, '.d.ts');
      if (!existsSync(types)) throw new Error(`${types} is missing: run tsc -p tsconfig.types.json first, with ${file} in its files`);
      return [name, types];
    }),
  );

// The type declarations of the library's entries, bundled from what tsc declared (no second
// type-check: rollup-plugin-dts reads the .d.ts files), in one pass for both formats: each
// entry's .d.ts (ESM) and .d.cts (CommonJS). The webhook verifier's apart, as its code is: one
// self-contained file per format.
const webhooks = declared({ 'webhooks/index': 'src/webhooks/index.ts' });
const types = declared(library);
export default defineConfig([
  { entry: types, format: ['esm', 'cjs'], dts: { only: true, entry: types }, outDir: 'dist', clean: false },
  { entry: webhooks, format: ['esm', 'cjs'], dts: { only: true, entry: webhooks }, outDir: 'dist', clean: false },
]);
