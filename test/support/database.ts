import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { loadFixture, type LoadFixtureOptions } from '../../seeding/load-fixture.js';
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
 * on SQLite the database's bytes, on Postgres its schema as SQL (pg_dump); without pg_dump,
 * each Postgres database is migrated and filled itself.
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
  const script = await imageOf(`${key}.sql`, () => postgresImage(url, fill));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = createDb(url, { schema, maxConnections: 4 });
  const database = {
    db,
    url,
    async dispose() {
      await db.destroy();
      await dropSchema(url, schema);
    },
  };
  try {
    if (script.length > 0) await runScript(url, script.toString('utf8').replaceAll(IMAGE_SCHEMA, schema));
    else {
      await createSchema(url, schema);
      await migrateToLatest(db);
      await fill(db);
    }
  } catch (error) {
    await database.dispose();
    throw error;
  }
  return database;
}

/** Stands for the schema's name in a Postgres image. */
const IMAGE_SCHEMA = 'waybill_test_image_schema';

/** The schema migrating and `fill` make, as SQL that makes it again; empty without pg_dump. */
async function postgresImage(url: string, fill: (db: Db) => Promise<void>): Promise<Buffer> {
  const schema = `waybill_image_${randomBytes(6).toString('hex')}`;
  await createSchema(url, schema);
  try {
    const db = createDb(url, { schema, maxConnections: 4 });
    try {
      await migrateToLatest(db);
      await fill(db);
    } finally {
      await db.destroy();
    }
    let dump: string;
    try {
      const args = ['--no-owner', '--no-privileges', '--inserts', '--rows-per-insert=500', `--schema=${schema}`, url];
      ({ stdout: dump } = await promisify(execFile)('pg_dump', args, { maxBuffer: 1 << 28 }));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0);
      throw error;
    }
    // Lines starting with a backslash are psql's commands, not SQL.
    const sql = dump
      .split('\n')
      .filter((line) => !line.startsWith('\\'))
      .join('\n');
    return Buffer.from(sql.replaceAll(schema, IMAGE_SCHEMA), 'utf8');
  } finally {
    await dropSchema(url, schema);
  }
}

async function runScript(url: string, script: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(script);
  } finally {
    await client.end();
  }
}

const images = new Map<string, Promise<Buffer>>();

/**
 * An image, built once per run: vitest runs each test file in a process of its own, so images
 * are kept in the run's folder (WAYBILL_TEST_IMAGES, made and removed by
 * test/support/global-setup.ts) for the other files. Without that folder (a benchmark importing
 * the harness), once per process.
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
