import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFixture, type LoadFixtureOptions } from '../../seeding/load-fixture.js';
import { createDb, createSchema, dropSchema, sqliteImage, type Db } from '../../db/create-db.js';
import { migrateToLatest } from '../../db/migrate.js';
import { copyDatabase, createImageDatabase, databaseOf, dropDatabase, runPrefix, withOptions } from './postgres-databases.js';

/**
 * Which database the suite runs on: the `sqlite` and `processes` projects on in-memory SQLite,
 * `postgres` and `processes-postgres` on TEST_DATABASE_URL (see vitest.config.ts).
 */
export function testDatabaseKind(): 'sqlite' | 'postgres' {
  return process.env.WAYBILL_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
}

export interface TestDatabase {
  db: Db;
  /**
   * A URL another connection or process (the admin CLI) can open for the same data: on
   * Postgres the copy's own database; null for in-memory SQLite.
   */
  url: string | null;
  dispose(): Promise<void>;
}

/** A fresh, migrated database of its own: in-memory SQLite, or a new Postgres database. */
export function createTestDatabase(): Promise<TestDatabase> {
  return createFromImage('migrated', async () => {});
}

/**
 * A fresh, migrated database holding `fixture` as loadFixture leaves it. A run loads each
 * fixture once per clock time and secret key and copies that database for the others: loading
 * hashes every client secret with scrypt, which costs more than all the rest of a test's start.
 */
export function createTestDatabaseWith(fixture: unknown, options: LoadFixtureOptions): Promise<TestDatabase> {
  const key = createHash('sha256')
    .update(JSON.stringify([fixture, options.clock.now().toISOString(), options.secretKey.toString('base64')]))
    .digest('hex')
    .slice(0, 32);
  return createFromImage(`fixture-${key}`, async (db) => {
    await loadFixture(db, fixture, options);
  });
}

/**
 * A copy of the database that migrating and then `fill` make. The image is made once per run:
 * on SQLite the database's bytes; on Postgres a database of its own that each copy names as
 * its template (`postgres-databases.ts`).
 */
async function createFromImage(key: string, fill: (db: Db) => Promise<void>): Promise<TestDatabase> {
  if (testDatabaseKind() === 'sqlite') {
    const image = await imageOf(`${key}.sqlite`, async () => {
      const db = createDb('sqlite::memory:');
      try {
        await migrateToLatest(db);
        await fill(db);
        return sqliteImage(db);
      } finally {
        await db.destroy();
      }
    });
    const db = createDb('sqlite::memory:', { sqliteImage: image });
    return { db, url: null, dispose: () => db.destroy() };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('WAYBILL_TEST_DB=postgres needs TEST_DATABASE_URL');
  const run = runPrefix();
  if (!run) return migratedSchema(url, fill);
  const template = await imageOf(`${key}.postgres`, async () => Buffer.from(await createImageDatabase(url, run, fill)));
  const copyUrl = await copyDatabase(url, template.toString('utf8'));
  const db = createDb(copyUrl, { maxConnections: 4 });
  return {
    db,
    url: copyUrl,
    async dispose() {
      await db.destroy();
      await dropDatabase(url, databaseOf(copyUrl));
    },
  };
}

/**
 * Without the run's global setup (a benchmark importing the harness) nothing would drop the
 * image databases at the end: a schema of its own in TEST_DATABASE_URL, migrated and filled.
 */
async function migratedSchema(url: string, fill: (db: Db) => Promise<void>): Promise<TestDatabase> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await createSchema(url, schema);
  const db = createDb(url, { schema, maxConnections: 4 });
  const database = {
    db,
    url: withOptions(url, `-c search_path=${schema}`),
    async dispose() {
      await db.destroy();
      await dropSchema(url, schema);
    },
  };
  try {
    await migrateToLatest(db);
    await fill(db);
  } catch (error) {
    await database.dispose();
    throw error;
  }
  return database;
}

const images = new Map<string, Promise<Buffer>>();

/**
 * An image, built once per run: a lane's files run in several worker processes (and a run has
 * several lanes), so images are kept in the run's folder (WAYBILL_TEST_IMAGES, made and removed
 * by test/support/global-setup.ts) for the other processes, and in memory for the next files of
 * this one. Without that folder (a benchmark importing the harness), once per process.
 */
function imageOf(name: string, build: () => Promise<Buffer>): Promise<Buffer> {
  let image = images.get(name);
  if (!image) {
    image = readOrBuild(name, build);
    images.set(name, image);
    // A failed build (a fixture refused) is not kept: the next caller gets the error again.
    image.catch(() => images.delete(name));
  }
  return image;
}

async function readOrBuild(name: string, build: () => Promise<Buffer>): Promise<Buffer> {
  const folder = process.env.WAYBILL_TEST_IMAGES;
  const path = folder ? join(folder, name) : null;
  if (path) {
    try {
      return readFileSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  const image = await build();
  if (path) {
    // Two files may build the same image at once; a rename makes either one whole copy the one kept.
    const partial = `${path}.${process.pid}`;
    writeFileSync(partial, image);
    renameSync(partial, path);
  }
  return image;
}
