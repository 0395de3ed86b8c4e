import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFixture, type LoadFixtureOptions } from '../../core/fixtures/load-fixture.js';
import { createDb, createSchema, dropSchema, sqliteImage, type Db } from '../../db/create-db.js';
import { migrateToLatest } from '../../db/migrate.js';

/**
 * Which database the suite runs on: the `sqlite` and `processes` projects on in-memory SQLite,
 * `postgres` and `processes-postgres` on TEST_DATABASE_URL (see vitest.config.ts).
 */
export function testDatabaseKind(): 'sqlite' | 'postgres' {
  return process.env.WAYBILL_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
}

export interface TestDatabase {
  db: Db;
  /** A URL other processes (the admin CLI) can open for the same data; null for in-memory SQLite. */
  url: string | null;
  dispose(): Promise<void>;
}

/** A fresh, migrated database of its own: in-memory SQLite, or a new Postgres schema. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseKind() === 'sqlite') return openSqlite(await sqliteImageOf('migrated', migratedSqlite));
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('WAYBILL_TEST_DB=postgres needs TEST_DATABASE_URL');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  await createSchema(url, schema);
  const db = createDb(url, { schema, maxConnections: 4 });
  await migrateToLatest(db);
  return {
    db,
    url,
    async dispose() {
      await db.destroy();
      await dropSchema(url, schema);
    },
  };
}

/**
 * A fresh, migrated database holding `fixture` as loadFixture leaves it. On SQLite, a run loads
 * each fixture once per clock time and secret key and opens copies of that database for the
 * others: loading hashes every client secret with scrypt, which costs more than all the rest.
 */
export async function createTestDatabaseWith(fixture: unknown, options: LoadFixtureOptions): Promise<TestDatabase> {
  if (testDatabaseKind() === 'postgres') {
    const database = await createTestDatabase();
    await loadFixture(database.db, fixture, options).catch(async (error: unknown) => {
      await database.dispose();
      throw error;
    });
    return database;
  }
  const key = createHash('sha256')
    .update(JSON.stringify([fixture, options.clock.now().toISOString(), options.secretKey.toString('base64')]))
    .digest('hex')
    .slice(0, 32);
  const image = await sqliteImageOf(`fixture-${key}`, async () => {
    const db = await migratedSqlite();
    try {
      await loadFixture(db, fixture, options);
    } catch (error) {
      await db.destroy();
      throw error;
    }
    return db;
  });
  return openSqlite(image);
}

function openSqlite(image: Buffer): TestDatabase {
  const db = createDb('sqlite::memory:', { sqliteImage: image });
  return { db, url: null, dispose: () => db.destroy() };
}

async function migratedSqlite(): Promise<Db> {
  const db = createDb('sqlite::memory:');
  await migrateToLatest(db);
  return db;
}

const images = new Map<string, Promise<Buffer>>();

/**
 * The bytes of the SQLite database `build` makes, built once per run: vitest runs each test file
 * in a process of its own, so the image is kept in the run's folder (WAYBILL_TEST_IMAGES, made
 * and removed by test/support/global-setup.ts) for the other files. Without that folder (a
 * benchmark importing the harness), once per process.
 */
function sqliteImageOf(key: string, build: () => Promise<Db>): Promise<Buffer> {
  let image = images.get(key);
  if (!image) {
    image = readOrBuild(key, build);
    images.set(key, image);
    // A failed build (a fixture refused) is not kept: the next caller gets the error again.
    image.catch(() => images.delete(key));
  }
  return image;
}

async function readOrBuild(key: string, build: () => Promise<Db>): Promise<Buffer> {
  const folder = process.env.WAYBILL_TEST_IMAGES;
  const path = folder ? join(folder, `${key}.sqlite`) : null;
  if (path) {
    try {
      return readFileSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  const db = await build();
  const image = sqliteImage(db);
  await db.destroy();
  if (path) {
    // Two files may build the same image at once; a rename makes either one whole copy the one kept.
    const partial = `${path}.${process.pid}`;
    writeFileSync(partial, image);
    renameSync(partial, path);
  }
  return image;
}
