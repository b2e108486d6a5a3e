import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // As tsup.config.ts: the package version for src/openapi/version.ts.
  define: { __TRX_RENT_VERSION__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The mock holds every success body of both APIs to its table schema with no extra keys
    // (src/internal/exact.ts): an answer with one key too many is a 500 naming it. The variable
    // is inherited, so mocks the tests start as processes (the CLI's) are held too.
    env: { TRX_RENT_MOCK_EXACT: process.env.TRX_RENT_MOCK_EXACT ?? 'all' },
  },
});
