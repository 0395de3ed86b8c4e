import type { Config } from '../core/config.js';
import { createDb, fillPool, type Db } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';

/**
 * The database of a serving process (API, worker): DATABASE_POOL_SIZE connections, each warmed
 * before its first use and kept open (db/warm-connection.ts). `migrate` first brings the schema
 * up to date, so the connections opened after it warm today's tables.
 */
export async function openServerDb(config: Config, options: { migrate: boolean }): Promise<Db> {
  const db = createDb(config.databaseUrl, { maxConnections: config.databasePoolSize, statementCache: config.databaseStatementCache, warmConnections: true });
  if (options.migrate) await migrateToLatest(db);
  await fillPool(db);
  return db;
}
