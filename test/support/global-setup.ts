import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One folder per run for the SQLite images test/support/database.ts builds once and copies
 * (a migrated database, a database with a fixture loaded). Made fresh for every run, so a
 * changed migration or fixture loader is never served from an older image.
 */
export default function setup(): () => void {
  // Each vitest project runs this; the first one's folder serves the whole run.
  if (process.env.WAYBILL_TEST_IMAGES) return () => {};
  const folder = mkdtempSync(join(tmpdir(), 'waybill-test-images-'));
  process.env.WAYBILL_TEST_IMAGES = folder;
  return () => {
    rmSync(folder, { recursive: true, force: true });
    delete process.env.WAYBILL_TEST_IMAGES;
  };
}
