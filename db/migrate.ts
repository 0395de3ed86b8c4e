import { Migrator, sql, type Kysely } from 'kysely';
import { dialectOf } from './create-db.js';
import { migrations } from './migrations/index.js';

/**
 * Postgres: the schema the connection works in (search_path). Kysely's Migrator looks for its
 * bookkeeping tables in every schema unless told which one, so a second schema in the same
 * database (one per test file) would find the first one's tables and skip creating its own.
 */
async function migrationSchema(db: Kysely<any>): Promise<string | undefined> {
  if (dialectOf(db) !== 'postgres') return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? undefined;
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: await migrationSchema(db),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
