import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { systemClock } from '../core/clock.js';
import { loadConfig } from '../core/config.js';
import { FixtureError, formatFixtureSummary, loadFixture } from '../seeding/load-fixture.js';
import { createDb, redactUrl, type Db } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';
import { resolveSecretKey } from './secret-key.js';

/**
 * `npm run seed -- <fixture.json>` (README.md#commands): migrate DATABASE_URL, then load the fixture
 * in one transaction. A refused fixture prints every problem, one per line, and loads nothing.
 */

class SeedError extends Error {}

async function readFixture(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new SeedError(
      code === 'ENOENT' ? `fixture file not found: ${path}` : `cannot read fixture file ${path}: ${(error as Error).message}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SeedError(`fixture file ${path} is not valid JSON: ${(error as Error).message}`);
  }
}

async function main(args: string[]): Promise<number> {
  const [file, ...extra] = args;
  if (!file || extra.length > 0) {
    console.error('usage: npm run seed -- <fixture.json>');
    return 2;
  }
  let db: Db | undefined;
  try {
    const path = resolve(file);
    // Read and parse before touching the database, so a typo in the path changes nothing.
    const fixture = await readFixture(path);
    const config = loadConfig();
    const secretKey = resolveSecretKey(config);
    db = createDb(config.databaseUrl);
    await migrateToLatest(db);
    const summary = await loadFixture(db, fixture, { clock: systemClock, secretKey });
    console.log(`Loaded ${path} into ${redactUrl(config.databaseUrl)}:`);
    console.log(formatFixtureSummary(summary));
    return 0;
  } catch (error) {
    if (error instanceof FixtureError) {
      console.error(`Fixture refused, nothing was loaded (${error.problems.length} problem${error.problems.length === 1 ? '' : 's'}):`);
      for (const problem of error.problems) console.error(problem);
    } else {
      console.error(`seed failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return 1;
  } finally {
    await db?.destroy();
  }
}

process.exitCode = await main(process.argv.slice(2));
