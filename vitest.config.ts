import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // As tsup.config.ts: the package version for src/openapi/version.ts.
  define: { __TRX_RENT_VERSION__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // vitest's default is one worker less than the cores: one worker on this 2-core machine, and
    // most files wait on sockets and child processes, not the CPU. Two workers here took the
    // suite from 231 s to 126 s (2026-11-26), every test passing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The mock holds every success body of both APIs to its table schema with no extra keys
    // (src/internal/exact.ts): an answer with one key too many is a 500 naming it. The variable
    // is inherited, so mocks the tests start as processes (the CLI's) are held too.
    env: { TRX_RENT_MOCK_EXACT: process.env.TRX_RENT_MOCK_EXACT ?? 'all' },
  },
});
