import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropRunDatabases, newRunPrefix } from './postgres-databases.js';

/**
 * One folder per run for the images test/support/database.ts builds once and copies (a
 * migrated database, a database with a fixture loaded), and, on Postgres, one prefix for the
 * names of the run's image and test databases. Made fresh for every run, so a changed migration
 * or fixture loader is never served from an older image; the teardown removes them all.
 */
export default function setup(): () => Promise<void> {
  // Each vitest project runs this; the first one's folder and prefix serve the whole run.
  if (process.env.WAYBILL_TEST_IMAGES) return async () => {};
  const folder = mkdtempSync(join(tmpdir(), 'waybill-test-images-'));
  const run = newRunPrefix();
  process.env.WAYBILL_TEST_IMAGES = folder;
  process.env.WAYBILL_TEST_PG_RUN = run;
  return async () => {
    rmSync(folder, { recursive: true, force: true });
    delete process.env.WAYBILL_TEST_IMAGES;
    delete process.env.WAYBILL_TEST_PG_RUN;
    const url = process.env.TEST_DATABASE_URL;
    if (url) await dropRunDatabases(url, run);
  };
}
