import type { Config } from '../core/config.js';
import { createDb, fillPool, plannedOnce, type Db } from '../db/create-db.js';
import { migrateToLatest } from '../db/migrate.js';

/**
 * The database of a serving process (API, worker): DATABASE_POOL_SIZE connections, each warmed
 * before its first use and kept open (db/warm-connection.ts), and for an API process (`positions`)
 * up to 4 more for position ingestion. `migrate` first brings the schema
 * up to date, so the connections opened after it warm today's tables.
 */
export async function openServerDb(config: Config, options: { migrate: boolean; positions?: boolean }): Promise<Db> {
  const db = createDb(config.databaseUrl, { maxConnections: config.databasePoolSize, statementCache: config.databaseStatementCache, warmConnections: true });
  if (options.migrate) await migrateToLatest(db);
  await fillPool(db);
  // An API process ingests positions on connections of their own (core/visibility/position-writer.ts), opened and warmed now too.
  if (options.positions) await fillPool(plannedOnce(db));
  return db;
}
