// A tsup plugin: writes back, in every output chunk, the comments that make webpack and Vite
// leave the library's one computed `import()` alone (`runtimeImport` in
// src/internal/node-module.ts, which loads the optional peers and Node builtins by a name no
// bundler follows). tsup's whitespace minification removes every comment; without these two,
// webpack replaces the import with an empty context that can never load an installed peer and
// warns "Critical dependency", and Vite warns that it cannot analyse it.
//
// Any other computed import() in the output fails the build: it would need the same care.

/** The comments put in front of the specifier, as in the source. */
export const IMPORT_HINTS = '/* webpackIgnore: true */ /* @vite-ignore */';
/** The parameter name of `runtimeImport`, the one computed import the library has. */
export const RUNTIME_IMPORT_PARAMETER = 'specifier';

const COMPUTED_IMPORT = /(?<![\w$.])import\(\s*([A-Za-z_$][\w$]*)\s*\)/g;

/** The tsup plugin (`plugins: [bundlerHints()]` in tsup.config.ts). */
export function bundlerHints() {
  return {
    name: 'bundler-hints',
    renderChunk(code, info) {
      let found = 0;
      const out = code.replace(COMPUTED_IMPORT, (_, name) => {
        if (name !== RUNTIME_IMPORT_PARAMETER) {
          throw new Error(
            `${info.path}: import(${name}) is a computed import outside runtimeImport (src/internal/node-module.ts); load it through runtimeImport`,
          );
        }
        found++;
        return `import(${IMPORT_HINTS} ${name})`;
      });
      return found ? { code: out } : undefined;
    },
  };
}
