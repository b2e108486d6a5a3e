#!/usr/bin/env node
// The CLI is built (dist/cli/index.js, by `npm install`'s prepare in a clone, or in the published
// package). Without a build this says what to run instead of a module-resolution stack trace.
import('../dist/cli/index.js').then(
  ({ main }) =>
    // main() never exits the process: it resolves to the exit code, and the process ends by itself
    // once nothing is left to do (so pending output is flushed).
    main(process.argv.slice(2)).then(
      (code) => {
        process.exitCode = code ?? 0;
      },
      (error) => {
        console.error(error instanceof Error ? error.message : String(error));
        process.exitCode = 1;
      },
    ),
  (error) => {
    if (error?.code === 'ERR_MODULE_NOT_FOUND' && /Cannot find module '[^']*dist[/]cli[/]index.js'/.test(String(error.message))) {
      console.error('error NOT_BUILT: dist/ is missing (hint: run `npm run build` in this clone; `npm install` does it through prepare)');
    } else {
      console.error(error instanceof Error ? error.message : String(error));
    }
    process.exitCode = 1;
  },
);
