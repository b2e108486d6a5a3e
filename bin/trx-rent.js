#!/usr/bin/env node
import { main } from '../dist/cli/index.js';

main(process.argv).then(
  (code) => {
    process.exitCode = code ?? 0;
  },
  (error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
