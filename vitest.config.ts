import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Each file gets its own database (in-memory SQLite, or its own Postgres schema).
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
