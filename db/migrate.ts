import { Migrator, sql, type DatabaseIntrospector, type Kysely } from 'kysely';
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

/**
 * Postgres: the database as the Migrator sees it, its introspection narrowed to the tables of
 * `schema`. Kysely's own getTables reads the columns of every table in every schema and calls
 * pg_get_serial_sequence on each by name, so a table another schema drops meanwhile (a test
 * file's position partitions, one schema per file) fails the migration with "relation ... does
 * not exist". The Migrator only asks whether its two bookkeeping tables exist.
 */
function withNarrowIntrospection(db: Kysely<any>, schema: string): Kysely<any> {
  const introspection: DatabaseIntrospector = {
    getSchemas: () => db.introspection.getSchemas(),
    getTables: async () => {
      const { rows } = await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = ${schema}`.execute(db);
      return rows.map(({ name }) => ({ name, schema, isView: false, columns: [] }));
    },
    getMetadata: async () => ({ tables: await introspection.getTables() }),
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value = Reflect.get(target, property, target);
      // Kysely keeps its state in private fields: its methods must run on the instance itself.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The project's migrator for this database (its schema, its migrations, narrow introspection). */
export async function createMigrator(db: Kysely<any>): Promise<Migrator> {
  const schema = await migrationSchema(db);
  return new Migrator({
    db: schema === undefined ? db : withNarrowIntrospection(db, schema),
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
    // Migrations written side by side may land out of name order (0074 after 0080 on a
    // database that already ran 0080): run the missing one instead of refusing to start.
    allowUnorderedMigrations: true,
  });
}

/** Applies every pending migration; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = await createMigrator(db);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : '';
    throw new Error(`migration failed${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
