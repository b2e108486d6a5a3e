import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Files that change what a module keeps for the whole process and do not put it back: they
 * run isolated (a fresh module graph each). `providePeers` replaces a peer's importer for
 * good, as an app does once at start-up, and test/peers/ provides fakes and failures.
 */
const ISOLATED = ['test/peers/**/*.test.ts'];

export default defineConfig({
  // As tsup.config.ts: the package version for src/openapi/version.ts.
  define: { __TRX_RENT_VERSION__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
  test: {
    // Which files: see the two projects below.
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
    // Each worker imports the sources once for all the files it runs, not once per file: the
    // suite's time spent importing was 292 s of 763 s with isolation, and the suite took 403 s
    // without it (2026-12-08, fresh clone, three workers). Tests restore what they change
    // (environment variables, globals, fake timers: each in its own afterEach or finally); a file
    // that cannot is listed in ISOLATED.
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
      { extends: true, test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false } },
    ],
  },
});
