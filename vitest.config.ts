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
    // vitest's default is one worker less than the cores: one worker on a 2-core machine, and
    // most files wait on sockets and child processes, not the CPU. Three workers on the 2-core
    // machine: the whole suite in 828 s against 1,100 s with two (2026-12-08, fresh clone,
    // every test passing; the CPU was 94 % busy, so more would only queue).
    maxWorkers: Math.max(3, availableParallelism() - 1),
    // The mock holds every success body of both APIs to its table schema with no extra keys
    // (src/internal/exact.ts): an answer with one key too many is a 500 naming it. The variable
    // is inherited, so mocks the tests start as processes (the CLI's) are held too.
    env: { TRX_RENT_MOCK_EXACT: process.env.TRX_RENT_MOCK_EXACT ?? 'all' },
  },
});
