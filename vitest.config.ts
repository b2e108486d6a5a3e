import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // The mock holds every account-API success body to its table schema with no extra keys
    // (src/internal/exact.ts); x402 results join once their invented fields are gone ('all').
    env: { TRX_RENT_MOCK_EXACT: process.env.TRX_RENT_MOCK_EXACT ?? 'account' },
  },
});
