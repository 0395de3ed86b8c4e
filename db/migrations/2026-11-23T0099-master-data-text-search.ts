import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * Indexes for the master-data searches that match text anywhere (`Name` of customers, carriers
 * and locations, the users' `Keyword` over Name, UserName and Email: `lower(column) like
 * '%…%'`, core/shared/master-data-filters.ts). A B-tree cannot serve a match in the middle of
 * a value; a trigram GIN index (Postgres' pg_trgm) can: at 40,000 customers a selective Name
 * search went from a 55 ms scan of the tenant's rows to under 1 ms (bench/explain-master-data.ts).
 *
 * Postgres only, and only where pg_trgm can be had: it ships with Postgres (contrib) and is a
 * trusted extension, so a role that may create objects in the database can add it; where it
 * cannot, the searches stay correct and scan the tenant's rows as before. The extension goes
 * to the `public` schema (once per database, under an advisory lock so concurrent migrations
 * do not race on it), and the operator class is named with its schema. SQLite has no trigram
 * index; there the scan of one tenant's rows measured 4 to 15 ms at the same size.
 */

const INDEXES = [
  { name: 'customers_name_trgm_idx', table: 'customers', column: 'name', live: true },
  { name: 'carriers_name_trgm_idx', table: 'carriers', column: 'name', live: false },
  { name: 'locations_name_trgm_idx', table: 'locations', column: 'name', live: false },
  { name: 'users_name_trgm_idx', table: 'users', column: 'name', live: false },
  { name: 'users_user_name_trgm_idx', table: 'users', column: 'user_name', live: false },
  { name: 'users_email_trgm_idx', table: 'users', column: 'email', live: false },
] as const;

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The schema pg_trgm is in once this returns, or null when it is not there and cannot be added. */
async function trigramSchema(db: Kysely<any>): Promise<string | null> {
  await sql`select pg_advisory_xact_lock(hashtext('waybill: create extension pg_trgm'))`.execute(db);
  const installed = await sql<{ schema: string }>`select extnamespace::regnamespace::text as schema from pg_extension where extname = 'pg_trgm'`.execute(db);
  if (installed.rows[0]) return installed.rows[0].schema;
  const possible = await sql<{ ok: boolean }>`
    select exists (select 1 from pg_available_extensions where name = 'pg_trgm')
       and exists (select 1 from pg_namespace where nspname = 'public')
       and has_schema_privilege('public', 'CREATE')
       and has_database_privilege(current_database(), 'CREATE') as ok`.execute(db);
  if (!possible.rows[0]?.ok) return null;
  await sql`create extension if not exists pg_trgm schema public`.execute(db);
  return 'public';
}

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  const schema = await trigramSchema(db);
  if (!schema) return;
  const opclass = sql.raw(`${schema}.gin_trgm_ops`);
  for (const index of INDEXES) {
    const where = index.live ? sql` where deleted_at is null` : sql``;
    await sql`create index ${sql.id(index.name)} on ${sql.table(index.table)} using gin (lower(${sql.ref(index.column)}) ${opclass})${where}`.execute(db);
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  // The extension stays: other schemas of the database may use it.
  for (const index of INDEXES) await sql`drop index if exists ${sql.id(index.name)}`.execute(db);
}
