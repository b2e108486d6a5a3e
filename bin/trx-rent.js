#!/usr/bin/env node
import { main } from '../dist/cli/index.js';

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
);
