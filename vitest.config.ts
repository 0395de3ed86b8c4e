import { defineConfig } from 'vitest/config';

/**
 * The suite in lanes (docs/testing.md). Every test file is in exactly one: the two lists below
 * name the `unit` and `processes` files, every other file is a database test.
 *
 * - `unit`: no server and no test database; runs once.
 * - `sqlite` / `postgres`: everything else (HTTP through the harness, repositories, migrations),
 *   on in-memory SQLite, and on TEST_DATABASE_URL when it is set.
 * - `processes` / `processes-postgres`: tests that start other processes (`npm start`, the
 *   worker, the admin CLI, several API processes) or Chromium, on each database.
 */
const UNIT = [
  'test/docs-links.test.ts',
  'test/doc-references.test.ts',
  'test/edi-outbound-mappers.test.ts',
  'test/edi-x12-*.test.ts',
  'test/eta.test.ts',
  'test/fence-geometry.test.ts',
  'test/group-commit.test.ts',
  'test/local-datetime.test.ts',
  'test/polygon.test.ts',
  'test/record-id.test.ts',
  'test/reverse-geocode.test.ts',
  'test/sqlite-statement-cache.test.ts',
  'test/table-owners.test.ts',
  'test/time-zone.test.ts',
  'test/touched-tables.test.ts',
];

const PROCESSES = [
  'test/**/*.browser.test.ts',
  'test/admin-cli.test.ts',
  'test/rate-limit-lease-processes.test.ts',
  'test/start-prod.test.ts',
  'test/start.test.ts',
  'test/web-concurrency.test.ts',
  'test/webhook-worker-crash.test.ts',
];

const postgres = Boolean(process.env.TEST_DATABASE_URL);

interface LaneOptions {
  exclude?: string[];
  database?: 'sqlite' | 'postgres';
  /** The lane's global setup, when it needs more than the run's own. */
  globalSetup?: string[];
}

function lane(name: string, include: string[], options: LaneOptions = {}) {
  return {
    extends: true as const,
    test: {
      name,
      include,
      exclude: options.exclude ?? [],
      env: { WAYBILL_TEST_DB: options.database ?? 'sqlite' },
      ...(options.globalSetup ? { globalSetup: options.globalSetup } : {}),
    },
  };
}

const DATABASE = ['test/**/*.test.ts'];
const NOT_DATABASE = [...UNIT, ...PROCESSES];
const RUN_SETUP = ['test/support/global-setup.ts'];
// The processes lanes run the CLI, the worker and servers from dist/: built first.
const BUILT = [...RUN_SETUP, 'test/support/build-setup.ts'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 60_000,
    // Each file has a database of its own (an in-memory SQLite copy of the run's migrated image,
    // or a Postgres database copied from one) and an app of its own, so the files of a worker
    // share its process and the modules it loaded: loading the app afresh for every file cost
    // as much CPU as the tests themselves (docs/testing.md).
    pool: 'forks',
    isolate: false,
    globalSetup: RUN_SETUP,
    projects: [
      lane('unit', UNIT),
      lane('sqlite', DATABASE, { exclude: NOT_DATABASE }),
      lane('processes', PROCESSES, { globalSetup: BUILT }),
      ...(postgres
        ? [
            lane('postgres', DATABASE, { exclude: NOT_DATABASE, database: 'postgres' }),
            lane('processes-postgres', PROCESSES, { database: 'postgres', globalSetup: BUILT }),
          ]
        : []),
    ],
  },
});
