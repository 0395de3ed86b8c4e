import { defineConfig } from 'vitest/config';

// The whole suite on in-memory SQLite, and again on Postgres when TEST_DATABASE_URL is set.
const postgres = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Each file gets its own database (in-memory SQLite, or its own Postgres schema).
    pool: 'forks',
    projects: [
      { extends: true as const, test: { name: 'sqlite', include: ['test/**/*.test.ts'], env: { WAYBILL_TEST_DB: 'sqlite' } } },
      ...(postgres
        ? [{ extends: true as const, test: { name: 'postgres', include: ['test/**/*.test.ts'], env: { WAYBILL_TEST_DB: 'postgres' } } }]
        : []),
    ],
  },
});
