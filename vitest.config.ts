import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // As tsup.config.ts: the package version for src/openapi/version.ts.
  define: { __TRX_RENT_VERSION__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).version) },
  test: {
    include: ['test/**/*.test.ts'],
    // Every answer of the in-process mock held to its exact shape (test/helpers/exact-responses.ts).
    setupFiles: ['test/helpers/exact-responses.setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The mock holds every account-API success body to its table schema with no extra keys
    // (src/internal/exact.ts); x402 results join once their invented fields are gone ('all').
    env: { TRX_RENT_MOCK_EXACT: process.env.TRX_RENT_MOCK_EXACT ?? 'account' },
  },
});
