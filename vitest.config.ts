import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Every answer of the in-process mock held to its exact shape (test/helpers/exact-responses.ts).
    setupFiles: ['test/helpers/exact-responses.setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
