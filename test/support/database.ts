import { randomBytes } from 'node:crypto';
import { createDb, createSchema, dropSchema, type Db } from '../../db/create-db.js';
import { migrateToLatest } from '../../db/migrate.js';

/**
 * Which database the suite runs on. `npm test` runs the suite as two vitest projects:
 * `sqlite` always, `postgres` when TEST_DATABASE_URL is set (see vitest.config.ts).
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
  if (testDatabaseKind() === 'sqlite') {
    const db = createDb('sqlite::memory:');
    await migrateToLatest(db);
    return { db, url: null, dispose: () => db.destroy() };
  }
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
